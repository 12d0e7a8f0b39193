"""``freight day [close]``: the day's pickups per carrier, its manifests, and its close."""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tui.commands.exits import FAILED, OK, UsageError
from tui.commands.text import table
from tui.config.paths import data_dir
from tui.day import Day, carrier_key, pickup_day
from tui.domain.safe_text import plain
from tui.store import open_store, station_name
from tui.store.days import close_day

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.store.days import DayClose, DayCloses


def add_day_command(sub: Any, add_target_flags: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``day`` (and its ``close`` action)."""
    day = sub.add_parser(
        "day",
        help="the day's pickups per carrier: manifests, what needs a hand, the close",
        description=(
            "The shipments whose pickup is on a day (default today, or the next business "
            "day), from every station's bookings in the store and the service's records, "
            "grouped by carrier. 'freight day close' marks the day closed, or with --carrier "
            "only those carriers (each carrier's driver comes at its own time)."
        ),
    )
    day.add_argument("action", nargs="?", choices=("close",), help="close: mark the day closed")
    day.add_argument("--date", metavar="YYYY-MM-DD", help="the pickup day (default: today)")
    day.add_argument(
        "--carrier",
        action="append",
        dest="carriers",
        metavar="NAME",
        help="only this carrier (its name or SCAC; repeatable): close it alone, write and "
        "print only its manifests and paperwork",
    )
    day.add_argument(
        "--format", choices=("table", "json", "csv"), default="table", help="output format"
    )
    day.add_argument(
        "--manifests", metavar="DIR", help="write one CSV and one PDF manifest per carrier"
    )
    day.add_argument("--force", action="store_true", help="overwrite manifests already there")
    day.add_argument(
        "--print",
        action="store_true",
        dest="print_day",
        help="print the day's paperwork: every BOL in one PDF job, every ZPL label in one raw job",
    )
    add_target_flags(day)


def day_of(text: str | None, today: date) -> date:
    """``--date`` (ISO), else today, or the next business day when today is not one."""

    if text is None:
        return pickup_day(today)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--date: not a date (YYYY-MM-DD): {text!r}") from None


def print_table(
    day: Day, closed: str | None, out: TextIO, width: int = 80, closes: DayCloses | None = None
) -> None:
    """The day per carrier, each table fitted to ``width`` columns; a carrier closed on its
    own (``closes``) says when and by which station."""
    from tui.day.cells import fit
    from tui.day.manifests import number

    print(f"Pickups on {day.day.isoformat()}" + (f" ({closed})" if closed else ""), file=out)
    if not day.carriers:
        print("No shipments picked up that day.", file=out)
        return
    for group in day.carriers:
        count = len(group.lines)
        own = closes.of(group.carrier) if closes is not None else None
        tail = ""
        if own is not None:
            tail = f" (closed by {own.station} at {own.closed_at.isoformat(timespec='seconds')})"
        print(file=out)
        print(
            plain(f"{group.carrier}: {count} shipment{'s' * (count != 1)}, "
                  f"{group.pieces} pieces, {number(group.weight_lb)} lb{tail}"),
            file=out,
        )  # fmt: skip
        header, rows, legend = fit(group.lines, width)
        table(header, rows, out)
        if legend:
            print(f"FLAGS: {legend}", file=out)
    flagged = len(day.flagged)
    if flagged:
        print(f"\n{flagged} need{'s' * (flagged == 1)} a hand (see FLAGS).", file=out)


async def run(args: argparse.Namespace, out: TextIO, err: TextIO, today: date) -> int:
    """Show (or close) the day; write manifests when asked."""
    from tui.commands.connect import ledger_account, open_client
    from tui.day.facts import day_from, facts_for, listed_on, read_stored
    from tui.day.manifests import csv_text, records_of

    on = day_of(args.date, today)
    account, environment = ledger_account(args)
    if args.action == "close" and not (args.manifests or args.print_day or args.carriers):
        store = open_store(data_dir())
        try:
            return _closed(close_day(store, on, environment, station_name()), out)
        finally:
            store.close()
    printed: list[str] = []
    async with open_client(args) as client:
        listed = await listed_on(client, on)
        store = open_store(data_dir())
        try:
            stored = read_stored(store, on, environment, station_name(), listed, account)
        finally:
            store.close()
        facts = await facts_for(client, on, stored.bookings, listed)
        day = day_from(on, stored, facts)
        if args.carriers:
            day = only_carriers(day, args.carriers)
        if args.manifests:
            written = _write(day, _folder(args.manifests), args.force)
            for path in written:
                print(f"Wrote {plain(path)}", file=err)
            printed += [path.name for path in written]
        if args.print_day:
            taken, ok = await _print(client, day, err)
            printed += taken
            if not ok:
                return FAILED  # a close waits for the print to go through
    if args.action == "close":  # the close names what it wrote and printed
        carriers = [group.carrier for group in day.carriers] if args.carriers else [None]
        store = open_store(data_dir())
        try:
            for carrier in carriers:
                closed = close_day(
                    store, on, environment, station_name(), tuple(printed), carrier=carrier
                )
                _closed(closed, out)
            return OK
        finally:
            store.close()
    records = records_of(day)
    if args.format == "json":
        json.dump(records, out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif args.format == "csv":
        out.write(csv_text(records))
    else:
        said = None
        close = stored.close
        if close is not None:
            said = f"closed by {close.station} at {close.closed_at.isoformat(timespec='seconds')}"
        width = shutil.get_terminal_size((80, 24)).columns
        print_table(day, said, out, width, stored.closes)
    return OK


def _write(day: Day, folder: Path, force: bool) -> list[Path]:
    from tui.day.manifests import ManifestsThere, write_manifests

    try:
        return write_manifests(day, folder, force)
    except NotADirectoryError:
        raise UsageError(f"--manifests: there is no folder {plain(folder)}") from None
    except ManifestsThere as there:
        raise UsageError(f"--manifests: {there} (say --force to replace)") from None
    except OSError as error:  # no permission, a read-only or full disk, a folder in the way
        reason = plain(error.strerror or error)
        raise UsageError(f"--manifests: cannot write in {plain(folder)}: {reason}") from None


async def _print(client: FreightClient, day: Day, err: TextIO) -> tuple[list[str], bool]:
    """Print the day's paperwork (saved under the data dir's documents): what lp took, and
    whether every job went through."""
    from tui.config.settings import load_config
    from tui.day.printing import print_day

    if not day.carriers:
        print("freight: nothing to print: no pickups that day", file=err)
        return [], True
    folder = data_dir() / "documents" / f"day-{day.day.isoformat()}"
    done = await print_day(client, day, folder, load_config().printers)
    print(f"freight: {plain(done.said)}", file=err)
    return done.printed, done.ok


def only_carriers(day: Day, names: list[str]) -> Day:
    """``day`` with only the carriers ``names`` name (case left aside, or a SCAC the day
    knows), in the day's order; a name no carrier of the day has is a UsageError."""
    chosen: set[str] = set()
    for name in names:
        key = carrier_key(name)
        found = [group.carrier for group in day.carriers if carrier_key(group.carrier) == key]
        found = found or [g.carrier for g in day.carriers if name.strip().upper() in g.scacs]
        if not found:
            known = ", ".join(plain(group.carrier) for group in day.carriers)
            said = f"the day's carriers: {known}" if known else "no carrier has pickups that day"
            raise UsageError(
                f"--carrier: no carrier {plain(name)!r} on {day.day.isoformat()} ({said})"
            )
        chosen.update(found)
    return Day(day.day, tuple(group for group in day.carriers if group.carrier in chosen))


def _closed(closed: DayClose, out: TextIO) -> int:
    when = closed.closed_at.isoformat(timespec="seconds")
    day = closed.day.isoformat()
    if closed.carrier is not None:
        day += f" {plain(closed.carrier)}"
    print(f"freight: {day} closed by {plain(closed.station)} at {when}", file=out)
    if closed.printed:
        print(plain("printed: " + ", ".join(closed.printed)), file=out)
    return OK


def _folder(text: str) -> Path:
    return Path(text).expanduser()
