"""Location types and package labels match the service's wire values (README, Sandbox)."""

from __future__ import annotations

from tui.domain.locations import (
    DEFAULT_LOCATION_TYPE,
    DEFAULT_PACKAGE_TYPE,
    LOCATION_TYPES,
    LOCATION_TYPES_SHORT,
    PACKAGE_TYPES,
    location_label,
    package_label,
)


def test_location_types_are_the_documented_six() -> None:
    assert list(LOCATION_TYPES) == [
        "business-dock",
        "business-no-dock",
        "residential",
        "limited-access",
        "trade-show",
        "distribution-center",
    ]
    assert set(LOCATION_TYPES_SHORT) == set(LOCATION_TYPES)
    assert DEFAULT_LOCATION_TYPE == "business-dock"
    assert location_label("business-no-dock") == "Business, no dock"


def test_package_labels_are_the_documented_nineteen() -> None:
    documented = [
        "pallet",
        "skid",
        "crate",
        "box",
        "carton",
        "drum",
        "pail",
        "bundle",
        "roll",
        "reel",
        "coil",
        "tote",
        "bag",
        "bale",
        "cylinder",
        "tube",
        "loose",
        "gaylord",
        "envelope",
    ]
    assert sorted(PACKAGE_TYPES) == sorted(documented)
    assert DEFAULT_PACKAGE_TYPE in PACKAGE_TYPES
    assert package_label("gaylord") == "Gaylord"
    assert package_label("mystery") == "mystery"
