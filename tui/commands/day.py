"""``freight day [close]``: the day's pickups per carrier, its manifests, and its close."""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tui.commands.exits import OK, UsageError
from tui.commands.text import table
from tui.domain.safe_text import plain

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models.shipments import ShipmentDetail
    from tui.day import Day, DayLine, ShipmentFacts
    from tui.ledger import BookingRecord
    from tui.store.days import DayClose

COLUMNS = ("PRO", "PIECES", "LB", "CLASS", "HAZ", "CONSIGNEE", "WINDOW", "CONFIRMED", "FLAGS")
CSV_FIELDS = (
    "carrier", "proNumber", "bolNumber", "bookingReference", "shipmentId", "pickupDate",
    "pieces", "totalWeight", "freightClass", "hazardous", "consignee", "pickupWindow",
    "pickupConfirmation", "flags", "lateAddition", "station",
)  # fmt: skip


SHORT_FLAGS = {
    "pickup_not_confirmed": "unconfirmed",
    "paperwork_missing": "no-papers",
    "outcome_unknown": "unsettled",
    "pickup_moved": "moved",
}
"""The flags as the table shows them (80 columns); JSON and CSV keep the full names."""


def add_day_command(sub: Any, add_target_flags: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``day`` (and its ``close`` action)."""
    day = sub.add_parser(
        "day",
        help="the day's pickups per carrier: manifests, what needs a hand, the close",
        description=(
            "The shipments whose pickup is on a day (default today, or the next business "
            "day), from every station's bookings in the store and the service's records, "
            "grouped by carrier. 'freight day close' marks the day closed."
        ),
    )
    day.add_argument("action", nargs="?", choices=("close",), help="close: mark the day closed")
    day.add_argument("--date", metavar="YYYY-MM-DD", help="the pickup day (default: today)")
    day.add_argument(
        "--format", choices=("table", "json", "csv"), default="table", help="output format"
    )
    day.add_argument(
        "--manifests", metavar="DIR", help="write one CSV and one PDF manifest per carrier"
    )
    day.add_argument("--force", action="store_true", help="overwrite manifests already there")
    add_target_flags(day)


def day_of(text: str | None, today: date) -> date:
    """``--date`` (ISO), else today, or the next business day when today is not one."""
    from tui.day import pickup_day

    if text is None:
        return pickup_day(today)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--date: not a date (YYYY-MM-DD): {text!r}") from None


def facts_of(detail: ShipmentDetail) -> ShipmentFacts:
    """What a shipment's detail adds to its booking."""
    from tui.day import ShipmentFacts

    pieces = sum(item.quantity or 0 for item in detail.items)
    weight = sum(
        ((item.weight or Decimal(0)) * (item.quantity or 1) for item in detail.items), Decimal(0)
    )
    classes = sorted({format(item.freight_class.normalize(), "f") for item in detail.items
                      if item.freight_class is not None})  # fmt: skip
    origin = detail.origin
    window = None
    if origin.dock_hours_open or origin.dock_hours_close:
        window = f"{origin.dock_hours_open or '?'}-{origin.dock_hours_close or '?'}"
    carrier = detail.carrier
    return ShipmentFacts(
        pickup_date=detail.pickup_date,
        pickup_window=window,
        confirmation=detail.pickup_confirmation,
        pickup_note=detail.pickup_date_message,
        pieces=pieces or None,
        weight_lb=weight or None,
        freight_class=", ".join(classes) or None,
        hazmat=any(item.hazardous for item in detail.items),
        consignee=detail.destination.company,
        carrier=(carrier.name or carrier.scac) if carrier else None,
        has_paperwork=bool(detail.documents or detail.bol_number),
    )


async def service_facts(
    client: FreightClient, day: date, bookings: list[BookingRecord]
) -> dict[str, ShipmentFacts]:
    """The service's facts of each booking that may be on ``day``: the ledger says so, or the
    service lists its shipment on that day (it may have moved it there)."""
    from tui.api.models import ShipmentQuery

    listed: set[str] = set()
    query = ShipmentQuery.build(pickup_date_from=day, pickup_date_to=day)
    async for shipment in client.iter_shipments(query):
        listed.add(shipment.id)
    found: dict[str, ShipmentFacts] = {}
    for record in bookings:
        shipment_id = record.shipment_id
        if not shipment_id or record.outcome == "failed":
            continue
        if shipment_id in listed or record.pickup_date == day.isoformat():
            found[shipment_id] = facts_of(await client.get_shipment(shipment_id))
    return found


def record_of(carrier: str, line: DayLine) -> dict[str, Any]:
    """One shipment of the day in the glossary's names (unknown is null)."""
    booking, facts = line.booking, line.facts
    weight = facts.weight_lb if facts else None
    return {
        "carrier": carrier,
        "proNumber": booking.pro_number,
        "bolNumber": booking.bol_number,
        "bookingReference": booking.reference,
        "shipmentId": booking.shipment_id,
        "pickupDate": (
            facts.pickup_date.isoformat() if facts and facts.pickup_date else booking.pickup_date
        ),
        "pieces": facts.pieces if facts else None,
        "totalWeight": _number(weight),
        "freightClass": facts.freight_class if facts else None,
        "hazardous": facts.hazmat if facts else None,
        "consignee": facts.consignee if facts else None,
        "pickupWindow": facts.pickup_window if facts else None,
        "pickupConfirmation": facts.confirmation if facts else None,
        "flags": list(line.flags),
        "lateAddition": line.late_addition,
        "station": booking.station,
    }


def records_of(day: Day) -> list[dict[str, Any]]:
    return [record_of(group.carrier, line) for group in day.carriers for line in group.lines]


def csv_text(records: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)
    for record in records:
        row = []
        for name in CSV_FIELDS:
            value = record[name]
            if isinstance(value, list):
                value = " ".join(value)
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            row.append("" if value is None else str(value))
        writer.writerow(row)
    return buffer.getvalue()


def _file_name(carrier: str, day: date) -> str:
    safe = "".join(c if c.isalnum() else "-" for c in carrier).strip("-") or "carrier"
    return f"manifest-{day.isoformat()}-{safe[:40]}"


def write_manifests(day: Day, folder: Path, force: bool) -> list[Path]:
    """One CSV and one PDF (with the driver's signature line) per carrier in ``folder``; an
    existing file is refused unless ``force``."""
    from tui.atomic import write_atomically
    from tui.day.pdf import manifest_pdf

    if not folder.is_dir():
        raise UsageError(f"--manifests: there is no folder {folder}")
    planned = [(folder / _file_name(g.carrier, day.day), g) for g in day.carriers]
    there = [
        path.with_suffix(suffix)
        for path, _ in planned
        for suffix in (".csv", ".pdf")
        if path.with_suffix(suffix).exists()
    ]
    if there and not force:
        names = ", ".join(plain(path.name) for path in there)
        raise UsageError(f"--manifests: already there (say --force to replace): {names}")
    written = []
    for path, group in planned:
        text = csv_text([record_of(group.carrier, line) for line in group.lines])
        write_atomically(path.with_suffix(".csv"), text.encode("utf-8"))
        heading = [
            f"Pickup day {day.day.isoformat()}",
            f"{len(group.lines)} shipments, {group.pieces} pieces, {_number(group.weight_lb)} lb",
        ]
        rows = [_pdf_row(line) for line in group.lines]
        pdf = manifest_pdf(f"Manifest: {group.carrier}", heading, rows)
        write_atomically(path.with_suffix(".pdf"), pdf)
        written += [path.with_suffix(".csv"), path.with_suffix(".pdf")]
    return written


def _pdf_row(line: DayLine) -> list[str]:
    facts = line.facts
    return [
        line.booking.pro_number or line.booking.reference,
        line.booking.bol_number or "",
        str(facts.pieces) if facts and facts.pieces else "",
        _number(facts.weight_lb if facts else None) or "",
        facts.freight_class or "" if facts else "",
        "yes" if facts and facts.hazmat else "",
        facts.consignee or "" if facts else "",
        facts.pickup_window or "" if facts else "",
    ]


def _row(line: DayLine) -> list[str]:
    facts = line.facts
    flags = [SHORT_FLAGS.get(flag, flag) for flag in line.flags]
    flags += ["late"] if line.late_addition else []
    return [
        line.booking.pro_number or line.booking.reference,
        str(facts.pieces) if facts and facts.pieces else "",
        _number(facts.weight_lb if facts else None) or "",
        facts.freight_class or "" if facts else "",
        "yes" if facts and facts.hazmat else "",
        facts.consignee or "" if facts else "",
        facts.pickup_window or "" if facts else "",
        facts.confirmation or "no" if facts else "no",
        " ".join(flags),
    ]


def print_table(day: Day, closed: str | None, out: TextIO) -> None:
    print(f"Pickups on {day.day.isoformat()}" + (f" ({closed})" if closed else ""), file=out)
    if not day.carriers:
        print("No shipments picked up that day.", file=out)
        return
    for group in day.carriers:
        count = len(group.lines)
        print(file=out)
        print(
            plain(f"{group.carrier}: {count} shipment{'s' * (count != 1)}, "
                  f"{group.pieces} pieces, {_number(group.weight_lb)} lb"),
            file=out,
        )  # fmt: skip
        table(COLUMNS, [[plain(cell) for cell in _row(line)] for line in group.lines], out)
    flagged = len(day.flagged)
    if flagged:
        print(f"\n{flagged} need{'s' * (flagged == 1)} a hand (see FLAGS).", file=out)


async def run(args: argparse.Namespace, out: TextIO, err: TextIO, today: date) -> int:
    """Show (or close) the day; write manifests when asked."""
    from tui.commands.connect import open_client
    from tui.config.paths import data_dir
    from tui.day import build_day
    from tui.store import open_store, station_name
    from tui.store.days import close_day, last_close
    from tui.store.ledger import StoreLedger

    on = day_of(args.date, today)
    environment = _environment(args)
    store = open_store(data_dir())
    try:
        if args.action == "close" and not args.manifests:
            return _closed(close_day(store, on, environment, station_name()), out)
        bookings = StoreLedger(store, station_name(), environment).bookings()
        close = last_close(store, on, environment)
    finally:
        store.close()
    async with open_client(args) as client:
        facts = await service_facts(client, on, bookings)
    day = build_day(on, bookings, facts, close.closed_at if close else None)
    if args.manifests:
        written = write_manifests(day, _folder(args.manifests), args.force)
        for path in written:
            print(f"Wrote {plain(path)}", file=err)
        if args.action == "close":  # the close names the manifests it printed
            store = open_store(data_dir())
            try:
                printed = tuple(path.name for path in written)
                return _closed(close_day(store, on, environment, station_name(), printed), out)
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
        if close is not None:
            said = f"closed by {close.station} at {close.closed_at.isoformat(timespec='seconds')}"
        print_table(day, said, out)
    return OK


def _closed(closed: DayClose, out: TextIO) -> int:
    when = closed.closed_at.isoformat(timespec="seconds")
    day = closed.day.isoformat()
    print(f"freight: {day} closed by {plain(closed.station)} at {when}", file=out)
    if closed.printed:
        print(plain("printed: " + ", ".join(closed.printed)), file=out)
    return OK


def _number(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")


def _folder(text: str) -> Path:
    return Path(text).expanduser()


def _environment(args: argparse.Namespace) -> str:
    if getattr(args, "demo", False):
        return "sandbox"
    from tui.store import profile_environments

    return profile_environments().get(getattr(args, "profile", None) or "default", "")
