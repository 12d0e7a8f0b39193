"""Location types are the real service's 13; old spellings still read; package labels parse."""

from __future__ import annotations

import pytest

from tui.domain.locations import (
    DEFAULT_LOCATION_TYPE,
    DEFAULT_PACKAGE_TYPE,
    LOCATION_TYPES,
    LOCATION_TYPES_SHORT,
    PACKAGE_TYPES,
    LocationType,
    location_label,
    package_label,
    parse_location_type,
    parse_package,
    plural,
)


def test_location_types_are_the_real_services_thirteen() -> None:
    assert [t.words for t in LocationType] == [
        "business dock",
        "business no dock",
        "residential",
        "limited access",
        "trade show",
        "construction",
        "farm",
        "military",
        "airport",
        "place of worship",
        "school",
        "mine",
        "pier",
    ]
    assert list(LOCATION_TYPES) == list(LocationType)
    assert set(LOCATION_TYPES_SHORT) == set(LOCATION_TYPES)
    assert DEFAULT_LOCATION_TYPE.value == "business-dock"
    assert location_label("business-no-dock") == "Business, no dock"
    assert LocationType.PLACE_OF_WORSHIP.label == "Place of worship"


@pytest.mark.parametrize(
    ("spelling", "kind"),
    [
        ("business-dock", LocationType.BUSINESS_DOCK),
        ("business dock", LocationType.BUSINESS_DOCK),
        ("Business Dock", LocationType.BUSINESS_DOCK),
        ("BUSINESS_NO_DOCK", LocationType.BUSINESS_NO_DOCK),
        ("Business with dock", LocationType.BUSINESS_DOCK),
        ("distribution-center", LocationType.BUSINESS_DOCK),
        ("place of worship", LocationType.PLACE_OF_WORSHIP),
        ("  limited-access ", LocationType.LIMITED_ACCESS),
        (LocationType.PIER, LocationType.PIER),
    ],
)
def test_every_known_spelling_reads_as_its_type(spelling: str, kind: LocationType) -> None:
    assert parse_location_type(spelling) is kind


def test_an_unknown_location_type_names_the_thirteen() -> None:
    with pytest.raises(ValueError, match="business dock, business no dock, residential"):
        parse_location_type("moon base")


def test_package_labels_read_in_any_case_and_plural() -> None:
    assert parse_package("Pallets") == "pallet"
    assert parse_package("BOXES") == "box"
    assert parse_package("loose") == "loose"
    assert parse_package("Pallets_48x40") == "Pallets_48x40"  # kept as typed
    assert plural("box") == "boxes"


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
