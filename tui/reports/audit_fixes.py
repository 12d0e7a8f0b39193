"""Where an audited bill's likely cause is the user's own data, the change that sets it right.

A reclass points at a saved item template (the template with the item's description and the
class before): its class becomes the billed one. An accessorial added at the consignee
(residential, limited access, liftgate) points at the address book entry of that consignee
(same company and ZIP): its location type becomes the one that asks for that accessorial
(residential, limited access, or a business with no dock for a liftgate). Nothing is
changed here: the caller shows ``old → new`` and applies it only when the user says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Final

from tui.config.settings import ItemTemplate, Location
from tui.domain.freight_class import FREIGHT_CLASSES, format_class
from tui.domain.locations import LocationType
from tui.reports.audit import AuditLine

LOCATION_OF: Final = (
    ("residential", LocationType.RESIDENTIAL),
    ("limited access", LocationType.LIMITED_ACCESS),
    ("liftgate", LocationType.BUSINESS_NO_DOCK),
)
"""An accessorial added at delivery, and the location type that asks for it."""


@dataclass(frozen=True)
class TemplateFix:
    """A saved item template's class, to change from ``old`` to ``new``."""

    template: ItemTemplate
    new: Decimal

    @property
    def what(self) -> str:
        return f"item template “{self.template.name}”"

    @property
    def change(self) -> str:
        old = self.template.freight_class
        before = format_class(old) if old is not None else "density"
        return f"class {before} → {format_class(self.new)}"


@dataclass(frozen=True)
class AddressFix:
    """An address book entry's location type, to change to ``new``."""

    entry: Location
    new: LocationType

    @property
    def what(self) -> str:
        name = self.entry.label or self.entry.company
        return f"address book entry “{name} ({self.entry.postal_code})”"

    @property
    def change(self) -> str:
        return f"location type {self.entry.location_type.label} → {self.new.label}"


Fix = TemplateFix | AddressFix


def _class(text: str) -> Decimal | None:
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return next((c for c in FREIGHT_CLASSES if c == value), None)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold() != ""


def _zip(text: str) -> str:
    return "".join(text.split()).upper()


def template_fix(line: AuditLine, templates: Sequence[ItemTemplate]) -> TemplateFix | None:
    """The template a reclassed item was likely made from: its description (or name) is the
    item's, its class the one before (or none, the density's); None when no template fits."""
    clue = line.clue
    if clue is None or clue.kind != "reclass":
        return None
    before, after = _class(clue.before), _class(clue.after)
    if after is None:
        return None
    for template in templates:
        named = _same(template.description, clue.subject) or _same(template.name, clue.subject)
        if named and template.freight_class in (before, None) and template.freight_class != after:
            return TemplateFix(template, after)
    return None


def address_fix(line: AuditLine, entries: Sequence[Location]) -> AddressFix | None:
    """The address book entry of the consignee an accessorial was added at (same company and
    ZIP), when its location type does not ask for that accessorial already."""
    clue = line.clue
    if clue is None or clue.kind != "accessorial":
        return None
    new = next((kind for word, kind in LOCATION_OF if word in clue.after), None)
    if new is None:
        return None
    for entry in entries:
        if _zip(entry.postal_code) != _zip(clue.postal_code):
            continue
        if not (_same(entry.company, clue.subject) or _same(entry.label, clue.subject)):
            continue
        if entry.location_type == new:
            return None
        if new is LocationType.BUSINESS_NO_DOCK and entry.location_type not in (
            LocationType.BUSINESS_DOCK,
        ):
            return None  # a residence or a site gets its liftgate already
        return AddressFix(entry, new)
    return None


def fix_of(
    line: AuditLine, templates: Sequence[ItemTemplate], entries: Sequence[Location]
) -> Fix | None:
    """The change of the user's data this line suggests, if any."""
    return template_fix(line, templates) or address_fix(line, entries)
