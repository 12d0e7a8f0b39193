"""Where an audited bill's likely cause is the user's own data, the change that sets it right.

A reclass points at a saved item template (the template with the item's description and the
class before): its class becomes the billed one. An accessorial added at the consignee
(residential, limited access, liftgate) points at the address book entry of that consignee
(same company and ZIP): its location type becomes the one that asks for that accessorial
(residential, limited access, or a business with no dock for a liftgate). Nothing is
changed here: the caller shows ``old → new`` and applies it only when the user says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Final

from tui.config.settings import ItemTemplate, Location
from tui.domain.freight_class import FREIGHT_CLASSES, format_class
from tui.domain.locations import LocationType
from tui.reports.audit import AuditLine, Clue

LOCATION_OF: Final = (
    ("residential", LocationType.RESIDENTIAL),
    ("limited access", LocationType.LIMITED_ACCESS),
    ("liftgate", LocationType.BUSINESS_NO_DOCK),
)
"""An accessorial added at delivery, and the location type that asks for it."""


@dataclass(frozen=True)
class Fix:
    """A change of the user's data: ``old`` (a saved item template or address book entry)
    becomes ``new``; ``what`` names it and ``change`` says it, old → new."""

    what: str
    change: str
    old: ItemTemplate | Location
    new: ItemTemplate | Location


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


def template_fix(line: AuditLine, templates: Sequence[ItemTemplate]) -> Fix | None:
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
        old = template.freight_class
        if named and old in (before, None) and old != after:
            said = f"class {format_class(old) if old is not None else 'density'} → "
            return Fix(f"item template “{template.name}”", said + format_class(after), template,
                       template.model_copy(update={"freight_class": after}))  # fmt: skip
    return None


def address_fix(line: AuditLine, entries: Sequence[Location]) -> Fix | None:
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
        what = f"address book entry “{entry.label or entry.company} ({entry.postal_code})”"
        change = f"location type {entry.location_type.label} → {new.label}"
        return Fix(what, change, entry, entry.model_copy(update={"location_type": new}))
    return None


def fix_of(
    line: AuditLine, templates: Sequence[ItemTemplate], entries: Sequence[Location]
) -> Fix | None:
    """The change of the user's data this line suggests, if any."""
    return template_fix(line, templates) or address_fix(line, entries)


def fixes_of(
    lines: Iterable[AuditLine], templates: Sequence[ItemTemplate], entries: Sequence[Location]
) -> dict[str, Fix]:
    """Per shipment id, the change of the user's data its line suggests (none: left out).

    A fix depends on the line's clue alone, and a period's 30,000 lines above their price
    point at far fewer items and consignees: each distinct clue is matched once, and an
    accessorial's only against the address book entries of its ZIP (the book grouped by
    ZIP once), not against the whole book once a line."""
    by_zip: dict[str, list[Location]] = {}
    for entry in entries:
        by_zip.setdefault(_zip(entry.postal_code), []).append(entry)
    found: dict[Clue, Fix | None] = {}
    out: dict[str, Fix] = {}
    for line in lines:
        clue = line.clue
        if clue is None:
            continue
        if clue in found:
            fix = found[clue]
        else:
            near = by_zip.get(_zip(clue.postal_code), []) if clue.kind == "accessorial" else []
            fix = found[clue] = fix_of(line, templates, near)
        if fix is not None:
            out[line.shipment_id] = fix
    return out
