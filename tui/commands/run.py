"""Run one scripting command: logging, the event loop, and errors turned into exit statuses."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, date, datetime
from typing import TextIO

from tui import commands, logsetup
from tui.commands import exits
from tui.store.engine import NOTICES


def main(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``args.command``; print errors on stderr; return the exit status."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err

    try:
        logsetup.setup(logsetup.level_from(args.debug, os.environ), stderr=args.debug)
    except logsetup.LogLevelError as error:
        print(f"freight: {error}", file=err)
        return exits.USAGE

    def notice(text: str) -> None:  # the store reconnecting after a database restart
        print(f"freight: {text}", file=err, flush=True)

    NOTICES.append(notice)
    try:
        return asyncio.run(_run(args, out, err))
    except KeyboardInterrupt:
        print("\nfreight: interrupted", file=err)
        return exits.INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return exits.OK
    except Exception as error:
        from tui.api.errors import FreightError
        from tui.store.engine import StoreError

        known = (exits.UsageError, exits.NotFound, exits.NotSignedInError, FreightError, StoreError)
        if not isinstance(error, known):
            return exits.report_bug(error, err)
        return exits.report(error, err)
    finally:
        NOTICES.remove(notice)


async def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.command == "shipments":
        return await commands.shipments.run(args, out, err, date.today())
    if args.command == "shipment":
        return await commands.detail.run(args, out, err)
    if args.command == "rates":
        return await commands.rates.run(args, out, err)
    if args.command == "batch":
        return await commands.batch.run(args, out, err)
    if args.command == "report":
        return await commands.report.run(
            args, out, err, datetime.now(UTC).date()
        )  # its days are UTC
    if args.command == "day":
        return await commands.day.run(args, out, err, date.today())
    if args.command in ("pickup", "cancel"):
        run = (
            commands.changes.run_pickup if args.command == "pickup" else commands.changes.run_cancel
        )
        return await run(args, out, err)
    if args.command == "store":
        return await commands.store.run(args, out, err)
    return await commands.track.run(args, out, err)


def _quiet_stdout() -> None:
    """After ``| head`` closed the pipe: point stdout at /dev/null so exit does not complain."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
