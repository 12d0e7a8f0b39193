"""Location types and package labels the service knows, with the names people read."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class LocationType(StrEnum):
    """The 13 location types of the real service; the value is Freight's stable identifier.

    The identifier (``business-dock``) is what config files and drafts store; ``words`` is the
    service's own spelling (``business dock``), which the client library sends by default.
    """

    BUSINESS_DOCK = "business-dock"
    BUSINESS_NO_DOCK = "business-no-dock"
    RESIDENTIAL = "residential"
    LIMITED_ACCESS = "limited-access"
    TRADE_SHOW = "trade-show"
    CONSTRUCTION = "construction"
    FARM = "farm"
    MILITARY = "military"
    AIRPORT = "airport"
    PLACE_OF_WORSHIP = "place-of-worship"
    SCHOOL = "school"
    MINE = "mine"
    PIER = "pier"

    @property
    def words(self) -> str:
        """The real service's name: lower case, words separated by spaces."""
        return self.value.replace("-", " ")

    @property
    def label(self) -> str:
        """Display name for menus."""
        return LOCATION_TYPES[self]

    @property
    def short(self) -> str:
        """Display name for narrow layouts."""
        return LOCATION_TYPES_SHORT[self]


#: Location types and their display names, in menu order.
LOCATION_TYPES: Final[dict[str, str]] = {
    LocationType.BUSINESS_DOCK: "Business with dock",
    LocationType.BUSINESS_NO_DOCK: "Business, no dock",
    LocationType.RESIDENTIAL: "Residential",
    LocationType.LIMITED_ACCESS: "Limited access",
    LocationType.TRADE_SHOW: "Trade show",
    LocationType.CONSTRUCTION: "Construction site",
    LocationType.FARM: "Farm",
    LocationType.MILITARY: "Military base",
    LocationType.AIRPORT: "Airport",
    LocationType.PLACE_OF_WORSHIP: "Place of worship",
    LocationType.SCHOOL: "School",
    LocationType.MINE: "Mine",
    LocationType.PIER: "Pier",
}

#: Short names for narrow layouts (80 columns).
LOCATION_TYPES_SHORT: Final[dict[str, str]] = {
    LocationType.BUSINESS_DOCK: "Dock",
    LocationType.BUSINESS_NO_DOCK: "No dock",
    LocationType.RESIDENTIAL: "Residential",
    LocationType.LIMITED_ACCESS: "Limited",
    LocationType.TRADE_SHOW: "Trade show",
    LocationType.CONSTRUCTION: "Construction",
    LocationType.FARM: "Farm",
    LocationType.MILITARY: "Military",
    LocationType.AIRPORT: "Airport",
    LocationType.PLACE_OF_WORSHIP: "Worship",
    LocationType.SCHOOL: "School",
    LocationType.MINE: "Mine",
    LocationType.PIER: "Pier",
}

DEFAULT_LOCATION_TYPE: Final = LocationType.BUSINESS_DOCK

#: Older or other spellings that name one of the 13 types. ``distribution-center`` was one of
#: Freight's own six; the service has no such type, and a distribution center receives at a
#: dock, so it reads as ``business dock``.
LOCATION_ALIASES: Final[dict[str, LocationType]] = {
    "distribution center": LocationType.BUSINESS_DOCK,
    "dc": LocationType.BUSINESS_DOCK,
    "business": LocationType.BUSINESS_DOCK,
    "commercial": LocationType.BUSINESS_DOCK,
    "business with dock": LocationType.BUSINESS_DOCK,
    "business without dock": LocationType.BUSINESS_NO_DOCK,
    "construction site": LocationType.CONSTRUCTION,
    "military base": LocationType.MILITARY,
    "church": LocationType.PLACE_OF_WORSHIP,
}


def _key(text: str) -> str:
    """``Business-Dock``, ``business_dock``, ``BUSINESS DOCK`` -> ``business dock``."""
    cleaned = "".join(" " if ch in "-_,/" else ch for ch in text.strip().lower())
    return " ".join(cleaned.split())


_BY_KEY: Final[dict[str, LocationType]] = {
    **{_key(t.value): t for t in LocationType},
    **{_key(label): LocationType(key) for key, label in LOCATION_TYPES.items()},
    **{_key(k): v for k, v in LOCATION_ALIASES.items()},
}


def parse_location_type(value: object) -> LocationType:
    """A location type from any known spelling (case, hyphens, spaces, labels, old names).

    Raises ValueError naming the 13 types when ``value`` is none of them.
    """
    if isinstance(value, LocationType):
        return value
    if isinstance(value, str):
        found = _BY_KEY.get(_key(value))
        if found is not None:
            return found
    known = ", ".join(t.words for t in LocationType)
    raise ValueError(f"must be a location type: {known}")


#: `package` labels and their display names, in menu order (most common first).
PACKAGE_TYPES: Final[dict[str, str]] = {
    "pallet": "Pallet",
    "skid": "Skid",
    "crate": "Crate",
    "box": "Box",
    "carton": "Carton",
    "drum": "Drum",
    "pail": "Pail",
    "bundle": "Bundle",
    "roll": "Roll",
    "reel": "Reel",
    "coil": "Coil",
    "tote": "Tote",
    "bag": "Bag",
    "bale": "Bale",
    "cylinder": "Cylinder",
    "tube": "Tube",
    "loose": "Loose",
    "gaylord": "Gaylord",
    "envelope": "Envelope",
}

DEFAULT_PACKAGE_TYPE: Final = "pallet"


def plural(package: str) -> str:
    """English plural of a package key (``box`` -> ``boxes``, ``loose`` stays)."""
    if package == "loose":
        return package
    if package.endswith(("x", "s", "ch", "sh")):
        return package + "es"
    return package + "s"


def parse_package(value: str) -> str:
    """The package key for a known label in any case, singular or plural; else ``value``."""
    text = value.strip()
    lowered = text.lower()
    if lowered in PACKAGE_TYPES:
        return lowered
    for key in PACKAGE_TYPES:
        if lowered == plural(key):
            return key
    return text


def location_label(value: str) -> str:
    """Display name of a location type (the raw value if unknown)."""
    try:
        return parse_location_type(value).label
    except ValueError:
        return value


def package_label(value: str) -> str:
    """Display name of a package label (the raw value if unknown)."""
    return PACKAGE_TYPES.get(value, value)
