"""Location types and package labels the service accepts, with the names people read."""

from __future__ import annotations

from typing import Final

#: `originType`/`destType` values and their display names, in menu order.
LOCATION_TYPES: Final[dict[str, str]] = {
    "business-dock": "Business with dock",
    "business-no-dock": "Business, no dock",
    "residential": "Residential",
    "limited-access": "Limited access",
    "trade-show": "Trade show",
    "distribution-center": "Distribution center",
}

#: Short names for narrow layouts (80 columns).
LOCATION_TYPES_SHORT: Final[dict[str, str]] = {
    "business-dock": "Dock",
    "business-no-dock": "No dock",
    "residential": "Residential",
    "limited-access": "Limited",
    "trade-show": "Trade show",
    "distribution-center": "DC",
}

DEFAULT_LOCATION_TYPE: Final = "business-dock"

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


def location_label(value: str) -> str:
    """Display name of a location type (the raw value if unknown)."""
    return LOCATION_TYPES.get(value, value)


def package_label(value: str) -> str:
    """Display name of a package label (the raw value if unknown)."""
    return PACKAGE_TYPES.get(value, value)
