"""The day as records (JSON, CSV) and as manifests on disk: one CSV and one PDF per carrier.

The CLI (``freight day --manifests``) and the Day screen (``m``) write them the same way; a
file already there is never replaced unless the caller says so (``force``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

from tui.atomic import write_atomically
from tui.day import Day, DayLine
from tui.day.manifest_pdf import manifest_pdf
from tui.domain.safe_text import plain
from tui.vocabulary import pounds

CSV_FIELDS = (
    "carrier", "proNumber", "bolNumber", "bookingReference", "shipmentId", "pickupDate",
    "pieces", "totalWeight", "freightClass", "hazardous", "destCompany", "pickupWindow",
    "pickupConfirmation", "flags", "lateAddition", "station",
)  # fmt: skip

SHORT_FLAGS = {
    "pickup_not_confirmed": "unconfirmed",
    "paperwork_missing": "no-papers",
    "outcome_unknown": "unsettled",
    "pickup_moved": "moved",
    "canceled": "canceled",
}
"""The flags as tables show them (80 columns); JSON and CSV keep the full names."""


class ManifestsThere(FileExistsError):
    """Manifests of the day are already in the folder: nothing was written."""

    def __init__(self, paths: list[Path]) -> None:
        super().__init__("already there: " + ", ".join(plain(path.name) for path in paths))
        self.paths = paths


def number(value: Decimal | None) -> str | None:
    """A decimal as plain digits (``1950``, ``450.5``); None stays None."""
    return None if value is None else format(value.normalize(), "f")


def short_flags(line: DayLine) -> list[str]:
    """The line's flags as a table shows them, ``late`` for a late addition."""
    flags = [SHORT_FLAGS.get(flag, flag) for flag in line.flags]
    return flags + (["late"] if line.late_addition else [])


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
        "totalWeight": pounds(weight),
        "freightClass": facts.freight_class if facts else None,
        "hazardous": facts.hazmat if facts else None,
        "destCompany": facts.consignee if facts else None,
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


@dataclass(frozen=True)
class ManifestPlan:
    """The files a day's manifests would be, and which of them are already there."""

    paths: list[Path]
    there: list[Path]


def plan_manifests(day: Day, folder: Path) -> ManifestPlan:
    """The manifest files of ``day`` in ``folder`` (NotADirectoryError when it is none)."""
    if not folder.is_dir():
        raise NotADirectoryError(f"there is no folder {folder}")
    paths = [
        (folder / _file_name(group.carrier, day.day)).with_suffix(suffix)
        for group in day.carriers
        for suffix in (".csv", ".pdf")
    ]
    return ManifestPlan(paths, [path for path in paths if path.exists()])


def write_manifests(day: Day, folder: Path, force: bool) -> list[Path]:
    """One CSV and one PDF (with the driver's signature line) per carrier in ``folder``; when
    a file is already there nothing is written (ManifestsThere) unless ``force``."""

    plan = plan_manifests(day, folder)
    if plan.there and not force:
        raise ManifestsThere(plan.there)
    written = []
    for group in day.carriers:
        path = folder / _file_name(group.carrier, day.day)
        text = csv_text([record_of(group.carrier, line) for line in group.lines])
        write_atomically(path.with_suffix(".csv"), text.encode("utf-8"))
        heading = [
            f"Pickup day {day.day.isoformat()}",
            f"{len(group.lines)} shipments, {group.pieces} pieces, {number(group.weight_lb)} lb",
        ]
        rows = [_pdf_row(line) for line in group.lines]
        created = datetime.combine(day.day, time(0), UTC)  # the same day: the same bytes
        pdf = manifest_pdf(f"Manifest: {group.carrier}", heading, rows, created)
        write_atomically(path.with_suffix(".pdf"), pdf)
        written += [path.with_suffix(".csv"), path.with_suffix(".pdf")]
    return written


def _pdf_row(line: DayLine) -> list[str]:
    facts = line.facts
    return [
        line.booking.pro_number or line.booking.reference,
        line.booking.bol_number or "",
        str(facts.pieces) if facts and facts.pieces else "",
        number(facts.weight_lb if facts else None) or "",
        facts.freight_class or "" if facts else "",
        "yes" if facts and facts.hazmat else "",
        facts.consignee or "" if facts else "",
        facts.pickup_window or "" if facts else "",
    ]
