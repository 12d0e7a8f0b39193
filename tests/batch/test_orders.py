"""Rows into orders: grouping, first-row fill, every value read as a person reads it, and every
bad row reported with its row, column, value and reason, its order set aside whole."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.batch.conftest import MONDAY, WMS_EXPORT, demo_context, write
from tui.batch.fields import ColumnMapping, guess_mapping, with_overrides
from tui.batch.model import Order
from tui.batch.orders import Context, context_for, read_orders
from tui.batch.source import parse_text, read_file
from tui.demo_profile import demo_profile


def orders_of(text: str, context: Context, **overrides: Any) -> list[Order]:
    sheet = parse_text(text)
    mapping = guess_mapping(sheet.headers)
    if overrides:
        mapping = with_overrides(mapping, sheet.headers, **overrides)
    return read_orders(sheet, mapping, context)


def items(order: Order) -> list[dict[str, Any]]:
    assert order.request is not None
    return [item.model_dump(exclude_none=True) for item in order.request.items]


def messages(orders: list[Order]) -> list[str]:
    return [error.message for order in orders for error in order.errors]


def test_the_warehouse_exports_seven_bad_rows_say_why_and_the_rest_are_orders() -> None:
    sheet = read_file(WMS_EXPORT)
    context = context_for(demo_profile(), MONDAY)
    orders = read_orders(sheet, guess_mapping(sheet.headers), context)
    assert len(orders) == 120
    assert messages(orders) == [
        "row 24, Zip: is blank on the order's first row (row 25 has 50650)",
        "row 51, Weight Lbs: -40 must be more than 0",
        "row 98, Hazard Class: is blank: hazardous freight (UN1993) needs its hazard class",
        "row 122, Zip: 6060 is not a 5-digit ZIP (and 06060 is in CT, not AR)",
        "row 154, Weight Lbs: twelve hundred is not a number",
        "row 158, Height: is blank: every line needs its length, width and height "
        "(or a size like 48x40x48 in the notes)",
        "row 195, Class: 73 is not a freight class (50, 55 … 92.5, 100 … 500)",
    ]
    invalid = [order.key for order in orders if not order.valid]
    assert invalid == [
        "SO-104212", "SO-104229", "SO-104257", "SO-104271", "SO-104294", "SO-104296",
        "SO-104318",
    ]  # fmt: skip
    assert sum(order.valid for order in orders) == 113
    atlanta = [
        o for o in orders if o.valid and o.request and o.request.origin_postal_code == "30336"
    ]
    assert atlanta
    assert all(o.request and o.request.origin_city == "Atlanta" for o in atlanta)
    first = orders[1]  # SO-104201: three lines, two of them hazardous
    assert first.rows == (3, 4, 5)
    assert first.request is not None
    assert first.request.emergency_name == "Acme Safety Desk"
    assert first.request.dest_reference_number == "PO397890"
    assert first.request.origin_reference_number == "SO-104201"
    assert first.request.charges == ["liftgate delivery", "arrival schedule"]
    assert first.pickup_date == date(2026, 11, 30)
    assert [i["weight"] for i in items(first)] == [450, 560, 365]  # line totals / units
    assert first.weight_lb == Decimal(4600)
    assert first.flags.short() == "HZ LG AP"


def test_a_european_export_reads_in_kilograms_and_centimetres(tmp_path: Path) -> None:
    text = (
        "Auftragsnummer;Versanddatum;PLZ;Ort;Bundesland;Menge;Verpackung;Gewicht (kg);"
        "Länge (cm);Breite (cm);Höhe (cm);Klasse;Bemerkung\n"
        "A-1;30.11.2026;30303;Atlanta;GA;2;Palette;1.250,5;120;100;120,5;92,5;Rampe, bitte\n"
        "A-1;;;;;1;Kiste;80;60;40;40;;\n"
    )
    sheet = read_file(write(tmp_path / "export.csv", text, encoding="cp1252", newline="\r\n"))
    assert (sheet.encoding, sheet.delimiter, sheet.decimal_comma) == ("cp1252", ";", True)
    mapping = guess_mapping(sheet.headers)
    mapping = with_overrides(mapping, sheet.headers, constants={"package": "pallet"})
    [order] = read_orders(sheet, mapping, demo_context())
    assert order.errors == ()
    assert order.pickup_date == date(2026, 11, 30)
    first, second = items(order)
    # 1,250.5 kg for the line of 2: 1,378.44 lb per pallet; 120 x 100 x 120.5 cm in inches
    assert first["weight"] == Decimal("1378.44")
    assert (first["length"], first["width"], first["height"]) == (
        Decimal("47.24"),
        Decimal("39.37"),
        Decimal("47.44"),
    )
    assert first["freight_class"] == Decimal("92.5")
    assert second["weight"] == Decimal("176.37")
    assert order.request is not None
    assert order.request.dest_instructions == "Rampe, bitte"


def test_a_storefront_export_fills_order_fields_and_finds_sizes_in_notes() -> None:
    text = (
        "Name,Created at,Shipping Company,Shipping Address1,Shipping City,Shipping Zip,"
        "Shipping Province,Lineitem quantity,Lineitem name,Weight (kg),Notes\n"
        "#1001,2026-11-24,Peach Retail,88 Peachtree St NE,Atlanta,30303,GA,2,Desk lamp,40,"
        "dims: 40x30x36 in\n"
        ",,,,,,,1,Floor lamp,25,box 120 x 40 x 30 cm\n"
        "#1002,2026-11-24,Lone Star DC,2400 Irving Blvd,Dallas,75207,TX,1,Shelf,30,48x40x48\n"
    )
    orders = orders_of(text, demo_context(), constants={"package": "box"})
    assert [o.key for o in orders] == ["#1001", "#1002"]
    assert all(o.valid for o in orders), messages(orders)
    lamp, floor = items(orders[0])
    assert (lamp["length"], lamp["width"], lamp["height"]) == (40, 30, 36)
    assert lamp["weight"] == Decimal("44.09")  # 40 kg for 2: 20 kg each
    assert (floor["length"], floor["width"], floor["height"]) == (
        Decimal("47.24"),
        Decimal("15.75"),
        Decimal("11.81"),
    )
    assert orders[0].rows == (2, 3)
    assert orders[0].request is not None
    assert orders[0].request.dest_company == "Peach Retail"
    assert orders[0].pickup_date == date(2026, 11, 24)


def test_spreadsheet_marks_are_read_as_a_person_would() -> None:
    text = (
        "Order,Zip,State,Weight,Length,Width,Height,Unit Type,Class\n"
        "A1,'07030,NJ,\"1,250\",48,40,48,Pallet,'70\n"
        "A2,6060,CT,800,48,40,48,Pallet,\n"
        "A3,6060,AR,800,48,40,48,Pallet,\n"
        "A4,2108,,800,48,40,48,Pallet,\n"
    )
    orders = orders_of(text, demo_context())
    assert [o.request.dest_postal_code if o.request else None for o in orders] == [
        "07030",
        "06060",
        None,
        None,
    ]
    assert items(orders[0])[0]["weight"] == 1250
    assert items(orders[0])[0]["freight_class"] == 70
    assert orders[1].notes == ("ZIP 6060 read as 06060 (CT)",)
    assert messages(orders) == [
        "row 4, Zip: 6060 is not a 5-digit ZIP (and 06060 is in CT, not AR)",
        "row 5, Zip: 2108 is not a 5-digit ZIP; 02108? (no state to check it against)",
    ]


@pytest.mark.parametrize("yes", ["Y", "yes", "x", "1", "true", "TRUE", "Ja", "oui"])
def test_flags_read_yes_in_its_usual_spellings(yes: str) -> None:
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type,Liftgate,Appointment,Inside Delivery\n"
        f"A1,30303,800,48,40,48,Pallet,{yes},N,\n"
    )
    [order] = orders_of(text, demo_context())
    assert order.flags.liftgate
    assert not order.flags.appointment
    assert not order.flags.inside
    assert order.request is not None
    assert order.request.charges == ["liftgate delivery"]


def test_a_flag_that_is_neither_yes_nor_no_is_a_row_error() -> None:
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type,Liftgate\n"
        "A1,30303,800,48,40,48,Pallet,maybe\n"
    )
    assert messages(orders_of(text, demo_context())) == [
        "row 2, Liftgate: maybe is not yes or no (Y, yes, x, 1, true / N, no, 0, blank)"
    ]


FRIDAY_AFTER = (
    "pickup 2026-11-27 is the day after Thanksgiving: many carriers close, the pickup may move"
)


@pytest.mark.parametrize(
    ("written", "pickup", "note"),
    [
        ("11/25/2026", date(2026, 11, 25), None),
        ("2026-11-20", date(2026, 11, 24),
         "ship date 2026-11-20 has passed: moved to 2026-11-24"),
        ("11/28/2026", date(2026, 11, 30),
         "ship date 2026-11-28 is a weekend: moved to 2026-11-30"),
        ("11/26/2026", date(2026, 11, 27),
         "ship date 2026-11-26 is Thanksgiving Day: moved to 2026-11-27 | " + FRIDAY_AFTER),
        ("", date(2026, 11, 24), None),
        ('"Nov 27, 2026"', date(2026, 11, 27), FRIDAY_AFTER),
    ],
)  # fmt: skip
def test_ship_dates_move_to_the_next_business_day_and_say_so(
    written: str, pickup: date, note: str | None
) -> None:
    text = (
        "Order,Ship Date,Zip,Weight,Length,Width,Height,Unit Type\n"
        f"A1,{written},30303,800,48,40,48,Pallet\n"
    )
    [order] = orders_of(text, demo_context(today=MONDAY))
    assert order.pickup_date == pickup
    assert order.notes == (tuple(note.split(" | ")) if note else ())
    assert order.request is not None
    assert order.request.pickup_date == pickup


def test_day_first_dates_are_told_by_the_file() -> None:
    text = (
        "Order,Ship Date,Zip,Weight,Length,Width,Height,Unit Type\n"
        "A1,03/12/2026,30303,800,48,40,48,Pallet\n"
        "A2,25/11/2026,30303,800,48,40,48,Pallet\n"
    )
    first, second = orders_of(text, demo_context(today=MONDAY))
    assert first.pickup_date == date(2026, 12, 3)
    assert second.pickup_date == date(2026, 11, 25)


def test_a_bad_line_sets_its_whole_order_aside_and_the_others_go_on() -> None:
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type,Class\n"
        "A1,30303,800,48,40,48,Pallet,70\n"
        "A1,30303,300,48,40,48,Pallet,73\n"
        "A2,75207,500,48,40,48,Crate,\n"
        "A1,30303,200,40,30,30,Box,\n"
    )
    orders = orders_of(text, demo_context())
    assert [(o.key, o.rows, o.valid) for o in orders] == [
        ("A1", (2, 3, 5), False),
        ("A2", (4,), True),
    ]
    assert orders[0].request is None
    assert messages(orders) == [
        "row 3, Class: 73 is not a freight class (50, 55 … 92.5, 100 … 500)"
    ]


def test_order_fields_that_disagree_between_rows_are_errors_of_the_later_row() -> None:
    text = (
        "Order,Zip,City,Weight,Length,Width,Height,Unit Type\n"
        "A1,30303,Atlanta,800,48,40,48,Pallet\n"
        "A1,,,300,48,40,48,Pallet\n"
        "A1,75207,,200,48,40,48,Pallet\n"
    )
    [order] = orders_of(text, demo_context())
    assert [e.message for e in order.errors] == [
        "row 4, Zip: 75207 differs from the order's first row (row 2: 30303)"
    ]


def test_weights_per_unit_when_the_mapping_says_so() -> None:
    text = "Order,Zip,Qty,Weight,Length,Width,Height,Unit Type\nA1,30303,3,400,48,40,48,Pallet\n"
    [per_line] = orders_of(text, demo_context())
    [per_unit] = orders_of(text, demo_context(), weight_per="unit")
    assert items(per_line)[0]["weight"] == Decimal("133.33")
    assert items(per_unit)[0]["weight"] == 400
    assert per_unit.weight_lb == 1200


def test_origins_come_from_the_address_book() -> None:
    text = (
        "Order,Ship From,Zip,Weight,Length,Width,Height,Unit Type\n"
        "A1,30336,60607,800,48,40,48,Pallet\n"
        "A2,Acme Atlanta,60607,800,48,40,48,Pallet\n"
        "A3,,30303,800,48,40,48,Pallet\n"
        "A4,10001,30303,800,48,40,48,Pallet\n"
    )
    orders = orders_of(text, demo_context())
    origins = [o.request.origin_postal_code if o.request else None for o in orders]
    assert origins == ["30336", "30336", "60607", None]
    assert orders[0].request is not None
    assert orders[0].request.origin_address == "4500 Fulton Industrial Blvd SW"
    assert messages(orders) == [
        "row 5, Ship From: 10001 is not in the address book of profile demo: add the "
        "warehouse there (or --set origin_zip=ZIP)"
    ]


def test_hazardous_freight_needs_the_profiles_emergency_contact() -> None:
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type,Hazmat UN,Hazard Class,Packing Group,"
        "Description\n"
        'A1,30303,800,48,40,48,Drum,1263,3,2,"Paint, flammable"\n'
    )
    [with_contact] = orders_of(text, demo_context())
    assert items(with_contact)[0]["hazard"] == {
        "hazmat_id": "UN1263",
        "hazard_class": "3",
        "packing_group": "II",
    }
    [without] = orders_of(text, demo_context(emergency_name="", emergency_phone=""))
    assert [e.message for e in without.errors] == [
        "row 2, Hazmat UN: hazardous freight needs a 24-hour emergency contact: set "
        "emergency_name and emergency_phone in profile demo"
    ]


def test_blank_package_quantity_and_missing_columns() -> None:
    text = "Order,Zip,Weight,Dims\nA1,30303,800,48x40x48\nA2,30303,800,\nA3,30303,800,big\n"
    orders = orders_of(text, demo_context())
    assert messages(orders)[0] == (
        "row 2, Package: is blank: every line needs its handling unit (pallet, crate, box…), "
        "in a column or in the item's name; --set package=pallet if they all are"
    )
    fixed = orders_of(text, demo_context(), constants={"package": "pallet"})
    assert fixed[0].valid
    assert items(fixed[0])[0]["quantity"] == 1
    assert messages(fixed) == [
        "row 3, Dims: is blank: every line needs its length, width and height "
        "(or a size like 48x40x48 in the notes)",
        "row 4, Dims: big is not a size like 48x40x48 or 120x100x120 cm",
    ]


def test_without_an_order_column_each_row_is_an_order() -> None:
    text = (
        "Zip,Weight,Length,Width,Height,Unit Type\n"
        "30303,800,48,40,48,Pallet\n75207,400,48,40,48,Pallet\n"
    )
    orders = orders_of(text, demo_context())
    assert [o.key for o in orders] == ["row 2", "row 3"]


def test_the_class_is_implied_by_density_when_blank() -> None:
    text = "Order,Zip,Weight,Length,Width,Height,Unit Type\nA1,30303,800,48,40,48,Pallet\n"
    [order] = orders_of(text, demo_context())
    assert items(order)[0]["freight_class"] == 70  # 800 lb in 53.3 ft³: 15 pcf
    mapping = ColumnMapping()
    assert mapping.weight_per == "line"


def test_a_un_number_without_a_proper_shipping_name_is_refused() -> None:
    """It was booked, and the BOL read "Drum freight"."""
    text = (
        "Order,Zip,Weight,Length,Width,Height,Unit Type,Hazmat UN,Hazard Class,Packing Group\n"
        "A1,30303,800,48,40,48,Drum,1263,3,2\n"
    )
    [order] = orders_of(text, demo_context())
    assert order.request is None
    assert [e.message for e in order.errors] == [
        "row 2, Description: UN1263 needs its proper shipping name as the description "
        "(e.g. Paint, flammable); the BOL must name hazardous freight"
    ]
