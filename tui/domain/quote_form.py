"""The quote form as typed (strings), its field errors in form order, and what it implies."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any, Final, NamedTuple

from tui.domain.accessorials import Accessorial, parse_accessorials
from tui.domain.density import ItemLine, LineTotals, summarize
from tui.domain.density import density_pcf as unit_density
from tui.domain.freight_class import class_for_density, format_class, parse_freight_class
from tui.domain.hazmat import (
    hazmat_line,
    parse_hazard_class,
    parse_nmfc,
    parse_packing_group,
    parse_un_number,
    shipping_name_problem,
)
from tui.domain.locations import DEFAULT_LOCATION_TYPE, LOCATION_TYPES, PACKAGE_TYPES
from tui.domain.pickup_dates import parse_pickup_date, region_of
from tui.domain.validation import parse_phone, parse_positive_decimal, parse_quantity, parse_zip

MODES: Final[dict[str, str]] = {
    "all": "All",
    "ltl": "LTL",
    "parcel": "Parcel",
    "truckload": "Truckload",
}
"""Which offers to show (the rate request has no mode: this filters the answer)."""

IMPLIED_MARK: Final = "◂"
"""Marks a class the density implies."""
OVERRIDE_MARK: Final = "✎"
"""Marks a class the user typed."""

MAX_ITEMS: Final = 40
MAX_WEIGHT_LB: Final = Decimal(50_000)
MAX_DIMENSION_IN: Final = Decimal(636)  # a 53 ft trailer
MAX_DESCRIPTION: Final = 200
MAX_REFERENCE: Final = 60
MAX_CONTACT_NAME: Final = 60

ITEM_FIELDS: Final = (
    "quantity",
    "package",
    "weight",
    "length",
    "width",
    "height",
    "freight_class",
    "description",
)
"""Item fields in the order the grid shows them (and errors are reported)."""

DETAIL_FIELDS: Final = ("nmfc", "hazmat_id", "hazard_class", "packing_group")
"""Text fields of an item's details dialog (beside the flags `stackable` and `hazardous`)."""

ITEM_DETAILS: Final = (*DETAIL_FIELDS, "stackable", "hazardous")
"""Every field of the details dialog."""

END_FIELDS: Final = ("origin_zip", "dest_zip")
SHIPMENT_FIELDS: Final = ("pickup_date", "po_number", "shipper_reference")
EMERGENCY_FIELDS: Final = ("emergency_name", "emergency_phone")


def complete_package(text: str) -> str | None:
    """The package label `text` names: exact, display name, or a unique prefix (any case)."""
    value = text.strip().lower()
    if not value:
        return None
    if value in PACKAGE_TYPES:
        return value
    matches = [key for key in PACKAGE_TYPES if key.startswith(value)]
    return matches[0] if len(matches) == 1 else None


@dataclass(frozen=True, slots=True)
class ItemDraft:
    """One item row exactly as typed (nothing typed is ever lost, valid or not)."""

    quantity: str = "1"
    package: str = "pallet"
    weight: str = ""
    length: str = ""
    width: str = ""
    height: str = ""
    freight_class: str = ""
    description: str = ""
    nmfc: str = ""
    stackable: bool = True
    hazardous: bool = False
    hazmat_id: str = ""
    hazard_class: str = ""
    packing_group: str = ""

    def is_blank(self) -> bool:
        """True for a row nobody has filled in (it is skipped, not an error)."""
        return (
            not any((self.weight, self.length, self.width, self.height, self.freight_class))
            and not self.description.strip()
            and not self.nmfc.strip()
            and not self.hazardous
        )

    def has_details(self) -> bool:
        """True when the details dialog holds anything beyond the defaults."""
        return bool(self.nmfc.strip()) or not self.stackable or self.hazardous

    def field_error(self, name: str) -> str | None:
        """The message for one field of this row, or None when it is fine."""
        value: str = getattr(self, name)
        try:
            if name == "quantity":
                parse_quantity(value)
            elif name == "package":
                if complete_package(value) is None:
                    raise ValueError("package: pallet, skid, crate, box, carton, drum… (F1)")
            elif name == "weight":
                parse_positive_decimal(value, "weight (lb per unit)", MAX_WEIGHT_LB)
            elif name in ("length", "width", "height"):
                parse_positive_decimal(value, f"{name} (inches)", MAX_DIMENSION_IN)
            elif name == "freight_class":
                if value.strip():
                    parse_freight_class(value)
            elif name == "description" and len(value) > MAX_DESCRIPTION:
                raise ValueError(f"description is at most {MAX_DESCRIPTION} characters")
            elif name == "description" and self.hazardous:
                problem = shipping_name_problem(self.hazmat_id, value)
                if problem is not None:
                    raise ValueError(problem)
            elif name == "nmfc":
                parse_nmfc(value)
            elif self.hazardous and name == "hazmat_id":
                parse_un_number(value)
            elif self.hazardous and name == "hazard_class":
                parse_hazard_class(value)
            elif self.hazardous and name == "packing_group":
                parse_packing_group(value)
        except ValueError as error:
            return str(error)
        return None

    def errors(self) -> dict[str, str]:
        """Every field's message, in form order (grid, then details)."""
        found = {name: self.field_error(name) for name in (*ITEM_FIELDS, *DETAIL_FIELDS)}
        return {name: message for name, message in found.items() if message is not None}

    def details_line(self) -> str:
        """`HM UN1203 · 3 · PG II · NMFC 156600 · do not stack`, or `` without details."""
        parts: list[str] = []
        if self.hazardous:
            try:
                parts.append(
                    hazmat_line(
                        parse_un_number(self.hazmat_id),
                        parse_hazard_class(self.hazard_class),
                        parse_packing_group(self.packing_group),
                    )
                )
            except ValueError:
                parts.append("HM (incomplete)")
        if self.nmfc.strip():
            parts.append(f"NMFC {self.nmfc.strip()}")
        if not self.stackable:
            parts.append("do not stack")
        return " · ".join(parts)

    def line(self) -> ItemLine | None:
        """Quantity, weight and dims as numbers, or None while any of them is invalid."""
        try:
            return ItemLine(
                quantity=parse_quantity(self.quantity),
                weight=parse_positive_decimal(self.weight, "weight", MAX_WEIGHT_LB),
                length=parse_positive_decimal(self.length, "length", MAX_DIMENSION_IN),
                width=parse_positive_decimal(self.width, "width", MAX_DIMENSION_IN),
                height=parse_positive_decimal(self.height, "height", MAX_DIMENSION_IN),
            )
        except ValueError:
            return None

    def density_pcf(self) -> Decimal | None:
        """Density from per-unit weight and dims, or None while they are incomplete."""
        try:
            weight = parse_positive_decimal(self.weight, "weight", MAX_WEIGHT_LB)
            dims = [
                parse_positive_decimal(value, "dimension", MAX_DIMENSION_IN)
                for value in (self.length, self.width, self.height)
            ]
        except ValueError:
            return None
        return unit_density(weight, *dims)

    def implied_class(self) -> Decimal | None:
        """The class the density implies, or None while it cannot be computed."""
        density = self.density_pcf()
        return None if density is None else class_for_density(density)

    def class_override(self) -> Decimal | None:
        """The class the user typed, or None (use the implied one, or it is invalid)."""
        if not self.freight_class.strip():
            return None
        try:
            return parse_freight_class(self.freight_class)
        except ValueError:
            return None

    def effective_class(self) -> Decimal | None:
        """The class the request will carry: the user's, else the implied one."""
        override = self.class_override()
        return override if override is not None else self.implied_class()


class FieldError(NamedTuple):
    """A message for one field; `field` is `origin_zip`, `dest_zip` or `items.N.name`."""

    field: str
    message: str

    @property
    def label(self) -> str:
        """Where the problem is, for people: `row 2`, `from`, `to` (the message names the field)."""
        if self.field.startswith("items."):
            _, index, _name = self.field.split(".", 2)
            return f"row {int(index) + 1}"
        return _LABELS.get(self.field, self.field)

    @property
    def in_details(self) -> bool:
        """True for a field of the item details dialog (the emergency contact included)."""
        return self.field.rsplit(".", 1)[-1] in (*DETAIL_FIELDS, *EMERGENCY_FIELDS)


_LABELS: Final = {
    "origin_zip": "from",
    "dest_zip": "to",
    "items": "items",
    "pickup_date": "pickup date",
    "po_number": "PO",
    "shipper_reference": "shipper ref",
    "emergency_name": "emergency contact",
    "emergency_phone": "emergency contact",
}


@dataclass(frozen=True, slots=True)
class QuoteDraft:
    """The whole quote form as typed: mode filter, both ends, items, pickup day, accessorials,
    references and the emergency contact hazardous freight needs."""

    mode: str = "all"
    origin_zip: str = ""
    origin_type: str = DEFAULT_LOCATION_TYPE
    dest_zip: str = ""
    dest_type: str = DEFAULT_LOCATION_TYPE
    items: tuple[ItemDraft, ...] = field(default_factory=lambda: (ItemDraft(),))
    pickup_date: str = ""
    """As typed; blank is the next business day at the origin."""
    accessorials: tuple[Accessorial, ...] = ()
    po_number: str = ""
    """The consignee's PO / order number (sent as the destination's reference)."""
    shipper_reference: str = ""
    """The shipper's own reference (sent as the origin's reference)."""
    emergency_name: str = ""
    emergency_phone: str = ""

    @property
    def is_hazardous(self) -> bool:
        """True when any row that counts is hazardous freight."""
        return any(item.hazardous for _, item in self.filled_items())

    def filled_items(self) -> Iterator[tuple[int, ItemDraft]]:
        """The rows that count (not blank), with their index in the form."""
        for index, item in enumerate(self.items):
            if not item.is_blank():
                yield index, item

    def pickup_day(self, today: date) -> date | None:
        """The pickup day (`today` is the date at the origin), or None while it is wrong."""
        try:
            return parse_pickup_date(self.pickup_date, today, region=region_of(self.origin_zip))
        except ValueError:
            return None

    def errors(
        self, today: date | None = None, unknown_zip: Callable[[str], bool] | None = None
    ) -> list[FieldError]:
        """Every problem, in the order the form shows the fields.

        `today` (the date at the origin) checks the pickup day; `unknown_zip` marks a
        well-formed ZIP that does not exist.
        """
        found: list[FieldError] = []
        for name in END_FIELDS:
            try:
                code = parse_zip(getattr(self, name))
                if unknown_zip is not None and unknown_zip(code):
                    raise ValueError(f"{code[:5]} is not a US ZIP code")
            except ValueError as error:
                found.append(FieldError(name, str(error)))
        filled = list(self.filled_items())
        if not filled:
            found.append(FieldError("items.0.weight", "describe at least one item"))
        if len(filled) > MAX_ITEMS:
            found.append(FieldError("items", f"at most {MAX_ITEMS} item rows per quote"))
        for index, item in filled:
            for name, message in item.errors().items():
                found.append(FieldError(f"items.{index}.{name}", message))
        if today is not None and self.pickup_date.strip():  # blank: the next business day
            try:
                parse_pickup_date(self.pickup_date, today, region=region_of(self.origin_zip))
            except ValueError as error:
                found.append(FieldError("pickup_date", str(error)))
        for name, label in (("po_number", "PO / order"), ("shipper_reference", "reference")):
            if len(getattr(self, name).strip()) > MAX_REFERENCE:
                found.append(FieldError(name, f"{label} is at most {MAX_REFERENCE} characters"))
        found.extend(self.emergency_errors())
        return found

    def emergency_errors(self) -> list[FieldError]:
        """The emergency contact's problems: required (name and phone) with hazardous freight."""
        found: list[FieldError] = []
        name, phone = self.emergency_name.strip(), self.emergency_phone.strip()
        if not self.is_hazardous and not name and not phone:
            return found
        if self.is_hazardous and not name:
            found.append(
                FieldError("emergency_name", "hazardous freight needs a 24-hour emergency contact")
            )
        elif len(name) > MAX_CONTACT_NAME:
            found.append(
                FieldError("emergency_name", f"name is at most {MAX_CONTACT_NAME} characters")
            )
        if self.is_hazardous and not phone:
            found.append(
                FieldError("emergency_phone", "hazardous freight needs an emergency phone")
            )
        elif phone:
            try:
                parse_phone(phone)
            except ValueError as error:
                found.append(FieldError("emergency_phone", f"emergency {error}"))
        return found

    def totals(self) -> LineTotals:
        """Units, weight and cube of the rows that are complete enough to count."""
        lines = [line for _, item in self.filled_items() if (line := item.line()) is not None]
        return summarize(lines)

    def incomplete_rows(self) -> int:
        """Rows with something typed that the totals cannot count yet."""
        return sum(1 for _, item in self.filled_items() if item.line() is None)

    def filled_fields(self) -> set[str]:
        """Fields that hold text (a restored draft shows their errors at once)."""
        names = (*END_FIELDS, *SHIPMENT_FIELDS, *EMERGENCY_FIELDS)
        filled = {name for name in names if getattr(self, name).strip()}
        for index, item in enumerate(self.items):
            for name in (*ITEM_FIELDS, *DETAIL_FIELDS):
                if getattr(item, name).strip():
                    filled.add(f"items.{index}.{name}")
        return filled

    @property
    def mode_filter(self) -> str | None:
        """The mode to show offers of, or None for all."""
        return None if self.mode == "all" else self.mode

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for the draft store."""
        data = asdict(self)
        data["items"] = [asdict(item) for item in self.items]
        data["accessorials"] = [str(accessorial) for accessorial in self.accessorials]
        data["version"] = 2
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QuoteDraft:
        """Rebuild from a saved draft, keeping whatever text it holds; odd values fall back."""

        def text(source: Mapping[str, Any], key: str, default: str) -> str:
            value = source.get(key, default)
            return value if isinstance(value, str) else default

        def flag(source: Mapping[str, Any], key: str, default: bool) -> bool:
            value = source.get(key, default)
            return value if isinstance(value, bool) else default

        default = cls()
        raw_items = data.get("items")
        items: list[ItemDraft] = []
        if isinstance(raw_items, list):
            blank = ItemDraft()
            for raw in raw_items[: MAX_ITEMS * 2]:
                if isinstance(raw, Mapping):
                    texts = (*ITEM_FIELDS, *DETAIL_FIELDS)
                    items.append(
                        replace(
                            blank,
                            **{name: text(raw, name, getattr(blank, name)) for name in texts},
                            stackable=flag(raw, "stackable", blank.stackable),
                            hazardous=flag(raw, "hazardous", blank.hazardous),
                        )
                    )
        mode = text(data, "mode", default.mode)
        origin_type = text(data, "origin_type", default.origin_type)
        dest_type = text(data, "dest_type", default.dest_type)
        return cls(
            mode=mode if mode in MODES else default.mode,
            origin_zip=text(data, "origin_zip", ""),
            origin_type=origin_type if origin_type in LOCATION_TYPES else default.origin_type,
            dest_zip=text(data, "dest_zip", ""),
            dest_type=dest_type if dest_type in LOCATION_TYPES else default.dest_type,
            items=tuple(items) or default.items,
            pickup_date=text(data, "pickup_date", ""),
            accessorials=parse_accessorials(data.get("accessorials")),
            po_number=text(data, "po_number", ""),
            shipper_reference=text(data, "shipper_reference", ""),
            emergency_name=text(data, "emergency_name", ""),
            emergency_phone=text(data, "emergency_phone", ""),
        )


def class_hint(index: int, item: ItemDraft) -> str:
    """One line on what class row `index` gets and why (implied by density, or typed)."""
    implied = item.implied_class()
    override = item.class_override()
    density = item.density_pcf()
    row = f"row {index + 1}"
    details = item.details_line()
    if details:
        if implied is None or density is None:
            return f"{row}: {details} · ctrl+o details"
        shown = override if override is not None else implied
        return f"{row}: class {format_class(shown)} · {density:.2f} pcf · {details} · ctrl+o"
    if implied is None or density is None:
        return f"{row}: weight and L×W×H give the density and class · ctrl+o details"
    if override is not None and override != implied:
        return (
            f"{row}: class {format_class(override)} {OVERRIDE_MARK} yours; {density:.2f} pcf "
            f"implies {format_class(implied)} · clear it to use that"
        )
    return (
        f"{row}: class {format_class(implied)} {IMPLIED_MARK} implied by {density:.2f} pcf · "
        "type a class to override"
    )
