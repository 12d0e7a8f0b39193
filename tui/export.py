"""Write shipments as CSV, JSON or JSON Lines that spreadsheets and scripts open safely.

CSV carries a UTF-8 byte-order mark by default (Excel on Windows reads ``Montréal`` right only
with it) and text cells that a spreadsheet would run as a formula start with an apostrophe.
Money is the exact Decimal to the cent, always beside its currency column. The async writer
takes every page of a filter, reports progress and can be stopped; a file is replaced only
when the export finished.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import AsyncIterable, Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TextIO, TypeAlias

if TYPE_CHECKING:
    from tui.api.models import Shipment


class PlaceLike(Protocol):
    """An address block as the export reads it (the list's ``Place`` or an ``Address``)."""

    @property
    def company(self) -> str | None: ...
    @property
    def city(self) -> str | None: ...
    @property
    def state(self) -> str | None: ...
    @property
    def postal_code(self) -> str | None: ...


class RowLike(Protocol):
    """A listed shipment as the shipments screen holds it (``ShipmentRow``)."""

    @property
    def id(self) -> str: ...
    @property
    def created_date(self) -> datetime | None: ...
    @property
    def status(self) -> str: ...
    @property
    def origin(self) -> PlaceLike: ...
    @property
    def destination(self) -> PlaceLike: ...
    @property
    def carrier_name(self) -> str | None: ...
    @property
    def scac(self) -> str | None: ...
    @property
    def total(self) -> Decimal | None: ...
    @property
    def currency(self) -> str | None: ...
    @property
    def pro_number(self) -> str | None: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def tracking_number(self) -> str | None: ...
    @property
    def bol_number(self) -> str | None: ...
    @property
    def reference(self) -> str | None: ...
    @property
    def quote_id(self) -> str | None: ...
    @property
    def pickup_date(self) -> date | None: ...


Listed: TypeAlias = "Shipment | RowLike"

ExportFormat = Literal["csv", "json", "jsonl"]
FORMATS: tuple[ExportFormat, ...] = ("csv", "json", "jsonl")
BOM = "\ufeff"

HEADER = (
    "id",
    "pro_number",
    "created",
    "status",
    "mode",
    "pickup_date",
    "origin_company",
    "origin_city",
    "origin_state",
    "origin_postal_code",
    "destination_company",
    "destination_city",
    "destination_state",
    "destination_postal_code",
    "carrier",
    "scac",
    "total",
    "currency",
    "tracking_number",
    "bol_number",
    "reference",
    "quote_id",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMERIC = frozenset({"total"})
"""Columns Freight writes itself from a Decimal: never neutralised (a credit stays a number)."""


def neutralise(cell: str) -> str:
    """The cell with a leading apostrophe when a spreadsheet would read it as a formula."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


def _place(place: PlaceLike) -> list[str | None]:
    return [place.company, place.city, place.state, place.postal_code]


def shipment_record(shipment: Listed) -> dict[str, Any]:
    """One shipment as the export's columns: text, None when unknown, total a cent Decimal."""
    from tui.api.models import Shipment

    if isinstance(shipment, Shipment):
        carrier, cost = shipment.carrier, shipment.cost
        carrier_name = carrier.name if carrier else None
        scac = carrier.scac if carrier else None
        total = cost.total if cost else None
        currency = cost.currency if cost else None
    else:
        carrier_name, scac = shipment.carrier_name, shipment.scac
        total, currency = shipment.total, shipment.currency
    values = [
        shipment.id,
        shipment.pro_number,
        shipment.created_date.isoformat() if shipment.created_date else None,
        shipment.status,
        shipment.mode,
        shipment.pickup_date.isoformat() if shipment.pickup_date else None,
        *_place(shipment.origin),
        *_place(shipment.destination),
        carrier_name,
        scac,
        Decimal(f"{total:.2f}") if total is not None and total.is_finite() else None,
        currency,
        shipment.tracking_number,
        shipment.bol_number,
        shipment.reference,
        shipment.quote_id,
    ]
    return dict(zip(HEADER, values, strict=True))


def shipment_row(shipment: Listed) -> list[str]:
    """One CSV row: text cells neutralised, the total written exactly as the Decimal it is."""
    row: list[str] = []
    for key, value in shipment_record(shipment).items():
        if value is None:
            row.append("")
        elif key in _NUMERIC:
            row.append(f"{value:.2f}")
        else:
            row.append(neutralise(str(value)))
    return row


def shipments_csv(shipments: Iterable[Listed], *, bom: bool = False) -> str:
    """The CSV text (header first) of the shipments, in the order given."""
    buffer = io.StringIO()
    if bom:
        buffer.write(BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    for shipment in shipments:
        writer.writerow(shipment_row(shipment))
    return buffer.getvalue()


def write_shipments_csv(shipments: Iterable[Listed], path: Path, *, bom: bool = True) -> int:
    """Write the CSV atomically (creating the folder); return how many shipments it holds."""
    rows = list(shipments)
    text = shipments_csv(rows, bom=bom)
    with _Replacing(path) as file:
        file.write(text)
    return len(rows)


# -- JSON with exact numbers ------------------------------------------------------------------


def json_text(value: Any, *, indent: int | None = None) -> str:
    """JSON of ``value`` where a Decimal is written as the exact number it is (``1234.50``)."""
    import json

    def emit(item: Any, depth: int) -> str:
        if isinstance(item, Decimal):
            return str(item) if item.is_finite() else json.dumps(str(item))
        if isinstance(item, dict):
            if not item:
                return "{}"
            parts = [f"{json.dumps(str(k))}: {emit(v, depth + 1)}" for k, v in item.items()]
            return _joined(parts, "{", "}", depth)
        if isinstance(item, list | tuple):
            if not item:
                return "[]"
            return _joined([emit(v, depth + 1) for v in item], "[", "]", depth)
        return json.dumps(item, ensure_ascii=False)

    def _joined(parts: list[str], start: str, end: str, depth: int) -> str:
        if indent is None:
            return start + ", ".join(parts) + end
        pad = " " * (indent * (depth + 1))
        return start + "\n" + ",\n".join(pad + p for p in parts) + "\n" + pad[:-indent] + end

    return emit(value, 0)


# -- streaming export -------------------------------------------------------------------------


class _Writer:
    """Writes a header, records and a footer in one of the formats."""

    def __init__(self, out: TextIO, fmt: ExportFormat, bom: bool) -> None:
        self.out, self.fmt, self.count = out, fmt, 0
        self.csv = csv.writer(out, lineterminator="\n")
        if fmt == "csv":
            if bom:
                out.write(BOM)
            self.csv.writerow(HEADER)
        elif fmt == "json":
            out.write("[")

    def add(self, shipment: Listed) -> None:
        if self.fmt == "csv":
            self.csv.writerow(shipment_row(shipment))
        else:
            text = json_text(shipment_record(shipment))
            if self.fmt == "json":
                text = ("\n  " if self.count == 0 else ",\n  ") + text
            else:
                text += "\n"
            self.out.write(text)
        self.count += 1

    def finish(self) -> None:
        if self.fmt == "json":
            self.out.write("\n]\n" if self.count else "]\n")


async def stream_shipments(
    shipments: AsyncIterable[Listed],
    out: TextIO,
    fmt: ExportFormat = "csv",
    *,
    bom: bool = True,
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> int:
    """Write every shipment as it arrives; return how many were written.

    ``progress`` is called with the count after each shipment. ``should_stop`` returning True
    ends the export early (the output so far stays well-formed); cancelling the task stops it
    too. The BOM is written only for CSV.
    """
    writer = _Writer(out, fmt, bom)
    try:
        async for shipment in shipments:
            writer.add(shipment)
            if progress is not None:
                progress(writer.count)
            if should_stop is not None and should_stop():
                break
    finally:
        writer.finish()
    return writer.count


@dataclass(frozen=True)
class ExportResult:
    """What an export to a file did: how many shipments, where, and whether it was stopped."""

    count: int
    path: Path
    stopped: bool


async def export_shipments(
    shipments: AsyncIterable[Listed],
    path: Path,
    fmt: ExportFormat = "csv",
    *,
    bom: bool = True,
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ExportResult:
    """Export to ``path`` through a temporary file; a stopped or failed export leaves ``path``
    as it was (a cancelled task re-raises ``CancelledError`` after removing the temporary)."""
    stopped = False

    def stop() -> bool:
        nonlocal stopped
        stopped = bool(should_stop and should_stop())
        return stopped

    replacing = _Replacing(path, keep=lambda: not stopped)
    with replacing as file:
        count = await stream_shipments(
            shipments, file, fmt, bom=bom, progress=progress, should_stop=stop
        )
    return ExportResult(count=count, path=replacing.path, stopped=stopped)


class _Replacing:
    """Open a temporary file beside ``path``; on success (and ``keep()``) it replaces ``path``."""

    def __init__(self, path: Path, keep: Callable[[], bool] | None = None) -> None:
        self.path = path.expanduser()
        self.keep = keep
        self.temporary: Path | None = None
        self.file: TextIO | None = None

    def __enter__(self) -> TextIO:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(
            dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
        )
        self.temporary = Path(name)
        self.file = os.fdopen(handle, "w", encoding="utf-8", newline="")
        return self.file

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        assert self.file is not None
        assert self.temporary is not None
        self.file.close()
        if exc_type is None and (self.keep is None or self.keep()):
            os.replace(self.temporary, self.path)
        else:
            self.temporary.unlink(missing_ok=True)
