"""``freight cancel`` and ``freight pickup``: change a booked shipment, and ``batch cancel``.

A shipment is named by its id, PRO, BOL or tracking number: exactly one shipment must have
it (the search's near matches never count), so a change never touches another shipment.
Each change is recorded in the store before it is sent (``tui.booking.changes``). A
production profile asks to confirm (``--yes`` for scripts; without a terminal and without
``--yes``: refused).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections.abc import Callable, Sequence
from datetime import date, time
from typing import TYPE_CHECKING, Any, TextIO

from tui.commands.exits import FAILED, OK, NotFound, UsageError
from tui.config.paths import data_dir
from tui.domain.safe_text import plain
from tui.store import open_store, station_name
from tui.store.changes import ChangeLog

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.batch.engine import Batch
    from tui.booking.changes import ChangeEngine
    from tui.config.settings import Profile

_WINDOW = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


def add_change_commands(
    sub: Any, add_target_flags: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add ``pickup`` and ``cancel``."""
    pickup = sub.add_parser(
        "pickup",
        help="move a booked shipment's pickup, ask for one, or cancel it",
        description=(
            "Move the pickup of SHIPMENT (id, PRO, BOL or tracking number) to --date in "
            "--window, asking for one where the booking had none; --cancel cancels it. "
            "Refused once picked up, or after the carrier's cut-off on the pickup day.\n"
            "  freight pickup 7301224 --date 2026-12-09 --window 09:00-15:00\n"
            "  freight pickup 7301224 --cancel --yes"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pickup.add_argument("shipment", metavar="SHIPMENT|PRO", help="shipment id, PRO, BOL…")
    pickup.add_argument("--date", metavar="YYYY-MM-DD", help="the new pickup day")
    pickup.add_argument(
        "--window", default="08:00-16:00", metavar="HH:MM-HH:MM",
        help="when the freight is ready and the dock closes (default 08:00-16:00)",
    )  # fmt: skip
    pickup.add_argument("--cancel", action="store_true", help="cancel the pickup")
    pickup.add_argument("--yes", action="store_true", help="do not ask (production, scripts)")
    add_target_flags(pickup)
    cancel = sub.add_parser(
        "cancel",
        help="cancel booked shipments before their pickup",
        description=(
            "Cancel each SHIPMENT (id, PRO, BOL or tracking number), once: a cancel already "
            "done is not sent again. Refused once picked up, or after the carrier's cut-off "
            "on the pickup day. The order is booked again only when you say so.\n"
            "  freight cancel 7301224 7301225 --yes"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cancel.add_argument("shipments", metavar="SHIPMENT|PRO", nargs="+", help="what to cancel")
    cancel.add_argument("--yes", action="store_true", help="do not ask (production, scripts)")
    add_target_flags(cancel)


def window_of(text: str) -> tuple[time, time]:
    """``08:00-16:00`` -> (ready, close); UsageError when it is not a window."""
    match = _WINDOW.match(text or "")
    try:
        if match is None:
            raise ValueError
        hours = [int(g) for g in match.groups()]
        ready, close = time(hours[0], hours[1]), time(hours[2], hours[3])
    except ValueError:
        raise UsageError(f"--window {text!r}: give it as HH:MM-HH:MM, e.g. 08:00-16:00") from None
    if close <= ready:
        raise UsageError(f"--window {text!r}: the close time must be after the ready time")
    return ready, close


async def resolve(client: FreightClient, number: str) -> str:
    """The id of the one shipment whose id, PRO, BOL or tracking number is ``number``."""
    from tui.commands.track import by_id, find

    if not number.strip():
        raise UsageError("SHIPMENT: give a shipment id, PRO, BOL or tracking number")
    found = {shipment.id for shipment in await find(client, number)}
    if len(found) > 1:
        raise UsageError(
            f"{plain(number, limit=40)} names {len(found)} shipments "
            f"({', '.join(sorted(found)[:5])}): give the shipment id"
        )
    if found:
        return found.pop()
    detail = await by_id(client, number)
    if detail is None:
        raise NotFound(f"no shipment has the id, PRO, BOL or tracking number {number!r}")
    return detail.id


def _account(args: argparse.Namespace) -> tuple[str, str]:
    from tui.commands.connect import ledger_account

    return ledger_account(args)


async def confirmed(environment: str, question: str, yes: bool, err: TextIO) -> bool:
    """Whether to go ahead: always off production; on it, ``--yes`` or a typed yes."""
    if environment != "production" or yes:
        return True
    if not sys.stdin.isatty():
        raise UsageError(
            "a production profile changes shipments from a script only with --yes (no "
            "terminal to confirm on)"
        )
    err.write(f"{question} (production) Type yes to confirm: ")
    err.flush()
    typed = await asyncio.to_thread(sys.stdin.readline)
    return typed.strip().casefold() in ("y", "yes")


def _engine(client: FreightClient, account: str, environment: str) -> tuple[ChangeEngine, Any]:
    from tui.api.changes import ShipmentChanges
    from tui.booking.changes import ChangeEngine

    store = open_store(data_dir())
    log = ChangeLog(store, account, environment, station_name())
    return ChangeEngine(ShipmentChanges(client), log), store


async def cancel_ids(
    client: FreightClient,
    ids: Sequence[str],
    account: str,
    environment: str,
    out: TextIO,
) -> int:
    """Cancel each shipment id; print one line each; 0 when all are canceled."""
    engine, store = _engine(client, account, environment)
    failed = 0
    try:
        for sid in ids:
            outcome = await engine.cancel(sid)
            print(plain(outcome.message, limit=400), file=out)
            failed += not outcome.ok
    finally:
        store.close()
    return FAILED if failed else OK


async def run_cancel(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``freight cancel SHIPMENT…``."""
    from tui.commands.connect import open_client

    account, environment = _account(args)
    async with open_client(args) as client:
        ids = list(dict.fromkeys([await resolve(client, number) for number in args.shipments]))
        question = f"Cancel {len(ids)} shipment{'s' * (len(ids) != 1)} ({', '.join(ids)})?"
        if not await confirmed(environment, question, args.yes, err):
            print("freight: not canceled: not confirmed", file=err)
            return FAILED
        return await cancel_ids(client, ids, account, environment, out)


async def run_pickup(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``freight pickup SHIPMENT --date D [--window] | --cancel``."""
    from tui.api.models.changes import PickupChange
    from tui.commands.connect import open_client

    change = None
    if args.cancel:
        if args.date:
            raise UsageError("--cancel and --date: give one (cancel the pickup, or move it)")
    else:
        if not args.date:
            raise UsageError("--date YYYY-MM-DD is needed (or --cancel)")
        try:
            day = date.fromisoformat(args.date)
        except ValueError:
            raise UsageError(f"--date {args.date!r}: give it as YYYY-MM-DD") from None
        ready, close = window_of(args.window)
        change = PickupChange(pickup_date=day, ready=ready, close=close)
    account, environment = _account(args)
    async with open_client(args) as client:
        sid = await resolve(client, args.shipment)
        what = "Cancel the pickup of" if change is None else "Move the pickup of"
        question = f"{what} {sid}" + ("?" if change is None else f" to {change.pickup_date}?")
        if not await confirmed(environment, question, args.yes, err):
            print("freight: not changed: not confirmed", file=err)
            return FAILED
        engine, store = _engine(client, account, environment)
        try:
            outcome = await engine.pickup(sid, change)
        finally:
            store.close()
    print(plain(outcome.message, limit=400), file=out)
    return OK if outcome.ok else FAILED


async def batch_cancel(
    args: argparse.Namespace, batch: Batch, profile: Profile, out: TextIO, err: TextIO
) -> int:
    """``freight batch cancel FILE [ORDER…]``: cancel the booked shipments of the orders
    named (all the batch's booked orders when none is). The orders stay booked: booking one
    again is the user's to ask."""
    from tui.commands.connect import open_client

    wanted = list(getattr(args, "orders", None) or [])
    states = batch.states
    unknown = [key for key in wanted if key not in states]
    if unknown:
        raise UsageError(f"order {plain(unknown[0], limit=40)} is not in the file")
    keys = wanted or [key for key, state in states.items() if state.status == "booked"]
    ids = []
    for key in keys:
        state = states[key]
        if state.status != "booked" or not state.shipment_id:
            print(f"freight: order {plain(key, limit=40)} is not booked: skipped", file=err)
            continue
        ids.append(state.shipment_id)
    if not ids:
        print("freight: no booked order to cancel", file=err)
        return FAILED
    account, environment = _account(args)
    async with open_client(args) as client:
        question = f"Cancel the shipments of {len(ids)} booked order{'s' * (len(ids) != 1)}?"
        if not await confirmed(environment, question, args.yes, err):
            print("freight: not canceled: not confirmed", file=err)
            return FAILED
        return await cancel_ids(client, ids, account, environment, out)
