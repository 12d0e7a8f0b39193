"""``freight batch`` on order files as they come (issue 28, item 3): storefront exports,
workbooks whatever their name, sheet and title rows, a zip bomb, repeated rows, a header
alone, mapping changes, and rules that name what does not exist. Every file is written by the
test and read by the real CLI; rating goes to the live sandbox."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from tests.commands.conftest import Runner
from tests.commands.test_batch import ORDERS, configured, orders_file  # noqa: F401

STOREFRONT = (
    "Name,Email,Lineitem quantity,Lineitem name,Lineitem price,Lineitem weight,Shipping Name,"
    "Shipping Address1,Shipping City,Shipping Zip,Shipping Province,Shipping Country,Tags,Notes,"
    "Location,Payment Reference\n"
    "#1001,jo@example.com,3,Pump housing (crate),120.00,150,Jo Park,12 Peach St,Atlanta,30303,"
    'GA,US,"residential, liftgate, vip",40x30x36,Main shop,c20931.1\n'
    '#1002,al@example.com,1,"Paint, flammable (drum)",80.00,400,Al Diaz,5 Elm St,Dallas,75207,'
    "TX,US,,24x24x36,Main shop,c20932.1\n"
)
"""A storefront's order export (its Location is the shop's own and Payment Reference is not a
PO: neither is mapped)."""


def _records(text: str) -> dict[str, dict[str, Any]]:
    return {record["order"]: record for record in json.loads(text)}


def test_a_storefront_export_is_read_per_unit_with_units_tags_and_hazard_hints(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(tmp_path, STOREFRONT, "shop-export.csv")
    result = freight(
        "batch",
        "rate",
        str(path),
        "--json",
        "order,status,pieces,totalWeight,total,notes",
        "--not-hazardous",
        "#1002",
    )
    assert result.status == 0, result.out + result.err
    records = _records(result.out)
    pump, paint = records["#1001"], records["#1002"]
    assert pump["status"] == "rated"
    assert pump["pieces"] == 3
    assert pump["totalWeight"] == 450  # 150 lb each, not 150 for the line
    assert "crate read from the item's name 'Pump housing (crate)'" in pump["notes"]
    assert "from the tags: residential, liftgate" in pump["notes"]
    hints = [note for note in paint["notes"] if "looks hazardous" in note]
    assert hints == [
        "row 3: 'Paint, flammable (drum)' looks hazardous (paint, flammable); booked as not "
        "hazardous, as you said"
    ]
    assert not any("looks hazardous" in note for note in pump["notes"])

    untagged = orders_file(
        tmp_path, STOREFRONT.replace('"residential, liftgate, vip"', ""), "b.csv"
    )
    plain = _records(
        freight(
            "batch", "rate", str(untagged), "--json", "order,total", "--not-hazardous", "#1002"
        ).out
    )
    assert float(plain["#1001"]["total"]) < float(pump["total"])  # the tags' accessorials cost


def test_map_changes_only_the_field_asked_and_columns_shows_the_mapping(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(tmp_path, STOREFRONT.replace("(crate)", "crate"), "shop.csv")
    rated = freight(
        "batch",
        "rate",
        str(path),
        "--map",
        "package=Lineitem name",
        "--save-mapping",
        "--not-hazardous",
        "#1002",
    )
    assert rated.status == 0, rated.out + rated.err
    shown = freight("batch", "columns", str(path), "--json")
    assert shown.status == 0, shown.err
    mapping = json.loads(shown.out)
    mapping["columns"] = {c["field"]: c["column"] for c in mapping["columns"]}
    assert mapping["columns"]["package"] == "Lineitem name"
    assert mapping["columns"]["description"] == "Lineitem name"  # kept, and saved
    assert mapping["columns"]["weight"] == "Lineitem weight"
    assert mapping["weightPer"] == "unit"
    assert mapping["mapping"] == "shop"
    assert mapping["headerRow"] == 1
    assert mapping["unusedColumns"] == ["Lineitem price", "Location", "Payment Reference"]
    text = freight("batch", "columns", str(path))
    assert text.status == 0
    assert text.out.splitlines()[0] == (
        "shop.csv · header on row 1 · mapping 'shop' · weight lb per unit · sizes in"
    )
    lines = [line.split(maxsplit=1) for line in text.out.splitlines()[1:]]
    assert ["package", "Lineitem name"] in lines
    assert ["description", "Lineitem name"] in lines


def test_a_new_mapping_name_starts_a_new_mapping(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(tmp_path)
    first = freight(
        "batch", "rate", str(path), "--mapping", "weekly", "--set", "class=70", "--save-mapping"
    )
    assert first.status == 0, first.out + first.err
    assert "mapping 'weekly'" in first.out
    again = json.loads(freight("batch", "columns", str(path), "--mapping", "weekly", "--json").out)
    assert again["mapping"] == "weekly"
    assert again["constants"] == [{"field": "class", "value": "70"}]
    bad = freight("batch", "columns", str(path), "--mapping", "no/slashes")
    assert bad.status == 2
    assert "mapping name 'no/slashes'" in bad.err


def test_a_workbook_is_read_by_its_content_its_sheet_found_under_its_title(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    from openpyxl import Workbook

    book = Workbook()
    summary = book.active
    assert summary is not None
    summary.title = "Summary"
    summary.append(["Total orders", 2])
    summary.append(["Total weight", 2750])
    orders = book.create_sheet("Orders")
    orders.append(["Open orders, week 48"])
    orders.append([])
    for line in ORDERS.splitlines():
        orders.append([int(c) if c.isdigit() and len(c) < 5 else c for c in line.split(",")])
    path = tmp_path / "export.csv"  # a workbook under a CSV name, as exports are saved
    book.save(path)

    shown = freight("batch", "columns", str(path), "--json")
    assert shown.status == 0, shown.err
    assert json.loads(shown.out)["headerRow"] == 3
    rated = freight("batch", "rate", str(path))
    assert rated.status == 0, rated.out + rated.err
    assert "3 rows · 2 orders" in rated.out.splitlines()[0]
    chosen = freight("batch", "columns", str(path), "--sheet", "orders", "--json")
    assert {"field": "order", "column": "Order"} in json.loads(chosen.out)["columns"]
    missing = freight("batch", "rate", str(path), "--sheet", "Totals")
    assert missing.status == 2
    assert "no sheet of that name (its sheets: Summary, Orders)" in missing.err


def test_a_zip_bomb_is_refused_before_it_is_inflated(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = tmp_path / "orders.xlsx"
    block = b" " * (1 << 20)
    with (
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part,
    ):
        for _ in range(210):
            part.write(block)
    assert path.stat().st_size < 2 * 1024 * 1024
    result = freight("batch", "rate", str(path))
    assert result.status == 2
    assert "would inflate to 210 MB" in result.err
    assert "up to 200 MB unpacked" in result.err


def test_a_workbook_whose_parts_lie_about_their_size_is_refused(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    import io
    import struct

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for line in ORDERS.splitlines():
        sheet.append(line.split(","))
    packed = io.BytesIO()
    book.save(packed)
    data = bytearray(packed.getvalue())
    name = b"xl/worksheets/sheet1.xml"
    at = data.find(b"PK\x01\x02")
    while at != -1:  # the sheet says it unpacks to 100 bytes, in both of its headers
        length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46 : at + 46 + length] == name:
            struct.pack_into("<I", data, at + 24, 100)
            struct.pack_into("<I", data, struct.unpack_from("<I", data, at + 42)[0] + 22, 100)
        at = data.find(b"PK\x01\x02", at + 4)
    path = tmp_path / "orders.csv"
    path.write_bytes(bytes(data))
    result = freight("batch", "rate", str(path))
    assert result.status == 2, result.err
    assert "is not an Excel workbook Freight can read" in result.err


def test_a_repeated_row_is_reported_and_a_header_alone_exits_1(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    twice = ORDERS + ORDERS.splitlines()[-1] + "\n"
    result = freight("batch", "rate", str(orders_file(tmp_path, twice)), "--format", "json")
    assert result.status == 1
    records = _records(result.out)
    assert records["A1"]["status"] == "rated"
    assert records["A2"]["status"] == "invalid"
    assert [e["reason"] for e in records["A2"]["errors"]] == [
        "repeats row 4 cell for cell (exported twice?): delete one, or write one row with the "
        "quantity of both"
    ]
    assert records["A2"]["errors"][0]["row"] == 5
    header = freight("batch", "rate", str(orders_file(tmp_path, ORDERS.splitlines()[0], "h.csv")))
    assert header.status == 1
    assert "no order rows: nothing to do" in header.err


def test_rules_naming_unknown_carriers_or_amounts_are_refused(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(tmp_path)
    amount = freight("batch", "rate", str(path), "--max-total", "12abc")
    assert amount.status == 2
    assert "'abc' is not a currency the service quotes in (USD, CAD)" in amount.err
    for flag in ("--exclude", "--prefer"):
        unknown = freight("batch", "rate", str(path), flag, "NOSUCH")
        assert unknown.status == 2, unknown.out
        assert f"{flag} 'NOSUCH': no carrier of this batch's offers is named that" in unknown.err
    kept = freight("batch", "rate", str(path), "--max-total", "1500 usd", "--exclude", "HGFL")
    assert kept.status == 0, kept.err
    assert "rule cheapest, exclude HGFL, max 1,500.00 USD" in kept.out


def test_paperwork_names_are_unique_per_order_and_in_the_results_file(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    import csv

    text = (
        "Order,Consignee,City,State,Zip,Handling Units,Unit Type,Weight,Length,Width,Height\n"
        "SO/1,Peach Retail,Atlanta,GA,30303,1,Pallet,600,48,40,48\n"
        "SO-1,Lone Star DC,Dallas,TX,75207,1,Pallet,700,48,40,48\n"
        "SO 1,Harbor Goods,Boston,MA,02108,1,Pallet,800,48,40,48\n"
    )
    path = orders_file(tmp_path, text)
    assert freight("batch", "rate", str(path)).status == 0
    docs = tmp_path / "docs"
    results = tmp_path / "results.csv"
    booked = freight(
        "batch", "book", str(path), "--documents", str(docs), "--out", str(results), "--json",
        "order,proNumber",
    )  # fmt: skip
    assert booked.status == 0, booked.err
    pros = {r["order"]: r["proNumber"] for r in json.loads(booked.out)}
    with results.open(encoding="utf-8", newline="") as handle:
        paperwork = {row["Order"]: row["Paperwork"].split() for row in csv.DictReader(handle)}
    stems = {"SO/1": "SO-1-c30430-", "SO-1": "SO-1-", "SO 1": "SO-1-8f21e0-"}
    folder = docs / "batch-orders"
    for order, stem in stems.items():
        names = sorted(paperwork[order])
        assert names == [f"{stem}bol.pdf", f"{stem}label.pdf", f"{stem}label.zpl"]
        label = (folder / f"{stem}label.zpl").read_text(encoding="ascii")
        assert pros[order] in label  # its own PRO, never another order's
        assert not any(pro in label for key, pro in pros.items() if key != order)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        n for names in paperwork.values() for n in names
    )
