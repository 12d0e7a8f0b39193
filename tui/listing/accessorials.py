"""A shipment's accessorials as a person reads them, from its record as the service sent it.

The interface does not show how a shipment record carries its accessorials; what is known is
how real clients ask for them (names in ``charges``: ``liftgate delivery``, ``arrival
schedule``…) and that residential or limited-access delivery is said by the location type
(``originType``/``destType``, or ``locationType`` in an address block). So this reads the
record leniently: a list of names, of objects with a name, or one comma-separated text, under
any of the keys below; charges that are not accessorials (linehaul, fuel, discounts) are left
out, and a name Freight does not know is shown as written (plain text, never markup).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from tui.domain.accessorials import Accessorial, parse_accessorial
from tui.domain.locations import DEFAULT_LOCATION_TYPE, LocationType, parse_location_type
from tui.domain.safe_text import plain

LISTS = ("accessorials", "accessorialServices", "accessorialCharges")
"""Keys a record may list its accessorials under (``charges`` is read apart: it mixes in the
linehaul, fuel and discounts)."""
_NAME_KEYS = ("name", "description", "label", "code", "type")
NOT_ACCESSORIAL = re.compile(
    r"^(linehaul|line haul|base|base rate|freight|fuel|fuel surcharge|fsc|discount|"
    r"total|tax|taxes|minimum|min charge|gross|net)\b",
    re.IGNORECASE,
)
_ENDS = (("pickup", "originType", "origin"), ("delivery", "destType", "destination"))
NAME_LIMIT = 60


def _names(value: Any) -> Iterator[str]:
    """Each name in a list of names or named objects, or in one comma-separated text."""
    if isinstance(value, str):
        yield from (part for part in value.split(",") if part.strip())
    elif isinstance(value, list | tuple):
        for entry in value:
            if isinstance(entry, str):
                yield entry
            elif isinstance(entry, Mapping):
                name = next((entry[k] for k in _NAME_KEYS if isinstance(entry.get(k), str)), "")
                if name.strip():
                    yield name


CODES = {
    "lgdl": Accessorial.LIFTGATE_DELIVERY,
    "lgpu": Accessorial.LIFTGATE_PICKUP,
    "indl": Accessorial.INSIDE_DELIVERY,
    "appt": Accessorial.DELIVERY_APPOINTMENT,
    "ntfy": Accessorial.NOTIFY_BEFORE_DELIVERY,
    "pfz": Accessorial.PROTECT_FROM_FREEZING,
}
"""Short codes carriers print for the commonest accessorials."""


def _shown(name: str) -> str:
    """A known accessorial by Freight's label (``arrival schedule`` -> Delivery appointment);
    another name as written, first letter up."""
    key = " ".join(name.lower().replace("&", " and ").split())
    known = CODES.get(key) or parse_accessorial(key)
    if known is not None:
        return known.label
    text = plain(name, limit=NAME_LIMIT).strip()
    return text[:1].upper() + text[1:]


def _place(label: LocationType, end: str) -> str:
    """``Residential delivery``, ``No dock pickup``, ``Limited access delivery``."""
    name = label.short if label == LocationType.BUSINESS_NO_DOCK else label.label
    return f"{name} {end}"


def _location_types(raw: Mapping[str, Any]) -> Iterator[str]:
    for end, key, side in _ENDS:
        block = raw.get(side)
        given = raw.get(key)
        if not isinstance(given, str) and isinstance(block, Mapping):
            given = block.get("locationType", block.get("type"))
        if not isinstance(given, str) or not given.strip():
            continue
        try:
            kind = parse_location_type(given)
        except ValueError:
            yield f"{plain(given, limit=NAME_LIMIT).strip()} {end}"
            continue
        if kind != DEFAULT_LOCATION_TYPE:
            yield _place(kind, end)


def accessorials_of(raw: Mapping[str, Any]) -> list[str]:
    """What the record says was asked of the carrier beyond the linehaul, each once, as a
    person reads it: the location types that are not a business dock first, then the
    accessorials in the order given."""
    found: list[str] = list(_location_types(raw))
    for key in LISTS:
        found += [_shown(name) for name in _names(raw.get(key))]
    found += [
        _shown(name)
        for name in _names(raw.get("charges"))
        if not NOT_ACCESSORIAL.match(name.strip())
    ]
    seen: set[str] = set()
    kept = []
    for name in found:
        key = " ".join(name.lower().replace("-", " ").split())
        if key and key not in seen:
            seen.add(key)
            kept.append(name)
    return kept
