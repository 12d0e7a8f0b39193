"""What the order reader passes along, typed: a row's cells by field name, the rows of one
order being read, and what its lines and consignee were read as.

A :class:`Line` and a :class:`Destination` exist only when every value of them was read and
checked; what could not be read is a :class:`~tui.batch.model.RowError` of the order instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final, TypedDict

from tui.batch.fields import ColumnMapping
from tui.batch.model import RowError
from tui.batch.source import Row, Sheet

FIELD_LABELS: Final = {
    "order": "Order", "ship_date": "Ship date", "origin_zip": "Origin ZIP",
    "dest_company": "Company", "dest_address": "Address", "dest_city": "City",
    "dest_state": "State", "dest_zip": "ZIP", "dest_country": "Country",
    "dest_location": "Location type", "contact": "Contact", "phone": "Phone", "email": "Email",
    "quantity": "Quantity", "package": "Package", "weight": "Weight", "weight_unit": "Weight unit",
    "length": "Length", "width": "Width", "height": "Height", "dims": "Dimensions",
    "dim_unit": "Size unit", "class": "Class", "nmfc": "NMFC", "description": "Description",
    "hazmat_un": "UN number", "hazard_class": "Hazard class", "packing_group": "Packing group",
    "liftgate": "Liftgate", "appointment": "Appointment", "inside": "Inside delivery",
    "po": "PO", "notes": "Notes", "tags": "Tags", "items": "Items",
}  # fmt: skip
"""A field's name where no column of the file holds it (a constant, or not mapped)."""


@dataclass(slots=True)
class Cells:
    """One row's cells by field name, with the header each came from."""

    row: Row
    sheet: Sheet
    mapping: ColumnMapping
    index: Mapping[str, int]
    values: tuple[str, ...] = field(init=False)
    """The row's cells (unpacked once)."""
    overrides: dict[str, str] = field(default_factory=dict)
    """Values read from another cell of the row (one item of a cell that packs several, the
    parts of a one-cell address): they win over the row's own."""

    def __post_init__(self) -> None:
        self.values = self.row.cells

    def get(self, name: str) -> str:
        if name in self.overrides:
            return self.overrides[name]
        if name in self.mapping.constants:
            return self.mapping.constants[name]
        column = self.index.get(name)
        return self.values[column] if column is not None else ""

    def column(self, name: str) -> str:
        """The header of the field's column (or the field's name when set as a constant)."""
        header = self.mapping.column_of(name)
        return header if header is not None else FIELD_LABELS.get(name, name)


@dataclass(slots=True)
class OrderRows:
    """The order being read: its rows and what they said."""

    key: str
    rows: list[Cells] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def error(self, cells: Cells, name: str, value: str, reason: str) -> None:
        self.errors.append(RowError(cells.row.number, cells.column(name), value or None, reason))

    def note(self, text: str) -> None:
        """A note of the order (once however many rows say it)."""
        if text not in self.notes:
            self.notes.append(text)


class HazardFields(TypedDict):
    """An item's hazmat data, as ``tui.api.models.Hazard`` takes it."""

    hazmat_id: str
    hazard_class: str
    packing_group: str | None


class ItemFields(TypedDict, total=False):
    """One line of freight, as ``tui.api.models.RateItem`` takes it (what is unknown is left
    out, so the request holds only what the file said)."""

    quantity: int
    package: str
    weight: Decimal
    length: Decimal
    width: Decimal
    height: Decimal
    freight_class: Decimal
    nmfc: str
    description: str
    hazardous: bool
    hazard: HazardFields


@dataclass(frozen=True, slots=True)
class Line:
    """One line of freight, every value read: per-unit weight (lb) and sizes (in)."""

    quantity: int
    package: str
    weight: Decimal
    length: Decimal
    width: Decimal
    height: Decimal
    freight_class: Decimal
    nmfc: str | None = None
    """None: the file gave none (or a blank one)."""
    description: str = ""
    hazard: HazardFields | None = None
    """None: not hazardous."""

    @property
    def hazardous(self) -> bool:
        return self.hazard is not None

    def item(self) -> ItemFields:
        """The rate request's item of this line."""
        item = ItemFields(
            quantity=self.quantity,
            package=self.package,
            weight=self.weight,
            length=self.length,
            width=self.width,
            height=self.height,
            freight_class=self.freight_class,
        )
        if self.nmfc is not None:
            item["nmfc"] = self.nmfc
        if self.description:
            item["description"] = self.description
        if self.hazard is not None:
            item["hazardous"] = True
            item["hazard"] = self.hazard
        return item


@dataclass(frozen=True, slots=True)
class Destination:
    """Where an order goes, every value read: ZIP, country, location type and address."""

    zip: str
    country: str
    kind: str
    """A location type's wire value (``business-dock``, ``residential``…)."""
    company: str = ""
    address: str = ""
    city: str = ""
    state: str = ""

    @property
    def text(self) -> str:
        """``Gardnerville NV 89410``."""
        return " ".join(part for part in (self.city, self.state, self.zip) if part)
