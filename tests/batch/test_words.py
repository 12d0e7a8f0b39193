"""Storefront words: the handling unit in an item's name, accessorials in tags, and a
description that looks hazardous, read from real order files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.conftest import demo_context, write
from tui.batch.fields import guess_mapping
from tui.batch.orders import read_orders
from tui.batch.source import read_file
from tui.batch.words import hazard_word, package_in, tag_accessorials

HEADER = "Name,Lineitem quantity,Lineitem name,Lineitem weight,Shipping Zip,Shipping Province,"
HEADER += "Tags,Notes\n"


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("Pump housing (crate)", "crate"),
        ("Garden hose (roll)", "roll"),
        ("Steel drum 55 gal", "drum"),
        ("Tiles, 2 pallets", "pallet"),
        ("Box fan (Skid)", "skid"),
        ("Toolbox organiser", None),
        ("Garden hose roll", None),  # roll only in parentheses: it is a product word too
        ("Kiste Schrauben (Kiste)", "crate"),
    ],
)
def test_the_unit_in_an_items_name(name: str, unit: str | None) -> None:
    assert package_in(name) == unit


def test_tags_name_accessorials_and_leave_the_others() -> None:
    assert tag_accessorials("VIP, Residential, lift-gate ; Call before delivery") == [
        "residential",
        "liftgate",
        "appointment",
    ]
    assert tag_accessorials("wholesale, net30") == []
    assert hazard_word("Lithium batteries, 20 cartons") == "lithium, batteries"
    assert hazard_word("Oak dining table") is None


def test_a_storefront_order_reads_per_unit_with_its_tags(tmp_path: Path) -> None:
    path = write(
        tmp_path / "shop.csv",
        HEADER
        + '#1,2,Pump housing (crate),150,30303,GA,"inside delivery, residential",40x30x36\n'
        + "#1,1,Corrosive cleaner (pail),40,,,,12x12x14\n",
    )
    sheet = read_file(path)
    said = demo_context(not_hazardous=frozenset({"#1"}))  # the cleaner looks hazardous
    orders = read_orders(sheet, guess_mapping(sheet.headers), said)
    order = orders[0]
    assert order.valid, order.errors
    assert order.weight_lb == 340  # 2 x 150 + 40
    assert (order.flags.inside, order.flags.residential, order.flags.liftgate) == (
        True,
        True,
        False,
    )
    assert order.request is not None
    assert [item.package for item in order.request.items] == ["crate", "pail"]
    assert any(
        note.startswith("row 3: 'Corrosive cleaner (pail)' looks hazardous") for note in order.notes
    )
