"""Exports of other systems read with no options (issue 37, item 1): an ERP saved search with
one-cell addresses and document numbers, a storefront's one row per order with its items in
one cell and weights in grams, a workbook with Excel date serials, a UOM column and a Total
footer; and weights in g, oz, kg, lb and t per line."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from tests.batch.conftest import demo_context
from tui.batch.addresses import parse_block
from tui.batch.fields import guess_mapping, looks_like_header
from tui.batch.model import Order
from tui.batch.orders import read_orders
from tui.batch.shipdates import parse_ship_date
from tui.batch.source import parse_text, read_file
from tui.batch.words import packed_items

DATA = Path(__file__).parent / "data"
NETSUITE = DATA / "netsuite-sales-orders.csv"
"""A NetSuite-like transaction saved search of sales orders (its columns as NetSuite names
them: Internal ID, Date, Type, Document Number, Name, Ship Date, Shipping Address, Item,
Quantity, Units, Item Weight, Dimensions, Memo), a row per item, the address one cell."""
WOOCOMMERCE = DATA / "woocommerce-orders.csv"
"""A WooCommerce-like order export: a row per order, its items in one ``Items`` cell, the
customer's note, the weight in grams (the storefront's unit)."""
WORKBOOK = DATA / "erp-workbook.xlsx"
"""A workbook whose ship dates are Excel serials in General cells, with a UOM column, a
Weight UOM column (LB and KG) and a Total row under the orders."""


def read(path: Path) -> list[Order]:
    sheet = read_file(path, is_header=looks_like_header)
    return read_orders(sheet, guess_mapping(sheet.headers), demo_context())


def test_an_erp_saved_search_reads_document_numbers_and_one_cell_addresses() -> None:
    orders = read(NETSUITE)
    assert [o.key for o in orders] == [f"SO{30150 + n}" for n in range(12)]  # not 3 names
    assert all(o.valid for o in orders), [e.message for o in orders for e in o.errors]
    us, canada = orders[1].request, orders[2].request
    assert us is not None
    assert canada is not None
    assert (us.dest_company, us.dest_contact_name, us.dest_address) == (
        "Redwood Cabinets",
        "Ines Tanaka",
        "5970 Main St, Suite 200",
    )
    assert (us.dest_city, us.dest_state, us.dest_postal_code, us.dest_country) == (
        "Corpus Christi",
        "TX",
        "78410",
        "US",
    )
    assert (canada.dest_city, canada.dest_state, canada.dest_postal_code) == (
        "Montréal",
        "QC",
        "H3B 2Y5",
    )
    assert canada.dest_country == "CA"
    assert [(i.quantity, i.package) for i in us.items] == [(2, "pallet"), (3, "crate")]


def test_one_cell_addresses_us_and_canadian() -> None:
    block = parse_block("Acme\nAttn: Jo Lee\n1 Main St\nNew York NY 10001\nUSA")
    assert (block.company, block.contact, block.city, block.state, block.zip) == (
        "Acme",
        "Jo Lee",
        "New York",
        "NY",
        "10001",
    )
    block = parse_block("Nord Ltd\n9 King St W\nToronto, Ontario\nM5H 1J9\nCanada")
    assert (block.city, block.state, block.zip, block.country) == (
        "Toronto",
        "ON",
        "M5H 1J9",
        "CA",
    )
    with pytest.raises(ValueError, match="City ST 12345"):
        parse_block("Acme\n1 Main St")


def test_an_address_cell_that_cannot_be_read_sets_its_order_aside() -> None:
    sheet = parse_text(
        "Order,Ship To,Qty,Unit Type,Weight,Dims\n"
        'A1,"Acme\n1 Main St\nsomewhere",1,Pallet,400,48x40x40\n'
    )
    orders = read_orders(sheet, guess_mapping(sheet.headers), demo_context())
    assert [e.column for e in orders[0].errors][:1] == ["Ship To"]
    assert "City ST 12345" in orders[0].errors[0].reason


def test_a_storefront_row_per_order_reads_its_packed_items_in_grams() -> None:
    orders = read(WOOCOMMERCE)
    assert len(orders) == 10
    assert all(o.valid for o in orders), [e.message for o in orders for e in o.errors]
    assert [o.pieces for o in orders[:3]] == [1, 3, 3]  # counts read, not 1 each
    two = orders[1].request
    assert two is not None
    assert [(i.quantity, i.package, i.length) for i in two.items] == [
        (1, "pallet", Decimal(48)),
        (2, "crate", Decimal(40)),
    ]
    assert orders[1].weight_lb == Decimal("793.67")  # 360,000 g
    first = orders[0].request
    assert first is not None
    assert first.dest_company is None  # the customer's note is not the company
    assert first.dest_instructions == "Please call before delivery"


def test_packed_items_with_their_counts() -> None:
    assert packed_items("Pallet x1; Crate x2") == [(1, "Pallet"), (2, "Crate")]
    assert packed_items("Pallet × 1 | 2 x Crate\nDrum (3)") == [
        (1, "Pallet"),
        (2, "Crate"),
        (3, "Drum"),
    ]


def test_a_workbook_with_date_serials_a_uom_column_and_a_total_row() -> None:
    sheet = read_file(WORKBOOK, is_header=looks_like_header)
    assert sheet.set_aside == (
        "row 10 set aside: 'Total' starts a total or summary row, not an order",
    )
    mapping = guess_mapping(sheet.headers)
    assert (mapping.columns["package"], mapping.columns["weight_unit"]) == ("UOM", "Weight UOM")
    orders = read_orders(sheet, mapping, demo_context())
    assert [o.key for o in orders] == [f"PO-{7700 + n}" for n in range(8)]  # no "Total"
    assert all(o.valid for o in orders), [e.message for o in orders for e in o.errors]
    assert orders[0].pickup_date == date(2026, 12, 11)  # serial 46367
    assert [o.request.items[0].package for o in orders[:3] if o.request] == [
        "pallet",
        "carton",
        "drum",
    ]


def test_excel_serials_in_a_csv_date_column() -> None:
    assert parse_ship_date("46367") == date(2026, 12, 11)
    assert parse_ship_date("46367.0") == date(2026, 12, 11)
    with pytest.raises(ValueError, match="is not a date"):
        parse_ship_date("123")


def test_a_csv_footer_row_is_set_aside_with_a_note() -> None:
    sheet = parse_text(
        "Order,Zip,Qty,Unit Type,Weight,Dims\nA1,30303,1,Pallet,400,48x40x40\n"
        "Grand Total:,,1,,400,\n"
    )
    assert len(sheet.rows) == 1
    assert sheet.set_aside == (
        "row 3 set aside: 'Grand Total:' starts a total or summary row, not an order",
    )


@pytest.mark.parametrize(
    ("weight", "pounds"),
    [
        ("181437 g", Decimal("400")),
        ("6400 oz", Decimal("400")),
        ("181.44 kg", Decimal("400")),
        ("400 lb", Decimal("400")),
        ("0.18144 t", Decimal("400")),
    ],
)
def test_weights_in_g_oz_kg_lb_and_t(weight: str, pounds: Decimal) -> None:
    sheet = parse_text(
        f"Order,Zip,Qty,Unit Type,Weight,Dims\nA1,30303,1,Pallet,{weight},48x40x40\n"
    )
    orders = read_orders(sheet, guess_mapping(sheet.headers), demo_context())
    assert orders[0].valid, orders[0].errors
    assert abs(orders[0].weight_lb - pounds) < 1


def test_a_weight_unit_column_in_grams() -> None:
    sheet = parse_text(
        "Order,Zip,Qty,Unit Type,Weight,Weight Unit,Dims\nA1,30303,2,Box,500,g,12x12x12\n"
        "A2,30303,1,Pallet,16000,ounces,48x40x40\n"
    )
    orders = read_orders(sheet, guess_mapping(sheet.headers), demo_context())
    assert [o.weight_lb for o in orders] == [Decimal("1.1"), Decimal(1000)]


def _weights(rows: str) -> list[Order]:
    sheet = parse_text("Order,Zip,Qty,Unit Type,Weight,Weight Unit,Dims\n" + rows)
    return read_orders(sheet, guess_mapping(sheet.headers), demo_context())


def test_weights_no_freight_has_are_set_aside_per_unit_and_per_order_by_mode() -> None:
    crate, envelope, pallet, truck, box = _weights(
        "C1,30303,1,Crate,435000,lb,48x40x48\n"
        "E1,30303,1,Envelope,0.03,lb,12x9x1\n"
        "P1,30303,1,Pallet,0.4,kg,48x40x48\n"
        "T1,30303,9,Pallet,90000,lb,48x40x48\n"
        "B1,30303,2,Box,1500,lb,24x24x24\n"
    )
    assert [e.reason for e in crate.errors] == [
        "makes one crate weigh 435,000 lb, more than any LTL unit (10,000 lb): looks like "
        "grams read as pounds?"
    ]
    assert [e.reason for e in envelope.errors] == [
        "makes one envelope weigh 0.03 lb, less than any parcel unit (0.05 lb): looks like "
        "kilograms/tonnes read as pounds?"
    ]
    assert [e.reason for e in pallet.errors] == [
        "makes one pallet weigh 0.88 lb, less than any LTL unit (5 lb): looks like tonnes "
        "read as kilograms?"
    ]
    assert [e.reason for e in truck.errors] == [
        "makes the order weigh 90,000 lb, more than an LTL shipment carries (45,000 lb): "
        "looks like grams/ounces read as pounds?"
    ]
    assert box.valid, box.errors  # a heavy box is plausible


def test_a_company_named_total_is_an_order_and_a_total_row_is_not() -> None:
    sheet = parse_text(
        "Consignee,Order,Zip,Qty,Unit Type,Weight,Dims\n"
        "Total Tools Inc,A1,30303,1,Pallet,400,48x40x40\n"
        "Total orders: 1,,,1,,400,\n"
    )
    assert [row.number for row in sheet.rows] == [2]
    assert len(sheet.set_aside) == 1


def test_a_ship_to_name_beside_an_address_column_is_the_company() -> None:
    mapping = guess_mapping(["Order", "Ship To", "Address", "City", "State", "Zip", "Weight"])
    assert (mapping.columns["dest_address"], mapping.columns["dest_company"]) == (
        "Address",
        "Ship To",
    )
    assert guess_mapping(["Order", "Ship To", "Weight"]).columns["dest_address"] == "Ship To"
