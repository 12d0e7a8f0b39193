"""Exports: CSV (BOM, neutralised formula cells), JSON, JSON Lines; streamed, stoppable."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tui.api.models import Shipment
from tui.export import (
    BOM,
    HEADER,
    ExportFormat,
    export_shipments,
    json_text,
    shipments_csv,
    stream_shipments,
    write_shipments_csv,
)
from tui.listing.rows import ShipmentRow


def row(i: int, total: str | None = "1234.5") -> ShipmentRow:
    return ShipmentRow.of(
        Shipment.model_validate(
            {
                "id": f"shp_{i}",
                "createdDate": "2026-11-20T15:04:00Z",
                "status": "picked-up",
                "origin": {
                    "company": 'Acme, "Dock" Co',
                    "city": "Chicago",
                    "state": "IL",
                    "postalCode": "60601",
                },
                "destination": {"city": "Atlanta", "state": "GA", "postalCode": "30303"},
                "carrier": {"name": "Lakeshore Interstate", "scac": "LKIF"},
                "cost": {"total": total, "currency": "USD"} if total else None,
                "proNumber": f"441522789{i}",
                "mode": "ltl",
                "pickupDate": "2026-11-22",
            }
        )
    )


def test_csv_has_a_header_and_one_row_per_shipment_with_exact_money() -> None:
    text = shipments_csv([row(1), row(2, "0.10"), row(3, None)])
    records = list(csv.DictReader(io.StringIO(text)))
    assert list(records[0].keys()) == list(HEADER)
    assert [r["shipmentId"] for r in records] == ["shp_1", "shp_2", "shp_3"]
    assert [r["total"] for r in records] == ["1234.50", "0.10", ""]
    first = records[0]
    assert first["originCompany"] == 'Acme, "Dock" Co'  # quoted, not split
    assert first["createdDate"] == datetime(2026, 11, 20, 15, 4, tzinfo=UTC).isoformat()
    assert first["pickupDate"] == date(2026, 11, 22).isoformat()
    assert (first["carrier"], first["scac"], first["status"]) == (
        "Lakeshore Interstate",
        "LKIF",
        "picked-up",
    )
    assert sum(Decimal(r["total"]) for r in records if r["total"]) == Decimal("1234.60")


def test_write_creates_the_folder_and_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "new" / "shipments.csv"
    assert write_shipments_csv([row(1), row(2)], target) == 2
    assert write_shipments_csv([row(3)], target) == 1
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("shp_3,")
    assert [p.name for p in target.parent.iterdir()] == ["shipments.csv"]


def listed(i: int, **changes: Any) -> Shipment:
    entry: dict[str, Any] = {
        "id": f"shp_{i}",
        "createdDate": "2026-11-20T15:04:00Z",
        "status": "delivered",
        "origin": {"company": "Québec Bois", "city": "Montréal", "state": "QC"},
        "destination": {"city": "Atlanta", "state": "GA", "postalCode": "30303"},
        "carrier": {"name": "Lakeshore Interstate", "scac": "LKIF"},
        "cost": {"total": "1234.5", "currency": "USD"},
        "proNumber": f"P{i}",
    }
    entry.update(changes)
    return Shipment.model_validate(entry)


async def pages(shipments: list[Shipment]) -> AsyncIterator[Shipment]:
    for shipment in shipments:
        await asyncio.sleep(0)
        yield shipment


def test_file_export_has_a_bom_and_excel_reads_montreal(tmp_path: Path) -> None:
    target = tmp_path / "s.csv"
    write_shipments_csv([row(1)], target)
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert write_shipments_csv([row(1)], target, bom=False) == 1
    assert target.read_bytes().startswith(b"shipmentId,")


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_cells_a_spreadsheet_would_run_are_neutralised(start: str) -> None:
    evil = f'{start}HYPERLINK("http://x")'
    shipment = listed(1, reference=evil, origin={"company": evil, "city": "Montréal"})
    text = shipments_csv([shipment])
    record = next(csv.DictReader(io.StringIO(text)))
    assert record["customerReference"] == "'" + evil
    assert record["originCompany"] == "'" + evil
    assert record["originCity"] == "Montréal"


def test_a_negative_total_stays_a_number() -> None:
    text = shipments_csv([listed(1, cost={"total": "-12.3", "currency": "USD"})])
    assert next(csv.DictReader(io.StringIO(text)))["total"] == "-12.30"


def test_non_usd_amounts_keep_their_currency_and_every_digit_in_every_format() -> None:
    cad = listed(1, cost={"total": "99.999", "currency": "CAD"})
    record = next(csv.DictReader(io.StringIO(shipments_csv([cad]))))
    assert (record["total"], record["currency"]) == ("99.999", "CAD")  # never rounded
    out = io.StringIO()
    asyncio.run(stream_shipments(pages([cad]), out, "jsonl"))
    parsed = json.loads(out.getvalue())
    assert (parsed["total"], parsed["currency"]) == ("99.999", "CAD")  # exact, as a string


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
def test_streamed_formats_round_trip_non_ascii(fmt: ExportFormat) -> None:
    out = io.StringIO()
    count = asyncio.run(stream_shipments(pages([listed(1), listed(2)]), out, fmt))
    assert count == 2
    text = out.getvalue()
    if fmt == "csv":
        assert text.startswith(BOM)
        records = list(csv.DictReader(io.StringIO(text.removeprefix(BOM))))
    elif fmt == "json":
        records = json.loads(text)
    else:
        records = [json.loads(line) for line in text.splitlines()]
    assert [r["originCity"] for r in records] == ["Montréal", "Montréal"]
    assert "Montréal" in text  # written as UTF-8, not \\u escapes


@pytest.mark.parametrize(
    ("fmt", "expected"), [("csv", BOM + ",".join(HEADER) + "\n"), ("json", "[]\n"), ("jsonl", "")]
)
def test_an_empty_result_is_still_a_valid_file(fmt: ExportFormat, expected: str) -> None:
    out = io.StringIO()
    assert asyncio.run(stream_shipments(pages([]), out, fmt)) == 0
    assert out.getvalue() == expected


def test_export_reports_progress_and_replaces_the_file_when_done(tmp_path: Path) -> None:
    target = tmp_path / "out" / "s.jsonl"
    seen: list[int] = []
    result = asyncio.run(
        export_shipments(
            pages([listed(i) for i in range(5)]), target, "jsonl", progress=seen.append
        )
    )
    assert (result.count, result.stopped, result.path) == (5, False, target)
    assert seen == [1, 2, 3, 4, 5]
    assert len(target.read_text(encoding="utf-8").splitlines()) == 5


def test_a_stopped_export_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out" / "s.csv"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    seen: list[int] = []
    result = asyncio.run(
        export_shipments(
            pages([listed(i) for i in range(10)]),
            target,
            progress=seen.append,
            should_stop=lambda: len(seen) >= 3,
        )
    )
    assert (result.count, result.stopped) == (3, True)
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["s.csv"]


def test_a_cancelled_export_task_removes_its_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out" / "s.csv"

    writing = asyncio.Event()

    async def endless() -> AsyncIterator[Shipment]:
        i = 0
        while True:
            i += 1
            if i == 3:  # two rows handed over: the export is writing its temporary
                writing.set()
            await asyncio.sleep(0.001)
            yield listed(i)

    async def scenario() -> None:
        task = asyncio.create_task(export_shipments(endless(), target))
        await writing.wait()  # cancelled while it writes, however long its start takes
        assert any(target.parent.iterdir())
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert list(target.parent.iterdir()) == []


def test_json_text_writes_decimals_exactly() -> None:
    value = {"total": Decimal("1234.50"), "tiny": Decimal("0.10"), "list": [Decimal("1E+2")]}
    assert json_text(value) == '{"total": 1234.50, "tiny": 0.10, "list": [1E+2]}'
    assert json.loads(json_text(value, indent=2), parse_float=Decimal)["total"] == Decimal(
        "1234.50"
    )


@pytest.mark.parametrize(
    ("amount", "text"),
    [("1234.5", "1234.50"), ("0.1", "0.10"), ("-12.3", "-12.30"), ("7", "7.00"),
     ("1E+3", "1000.00"), ("99.999", "99.999"), ("1234.5000", "1234.50"), (None, None),
     ("NaN", None)],
)  # fmt: skip
def test_money_is_an_exact_decimal_string_at_least_to_the_cent(
    amount: str | None, text: str | None
) -> None:
    from tui.vocabulary import money

    assert money(None if amount is None else Decimal(amount)) == text


def test_a_workbook_keeps_a_long_bol_as_text_and_runs_nothing() -> None:
    from openpyxl import load_workbook

    from tui.export import SHIPMENT_FIELDS, shipment_record, shipments_workbook

    bol = "01234567890123456"  # 17 digits, a leading zero
    shipment = listed(1, bolNumber=bol, reference="=cmd|' /C calc'!A0")
    fields = SHIPMENT_FIELDS.select(None)
    data = shipments_workbook([shipment_record(shipment, fields)], fields)
    sheet = load_workbook(io.BytesIO(data)).active
    assert sheet is not None
    header, row = (list(r) for r in sheet.iter_rows())
    cells = {h.value: c for h, c in zip(header, row, strict=True)}
    assert (cells["bolNumber"].value, cells["bolNumber"].data_type) == (bol, "s")
    assert cells["bolNumber"].number_format == "@"
    assert cells["customerReference"].value == "=cmd|' /C calc'!A0"  # the text, no '

    assert cells["customerReference"].data_type == "s"
    assert cells["total"].value == 1234.5


def test_the_shippers_reference_is_never_freights_own() -> None:
    from tui.api.models import Shipment
    from tui.export import shipment_record

    def record(reference: str) -> dict[str, object]:
        return shipment_record(Shipment.model_validate({"id": "s1", "reference": reference}))

    freights = record("FRT0A1B2C3D4E")  # no reference of the shipper's: Freight's took its place
    assert (freights["customerReference"], freights["bookingReference"]) == (None, "FRT0A1B2C3D4E")
    shippers = record("PO-4471")
    assert (shippers["customerReference"], shippers["bookingReference"]) == ("PO-4471", None)
    assert shippers["order"] is None  # the store's, joined by the commands
