"""``freight batch book``: the rated orders of a batch booked through the one booking engine,
their paperwork saved (and printed) in one folder."""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tui.batch.book import booking_totals, to_book
from tui.batch.paperwork import owing
from tui.batch.run import (
    BATCH_RETRY,
    book_run,
    paperwork_folder,
    print_paperwork,
    printed_line,
    saved_count,
)
from tui.booking import BookingEngine
from tui.commands.connect import open_client
from tui.commands.exits import FAILED, UsageError
from tui.commands.progress import ProgressLine
from tui.commands.text import money
from tui.config.paths import data_dir
from tui.config.settings import load_config
from tui.domain.safe_text import plain
from tui.store import ledger_environment, open_ledger

if TYPE_CHECKING:
    from tui.batch.engine import Batch
    from tui.config.settings import Profile


async def book(args: argparse.Namespace, batch: Batch, profile: Profile, err: TextIO) -> int | None:
    """Book the batch's rated orders and fetch the paperwork owed (``batch paperwork``: only
    that); None when it went ahead, else the exit status (the confirmation was not given).
    Raises WaitTooLongError (a 429 asked to wait longer than the profile's cap)."""

    if args.concurrency is not None and not 1 <= args.concurrency <= 16:
        raise UsageError("--concurrency: from 1 to 16")
    if args.rps is not None and not 0 < args.rps <= 1000:
        raise UsageError("--requests-per-second: more than 0, at most 1000")
    only = args.batch_command == "paperwork"
    orders = [] if only else to_book(batch)
    if not orders and not only:
        print("freight: nothing to book: no order is rated and not booked", file=err)
    if not orders and not owing(batch):
        if only:
            print("freight: no paperwork is owed: every booked order's is saved", file=err)
        return None
    fresh = [o for o in orders if batch.state(o.key).status == "rated"]
    for order in fresh:
        choice = batch.state(order.key).choice
        if order.flags.hazmat and choice is not None and choice.mode == "parcel":
            print(
                f"freight: {plain(order.key, limit=24)} is hazardous and priced by a parcel "
                f"carrier ({plain(choice.carrier, limit=30)}): parcel services carry it only "
                "under their own dangerous-goods agreement",
                file=err,
            )
    if profile.environment == "production" and fresh and not args.yes:
        if not stdin_is_terminal():
            raise UsageError(
                "a production profile books from a script only with --yes (no terminal to "
                "confirm on)"
            )
        if not await _confirmed(len(fresh), booking_totals(batch, fresh), profile.name, err):
            return FAILED
    folder = paperwork_folder(_documents_root(args.documents, data_dir()), batch)
    line = ProgressLine(err)
    async with open_client(args, retry=BATCH_RETRY) as client:
        engine = BookingEngine(
            client,
            open_ledger(data_dir(), ledger_environment(profile.name, profile.environment)),
            profile.name,
        )
        try:
            await book_run(
                batch,
                engine,
                client,
                folder=folder,
                rate=args.rps if args.rps is not None else profile.limits.requests_per_second,
                concurrency=args.concurrency,
                progress=line,
                max_wait=profile.limits.max_retry_after,
                paperwork_only=only,
            )
        finally:
            line.done()
    saved = saved_count(batch)
    if saved:
        print(f"freight: paperwork ({saved} files) in {folder}", file=err)
    missing = owing(batch)
    if missing:
        print(
            f"freight: {len(missing)} booked orders still owe paperwork (BOL or labels not "
            f"saved; see Problems): freight batch paperwork {shlex.quote(args.file)} (or batch "
            "book) fetches it",
            file=err,
        )
    if args.print_documents:
        await _print(batch, folder, err)
    return None


async def _confirmed(count: int, totals: dict[str, Decimal], name: str, err: TextIO) -> bool:
    """PRODUCTION: the count of orders and each currency's total typed back."""

    listed = ", ".join(money(amount, currency) for currency, amount in sorted(totals.items()))
    print(
        f"Book {count} orders on PRODUCTION (profile {name}) for {listed}. Real shipments, "
        "real charges.",
        file=err,
    )
    typed = await asyncio.to_thread(_ask, err, f"Type the number of orders ({count}): ")
    if typed.strip() != str(count):
        print("freight: not booked: the number typed is not the number of orders", file=err)
        return False
    for currency, amount in sorted(totals.items()):
        typed = await asyncio.to_thread(_ask, err, f"Type the total in {currency}: ")
        try:
            value = Decimal(typed.strip().replace(",", "").removesuffix(currency).strip())
        except InvalidOperation:
            value = Decimal(-1)
        if value != amount:
            print(f"freight: not booked: the total typed is not the {currency} total", file=err)
            return False
    return True


def stdin_is_terminal() -> bool:
    """Whether the confirmation can be typed (tests say yes with text waiting on stdin)."""
    return sys.stdin.isatty()


def _documents_root(given: str | None, data: Path) -> Path:
    return Path(given).expanduser() if given else data / "documents"


def _ask(err: TextIO, prompt: str) -> str:
    err.write(prompt)
    err.flush()
    return sys.stdin.readline()


async def _print(batch: Batch, folder: Path, err: TextIO) -> None:

    printers = load_config().printers
    printed = await print_paperwork(
        batch,
        folder,
        document_printer=printers.document_printer,
        label_printer=printers.label_printer,
        label_format=printers.label_format,
    )
    if not printed.files:
        print("freight: nothing to print: no paperwork was saved", file=err)
        return
    for outcome in printed.outcomes:
        print(f"freight: {printed_line(outcome)}", file=err)
    if printed.skipped:
        print(
            f"freight: {printed.skipped} ZPL labels not printed: no ZPL label printer set", file=err
        )
