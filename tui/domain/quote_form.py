"""The quote form as typed (strings), its field errors in form order, and what it implies."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal
from typing import Any, Final

from tui.domain.density import ItemLine, LineTotals, summarize
from tui.domain.density import density_pcf as unit_density
from tui.domain.freight_class import class_for_density, format_class, parse_freight_class
from tui.domain.locations import DEFAULT_LOCATION_TYPE, LOCATION_TYPES, PACKAGE_TYPES
from tui.domain.validation import parse_positive_decimal, parse_quantity, parse_zip

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
"""Item fields in the order the form shows them (and errors are reported)."""


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

    def is_blank(self) -> bool:
        """True for a row nobody has filled in (it is skipped, not an error)."""
        return (
            not any((self.weight, self.length, self.width, self.height, self.freight_class))
            and not self.description.strip()
        )

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
        except ValueError as error:
            return str(error)
        return None

    def errors(self) -> dict[str, str]:
        """Every field's message, in form order."""
        found = {name: self.field_error(name) for name in ITEM_FIELDS}
        return {name: message for name, message in found.items() if message is not None}

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


@dataclass(frozen=True, slots=True)
class FieldError:
    """A message for one field; `field` is `origin_zip`, `dest_zip` or `items.N.name`."""

    field: str
    message: str

    @property
    def label(self) -> str:
        """Where the problem is, for people: `row 2`, `from`, `to` (the message names the field)."""
        if self.field.startswith("items."):
            _, index, _name = self.field.split(".", 2)
            return f"row {int(index) + 1}"
        return {"origin_zip": "from", "dest_zip": "to", "items": "items"}.get(
            self.field, self.field
        )


@dataclass(frozen=True, slots=True)
class QuoteDraft:
    """The whole quote form as typed: mode filter, both ends, and the item rows."""

    mode: str = "all"
    origin_zip: str = ""
    origin_type: str = DEFAULT_LOCATION_TYPE
    dest_zip: str = ""
    dest_type: str = DEFAULT_LOCATION_TYPE
    items: tuple[ItemDraft, ...] = field(default_factory=lambda: (ItemDraft(),))

    def filled_items(self) -> Iterator[tuple[int, ItemDraft]]:
        """The rows that count (not blank), with their index in the form."""
        for index, item in enumerate(self.items):
            if not item.is_blank():
                yield index, item

    def errors(self) -> list[FieldError]:
        """Every problem, in the order the form shows the fields."""
        found: list[FieldError] = []
        for name in ("origin_zip", "dest_zip"):
            try:
                parse_zip(getattr(self, name))
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
        filled = {name for name in ("origin_zip", "dest_zip") if getattr(self, name).strip()}
        for index, item in enumerate(self.items):
            for name in ITEM_FIELDS:
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
        data["version"] = 1
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QuoteDraft:
        """Rebuild from a saved draft, keeping whatever text it holds; odd values fall back."""

        def text(source: Mapping[str, Any], key: str, default: str) -> str:
            value = source.get(key, default)
            return value if isinstance(value, str) else default

        default = cls()
        raw_items = data.get("items")
        items: list[ItemDraft] = []
        if isinstance(raw_items, list):
            blank = ItemDraft()
            for raw in raw_items[: MAX_ITEMS * 2]:
                if isinstance(raw, Mapping):
                    items.append(
                        replace(
                            blank,
                            **{name: text(raw, name, getattr(blank, name)) for name in ITEM_FIELDS},
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
        )


def class_hint(index: int, item: ItemDraft) -> str:
    """One line on what class row `index` gets and why (implied by density, or typed)."""
    implied = item.implied_class()
    override = item.class_override()
    density = item.density_pcf()
    row = f"row {index + 1}"
    if implied is None or density is None:
        return f"{row}: weight and L×W×H give the density and class · F1 help"
    if override is not None and override != implied:
        return (
            f"{row}: class {format_class(override)} {OVERRIDE_MARK} yours; {density:.2f} pcf "
            f"implies {format_class(implied)} · clear it to use that"
        )
    return (
        f"{row}: class {format_class(implied)} {IMPLIED_MARK} implied by {density:.2f} pcf · "
        "type a class to override"
    )
