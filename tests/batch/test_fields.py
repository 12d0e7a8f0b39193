"""Mapping a file's columns onto the fields: guessed from the headers (units included),
changed by --map / --set / --weight-per, saved per profile by name and found again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.conftest import WMS_EXPORT
from tui.batch.fields import (
    FIELD_NAMES,
    MappingError,
    guess_mapping,
    parse_assignments,
    with_overrides,
)
from tui.batch.mappings import MappingStore
from tui.batch.source import read_file


def test_the_fields_are_the_issues_list() -> None:
    assert FIELD_NAMES == (
        "order", "ship_date", "origin_zip", "dest_company", "dest_address", "dest_city",
        "dest_state", "dest_zip", "dest_country", "dest_location", "contact", "phone", "email",
        "quantity", "package", "items", "weight", "weight_unit", "length", "width", "height",
        "dims", "dim_unit", "class", "nmfc", "description", "hazmat_un", "hazard_class",
        "packing_group", "liftgate", "appointment", "inside", "po", "notes", "tags",
    )  # fmt: skip


def test_the_warehouse_exports_headers_map_every_column() -> None:
    sheet = read_file(WMS_EXPORT)
    mapping = guess_mapping(sheet.headers)
    assert dict(mapping.columns) == {
        "order": "Order No",
        "ship_date": "Ship Date",
        "origin_zip": "Ship From Zip",
        "dest_company": "Consignee",
        "dest_address": "Address",
        "dest_city": "City",
        "dest_state": "State",
        "dest_zip": "Zip",
        "dest_location": "Location Type",
        "contact": "Contact",
        "phone": "Phone",
        "quantity": "Handling Units",
        "package": "Unit Type",
        "weight": "Weight Lbs",
        "length": "Length",
        "width": "Width",
        "height": "Height",
        "class": "Class",
        "nmfc": "NMFC",
        "description": "Description",
        "hazmat_un": "Hazmat UN",
        "hazard_class": "Hazard Class",
        "packing_group": "Packing Group",
        "liftgate": "Liftgate",
        "appointment": "Appointment",
        "inside": "Inside Delivery",
        "po": "Customer PO",
        "notes": "Notes",
    }
    assert (mapping.weight_unit, mapping.dim_unit, mapping.weight_per) == ("lb", "in", "line")


@pytest.mark.parametrize(
    ("headers", "expected", "units"),
    [
        (
            ["Commande", "Code postal", "Ville", "Poids (lb)", "Longueur", "Largeur", "Hauteur"],
            {"order": "Commande", "dest_zip": "Code postal", "dest_city": "Ville",
             "weight": "Poids (lb)", "length": "Longueur", "width": "Largeur",
             "height": "Hauteur"},
            ("lb", "in"),
        ),
        (
            ["Auftragsnummer", "PLZ", "Ort", "Gewicht (kg)", "Länge (cm)", "Breite (cm)",
             "Höhe (cm)", "Menge", "Verpackung", "Hebebühne"],
            {"order": "Auftragsnummer", "dest_zip": "PLZ", "dest_city": "Ort",
             "weight": "Gewicht (kg)", "length": "Länge (cm)", "width": "Breite (cm)",
             "height": "Höhe (cm)", "quantity": "Menge", "package": "Verpackung",
             "liftgate": "Hebebühne"},
            ("kg", "cm"),
        ),
        (
            ["Name", "Shipping Company", "Shipping Address1", "Shipping City", "Shipping Zip",
             "Shipping Province", "Lineitem quantity", "Lineitem name", "Notes", "Weight (kg)"],
            {"order": "Name", "dest_company": "Shipping Company",
             "dest_address": "Shipping Address1", "dest_city": "Shipping City",
             "dest_zip": "Shipping Zip", "dest_state": "Shipping Province",
             "quantity": "Lineitem quantity", "description": "Lineitem name",
             "notes": "Notes", "weight": "Weight (kg)"},
            ("kg", "in"),
        ),
        (
            ["SO #", "Ship To Zip", "Origin Zip", "Dims (cm)", "Unit Weight Lbs"],
            {"order": "SO #", "dest_zip": "Ship To Zip", "origin_zip": "Origin Zip",
             "dims": "Dims (cm)", "weight": "Unit Weight Lbs"},
            ("lb", "cm"),
        ),
    ],
)  # fmt: skip
def test_headers_in_other_layouts_and_languages_are_guessed(
    headers: list[str], expected: dict[str, str], units: tuple[str, str]
) -> None:
    mapping = guess_mapping(headers)
    assert dict(mapping.columns) == expected
    assert (mapping.weight_unit, mapping.dim_unit) == units


def test_a_unit_weight_header_says_weights_are_per_unit() -> None:
    assert guess_mapping(["Order", "Unit Weight"]).weight_per == "unit"
    assert guess_mapping(["Order", "Total Weight"]).weight_per == "line"
    assert guess_mapping(["Order", "Weight"]).weight_per == "line"


def test_map_set_and_weight_per_change_the_guess() -> None:
    headers = ["Order", "Heft", "Weight", "Pkg"]
    mapping = guess_mapping(headers)
    assert mapping.columns["weight"] == "Weight"
    changed = with_overrides(
        mapping,
        headers,
        columns=parse_assignments(["weight=heft", "package="], "--map"),
        constants=parse_assignments(["package=pallet", "weight_unit=kg"], "--set"),
        weight_per="unit",
    )
    assert changed.columns["weight"] == "Heft"
    assert "package" not in changed.columns
    assert changed.constants == {"package": "pallet"}
    assert (changed.weight_unit, changed.weight_per) == ("kg", "unit")


@pytest.mark.parametrize(
    ("texts", "flag", "message"),
    [
        (["weight"], "--map", "FIELD=VALUE"),
        (["heft=Weight"], "--map", "no field 'heft'"),
    ],
)
def test_wrong_assignments_say_which(texts: list[str], flag: str, message: str) -> None:
    with pytest.raises(MappingError, match=message):
        parse_assignments(texts, flag)


def test_a_column_the_file_lacks_is_refused_with_its_columns() -> None:
    with pytest.raises(MappingError, match=r"no column 'Heft'.*Order, Weight"):
        with_overrides(
            guess_mapping(["Order", "Weight"]), ["Order", "Weight"], columns={"weight": "Heft"}
        )
    with pytest.raises(MappingError, match="lb, kg, g, oz or t"):
        with_overrides(guess_mapping(["Order"]), ["Order"], constants={"weight_unit": "stone"})


def test_mappings_are_saved_per_profile_and_found_by_name_or_headers(tmp_path: Path) -> None:
    headers = ["Order", "Gross Wt", "Pkg", "Zip"]
    store = MappingStore.in_dir(tmp_path)
    mapping = with_overrides(
        guess_mapping(headers),
        headers,
        columns={"weight": "Gross Wt"},
        constants={"package": "crate"},
    )
    store.save("warehouse-3", "erp export", mapping)
    again = MappingStore.in_dir(tmp_path)
    assert again.names("warehouse-3") == ["erp export"]
    assert again.names("demo") == []
    found = again.for_headers("warehouse-3", ["order", " Gross  Wt", "PKG", "zip"])
    assert found is not None
    assert found.name == "erp export"
    assert found.columns["weight"] == "Gross Wt"
    assert found.constants == {"package": "crate"}
    assert again.for_headers("warehouse-3", [*headers, "Notes"]) is None
    assert again.for_headers("demo", headers) is None
    named = again.get("warehouse-3", "erp export")
    assert named is not None
    assert named.columns == found.columns
    with pytest.raises(ValueError, match="mapping name"):
        store.save("warehouse-3", "../../etc", mapping)


def test_an_unreadable_mappings_file_is_no_mapping(tmp_path: Path) -> None:
    (tmp_path / "batch-mappings.json").write_text("{not json", encoding="utf-8")
    store = MappingStore.in_dir(tmp_path)
    assert store.for_headers("demo", ["Order"]) is None
    store.save("demo", "fresh", guess_mapping(["Order", "Weight"]))
    assert store.names("demo") == ["fresh"]
