"""Write shipments as CSV, JSON or JSON Lines that spreadsheets and scripts open safely.

The records are those of :mod:`tui.vocabulary` (``SHIPMENT_FIELDS``: the service's camelCase
names, the same in CSV columns and JSON keys). A CSV file carries a UTF-8 byte-order mark
(Excel on Windows reads ``Montréal`` right only with it; a pipe gets none) and text cells that a
spreadsheet would run as a formula start with an apostrophe. Money is an exact decimal string,
always beside its currency. The async writer
takes every page of a filter, reports progress and can be stopped; a file is replaced only
when the export finished.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal, Protocol, TextIO, TypeAlias, TypeVar

from tui.api.models import Shipment
from tui.atomic import replacing_text
from tui.domain.safe_text import json_escaped, plain_cell
from tui.ledger import is_booking_reference
from tui.vocabulary import Field, FieldSet, day, moment, money

T = TypeVar("T")


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
    def service_type(self) -> str | None: ...
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


def end_fields(prefix: str, end: Callable[[T], PlaceLike | None]) -> list[Field[T]]:
    """``originCompany``, ``originCity``, ``originState``, ``originPostalCode`` (or ``dest…``):
    the service's flat names for one end of a shipment."""
    words = "origin" if prefix == "origin" else "destination"

    def part(name: str) -> Callable[[T], str | None]:
        def get(item: T) -> str | None:
            place = end(item)
            return getattr(place, name) if place is not None else None

        return get

    return [
        Field(f"{prefix}Company", f"{words} company", part("company")),
        Field(f"{prefix}City", f"{words} city", part("city")),
        Field(f"{prefix}State", f"{words} state or province", part("state")),
        Field(f"{prefix}PostalCode", f"{words} ZIP or postal code", part("postal_code")),
    ]


def _row(shipment: Listed) -> RowLike:

    if isinstance(shipment, Shipment):
        from tui.listing.rows import ShipmentRow

        return ShipmentRow.of(shipment)
    return shipment


def _booking_reference(shipment: RowLike) -> str | None:
    """Freight's own reference of the booking: the store's (a row that carries it), or the
    service's ``reference`` when it has the shape of one (no reference of the shipper's was
    given, so Freight's took its place)."""
    known: str | None = getattr(shipment, "booking_reference", None)
    if known:
        return known
    return shipment.reference if is_booking_reference(shipment.reference) else None


def _customer_reference(shipment: RowLike) -> str | None:
    """The shipper's own reference: the service's ``reference`` unless it is Freight's."""
    reference = shipment.reference
    if reference is None or is_booking_reference(reference):
        return None
    return None if reference == getattr(shipment, "booking_reference", None) else reference


SHIPMENT_FIELDS: FieldSet[RowLike] = FieldSet(
    "shipment",
    [
        Field("shipmentId", "the shipment's id", lambda s: s.id),
        Field("proNumber", "the carrier's PRO number", lambda s: s.pro_number),
        Field("createdDate", "when it was booked (ISO 8601)", lambda s: moment(s.created_date)),
        Field("status", "pending, awarded, confirmed, picked-up, delivered, canceled",
              lambda s: s.status),
        Field("mode", "ltl, parcel or truckload", lambda s: s.mode),
        Field("serviceType", "the carrier's service level", lambda s: s.service_type),
        Field("pickupDate", "pickup day (YYYY-MM-DD)", lambda s: day(s.pickup_date)),
        *end_fields("origin", lambda s: s.origin),
        *end_fields("dest", lambda s: s.destination),
        Field("carrier", "the carrier's name", lambda s: s.carrier_name),
        Field("scac", "the carrier's SCAC code", lambda s: s.scac),
        Field("total", 'total cost, a decimal string ("1234.50")', lambda s: money(s.total),
              verbatim=True),
        Field("currency", "the currency of total (USD, CAD…)", lambda s: s.currency),
        Field("trackingNumbers", "tracking numbers (a list; empty when none)",
              lambda s: [s.tracking_number] if s.tracking_number else []),
        Field("bolNumber", "bill of lading number", lambda s: s.bol_number),
        Field("customerReference", "the shipper's own reference on the shipment (PO, order)",
              _customer_reference),
        Field("bookingReference", "Freight's own reference of the booking (FRT…)",
              _booking_reference),
        Field("order", "the batch's order number it books (from the store; null: none)",
              lambda s: getattr(s, "order", None)),
        Field("quoteId", "the quote it was booked from", lambda s: s.quote_id),
    ],
)  # fmt: skip
"""The fields of a listed shipment: the records of ``freight shipments`` and the app's export."""

HEADER = SHIPMENT_FIELDS.names
"""The CSV header of a shipment export with every field."""

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: str) -> str:
    """The cell with a leading apostrophe when a spreadsheet would read it as a formula."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


ShipmentFields: TypeAlias = "Sequence[Field[RowLike]] | None"


def shipment_record(shipment: Listed, fields: ShipmentFields = None) -> dict[str, Any]:
    """One shipment as a record of ``fields`` (all when None): text, None when unknown, money
    a decimal string beside its currency."""
    return SHIPMENT_FIELDS.record(_row(shipment), fields)


def csv_row(record: dict[str, Any], fields: Sequence[Field[Any]]) -> list[str]:
    """One CSV row of a record: text cells neutralised, Freight's own numbers as written."""
    row: list[str] = []
    for field in fields:
        value = record[field.name]
        if isinstance(value, list):
            value = " ".join(str(v) for v in value) or None
        if value is None:
            row.append("")
        elif field.verbatim:
            row.append(str(value))
        else:
            row.append(neutralise(plain_cell(str(value))))  # no terminal control in a cell
    return row


def shipment_row(shipment: Listed, fields: ShipmentFields = None) -> list[str]:
    """One CSV row: text cells neutralised, the total written exactly as the Decimal it is."""
    chosen = SHIPMENT_FIELDS.select(None) if fields is None else fields
    return csv_row(shipment_record(shipment, chosen), chosen)


def shipments_csv(
    shipments: Iterable[Listed], *, bom: bool = False, fields: ShipmentFields = None
) -> str:
    """The CSV text (header first) of the shipments, in the order given."""
    chosen = SHIPMENT_FIELDS.select(None) if fields is None else fields
    buffer = io.StringIO()
    if bom:
        buffer.write(BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([f.name for f in chosen])
    for shipment in shipments:
        writer.writerow(shipment_row(shipment, chosen))
    return buffer.getvalue()


def write_shipments_csv(shipments: Iterable[Listed], path: Path, *, bom: bool = True) -> int:
    """Write the CSV atomically (creating the folder); return how many shipments it holds."""
    rows = list(shipments)
    text = shipments_csv(rows, bom=bom)
    with _Replacing(path) as file:
        file.write(text)
    return len(rows)


# -- Excel workbooks ---------------------------------------------------------------------------

WorkbookCell: TypeAlias = "str | Decimal | int | None"
"""A workbook cell: text (a string in text format, never a formula), an exact amount (a
number shown to the cent), a count, or blank."""


def workbook(title: str, header: Sequence[str], rows: Iterable[Sequence[WorkbookCell]]) -> bytes:
    """An ``.xlsx`` of one sheet: every text cell a string in text format (``@``), so Excel
    keeps a 17-digit number with a leading zero as written and never runs ``=…``; amounts
    numbers to the cent. Text is written as it is: a string cell is never a formula, so it
    needs no ``'`` in front (which Excel would show as part of the text)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    page = book.create_sheet(title)
    page.append([_workbook_cell(page, name) for name in header])
    for row in rows:
        page.append([_workbook_cell(page, cell) for cell in row])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _workbook_cell(page: Any, cell: WorkbookCell) -> Any:
    from openpyxl.cell import WriteOnlyCell

    if cell is None or isinstance(cell, int):
        return cell
    written = WriteOnlyCell(page, value=cell)
    if isinstance(cell, Decimal):
        written.number_format = "0.00"
    else:
        written.data_type = "s"  # a string, even one starting with "=": never a formula
        written.number_format = "@"
    return written


def workbook_row(record: dict[str, Any], fields: Sequence[Field[Any]]) -> list[WorkbookCell]:
    """One workbook row of a record: Freight's exact amounts as numbers, lists joined by
    spaces, text as it is (a string cell in text format is never run: no ``'`` in front)."""
    row: list[WorkbookCell] = []
    for field in fields:
        value = record[field.name]
        if field.verbatim and value is not None:
            row.append(Decimal(str(value)))
        elif isinstance(value, int) and not isinstance(value, bool):
            row.append(value)
        elif isinstance(value, list):
            row.append(plain_cell(" ".join(str(v) for v in value)) or None)
        else:
            row.append(plain_cell(str(value)) or None if value is not None else None)
    return row


def shipments_workbook(records: Iterable[dict[str, Any]], fields: Sequence[Field[Any]]) -> bytes:
    """The shipments as an ``.xlsx`` (``freight shipments --output FILE.xlsx``)."""
    rows = (workbook_row(record, fields) for record in records)
    return workbook("Shipments", [f.name for f in fields], rows)


# -- JSON with exact numbers ------------------------------------------------------------------


def json_text(value: Any, *, indent: int | None = None) -> str:
    """JSON of ``value`` where a Decimal is written as the exact number it is (``1234.50``)."""

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

    return json_escaped(emit(value, 0))  # DEL and C1 would reach a terminal as they are


# -- streaming export -------------------------------------------------------------------------


class RecordWriter:
    """Writes records of named fields as CSV (header first, optional BOM), a JSON array, or
    JSON Lines, one at a time (so a long export streams); ``finish`` closes a JSON array."""

    def __init__(
        self, out: TextIO, fmt: ExportFormat, fields: Sequence[Field[Any]], *, bom: bool = False
    ) -> None:
        self.out, self.fmt, self.fields, self.count = out, fmt, tuple(fields), 0
        self.csv = csv.writer(out, lineterminator="\n")
        if fmt == "csv":
            if bom:
                out.write(BOM)
            self.csv.writerow([f.name for f in self.fields])
        elif fmt == "json":
            out.write("[")

    def add(self, record: dict[str, Any]) -> None:
        """Write one record (a dict with a value for each field)."""
        if self.fmt == "csv":
            self.csv.writerow(csv_row(record, self.fields))
        else:
            text = json_text(record)
            if self.fmt == "json":
                text = ("\n  " if self.count == 0 else ",\n  ") + text
            else:
                text += "\n"
            self.out.write(text)
        self.count += 1

    def finish(self) -> None:
        """End the output (closes the JSON array)."""
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
    fields: ShipmentFields = None,
) -> int:
    """Write every shipment as it arrives; return how many were written.

    ``progress`` is called with the count after each shipment. ``should_stop`` returning True
    ends the export early (the output so far stays well-formed); cancelling the task stops it
    too. The BOM is written only for CSV. ``fields``: the fields written (all when None).
    """
    chosen = SHIPMENT_FIELDS.select(None) if fields is None else fields
    writer = RecordWriter(out, fmt, chosen, bom=bom)
    try:
        async for shipment in shipments:
            writer.add(shipment_record(shipment, chosen))
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
    fields: ShipmentFields = None,
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
            shipments, file, fmt, bom=bom, progress=progress, should_stop=stop, fields=fields
        )
    return ExportResult(count=count, path=replacing.path, stopped=stopped)


class _Replacing:
    """Open a temporary file beside ``path``; on success (and ``keep()``) it replaces ``path``."""

    def __init__(self, path: Path, keep: Callable[[], bool] | None = None) -> None:

        self.path = path.expanduser()
        self.keep = keep
        self.replacement = replacing_text(self.path, newline="")

    def __enter__(self) -> TextIO:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return self.replacement.__enter__().file

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> None:
        if exc_type is None and self.keep is not None and not self.keep():
            self.replacement.discard()
        self.replacement.__exit__(exc_type, exc, tb)
