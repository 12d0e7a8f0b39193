"""`freight shipments`: every format, the filters, and the exit statuses, on the live sandbox."""

from __future__ import annotations

import csv
import io
import json
import os
from decimal import Decimal
from pathlib import Path

import pytest

from tests.commands.conftest import Runner
from tui.export import BOM, HEADER


def test_table_lists_the_rows_and_one_total_per_currency(freight: Runner) -> None:
    result = freight("shipments", "--limit", "7")
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].split()[:3] == ["PRO", "STATUS", "MODE"]
    assert len(lines) == 1 + 7 + 1
    assert lines[-1].startswith("7 shipments; total ")
    assert lines[-1].endswith(" USD")
    assert "\x1b[" not in result.out + result.err  # no colours, no progress into a pipe


def test_csv_on_stdout_has_the_header_and_every_page_and_no_bom(freight: Runner) -> None:
    result = freight("shipments", "--format", "csv")
    assert result.status == 0, result.err
    assert result.out.startswith("shipmentId,proNumber,")
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert len(rows) == 200  # the sandbox's 200 shipments: four pages of 50
    assert list(rows[0]) == list(HEADER)
    assert len({r["shipmentId"] for r in rows}) == 200
    assert all(r["currency"] == "USD" for r in rows if r["total"])


def test_bom_on_stdout_when_asked_and_left_out_of_a_file_when_asked(
    freight: Runner, tmp_path: Path
) -> None:
    result = freight("shipments", "--format", "csv", "--bom", "--limit", "1")
    assert result.status == 0, result.err
    assert result.out.startswith(BOM + "shipmentId,proNumber,")
    target = tmp_path / "plain.csv"
    plain = freight("shipments", "--limit", "1", "--output", str(target), "--no-bom")
    assert plain.status == 0, plain.err
    assert target.read_bytes().startswith(b"shipmentId,proNumber,")


def test_json_and_jsonl_carry_exact_money_and_the_same_shipments(freight: Runner) -> None:
    listed = freight("shipments", "--format", "json", "--limit", "60")
    lines = freight("shipments", "--format", "jsonl", "--limit", "60")
    assert listed.status == lines.status == 0
    records = json.loads(listed.out)
    per_line = [json.loads(line) for line in lines.out.splitlines()]
    assert len(records) == 60
    assert records == per_line
    first = records[0]
    assert set(first) == set(HEADER)
    assert isinstance(first["total"], str)  # money: a decimal string beside its currency
    assert Decimal(first["total"]) == Decimal(first["total"]).quantize(Decimal("0.01"))
    assert first["currency"] == "USD"


def test_json_fields_select_and_order_the_record(freight: Runner) -> None:
    result = freight("shipments", "--json", "status,shipmentId,proNumber", "--limit", "3")
    assert result.status == 0, result.err
    records = json.loads(result.out)
    assert len(records) == 3
    assert [list(r) for r in records] == [["status", "shipmentId", "proNumber"]] * 3
    lines = freight("shipments", "--json", "shipmentId,total", "--format", "jsonl", "--limit", "2")
    assert [list(json.loads(x)) for x in lines.out.splitlines()] == [["shipmentId", "total"]] * 2
    columns = freight("shipments", "--json", "shipmentId,total", "--format", "csv", "--limit", "2")
    assert columns.out.splitlines()[0] == "shipmentId,total"


def test_json_alone_lists_the_fields_and_help_names_them(freight: Runner) -> None:
    listing = freight("shipments", "--json")
    assert listing.status == 0, listing.err
    assert [line.split()[0] for line in listing.out.splitlines()] == list(HEADER)
    assert "the carrier's PRO number" in listing.out
    helped = freight("shipments", "--help")
    assert helped.status == 0
    words = " ".join(helped.out.split())
    assert "JSON fields (--json FIELD,FIELD" in words
    assert ", ".join(HEADER) in words


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--json", "shipmentId,nope"),
            "--json: unknown field nope; the fields are: shipmentId, proNumber,",
        ),
        # Blanks and commas name no field: refused, not taken for all of them.
        (("--json", " , "), "--json ' , ' names no field; the fields are: shipmentId, proNumber,"),
        (("--json", "\r"), "--json '\\x0d' names no field; the fields are: shipmentId, proNumber,"),
        (("--json", "shipmentId", "--format", "table"), "--json writes JSON"),
    ],
)
def test_bad_json_fields_are_usage_errors(
    freight: Runner, args: tuple[str, ...], message: str
) -> None:
    result = freight("shipments", *args)
    assert result.status == 2
    assert message in result.err
    assert result.out == ""


def test_filters_narrow_the_listing(freight: Runner) -> None:
    result = freight("shipments", "--status", "delivered", "--mode", "ltl", "--format", "jsonl")
    assert result.status == 0, result.err
    records = [json.loads(line) for line in result.out.splitlines()]
    assert records
    assert {(r["status"], r["mode"]) for r in records} == {("delivered", "ltl")}
    pro = records[0]["proNumber"]
    found = freight("shipments", "--search", pro, "--format", "jsonl")
    assert [json.loads(line)["proNumber"] for line in found.out.splitlines()] == [pro]


def test_pickup_dates_filter_inclusively(freight: Runner) -> None:
    every = [json.loads(x) for x in freight("shipments", "--format", "jsonl").out.splitlines()]
    day = sorted(r["pickupDate"] for r in every if r["pickupDate"])[len(every) // 2]
    result = freight("shipments", "--from", day, "--to", day, "--format", "jsonl")
    assert result.status == 0, result.err
    picked = [json.loads(line)["pickupDate"] for line in result.out.splitlines()]
    assert picked
    assert set(picked) == {day}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--pickup", "today", "--from", "2026-01-01"), "--pickup cannot be combined"),
        (("--from", "2026-13-01"), "--from: '2026-13-01' is not a date"),
        (("--from", "2026-02-02", "--to", "2026-02-01"), "--to: must not be before --from"),
        (("--limit", "0"), "--limit: must be 1 or more"),
        (("--status", "lost"), "invalid choice: 'lost'"),
        (("--format", "xml"), "invalid choice: 'xml'"),
    ],
)
def test_bad_flags_are_usage_errors(freight: Runner, args: tuple[str, ...], message: str) -> None:
    result = freight("shipments", *args)
    assert result.status == 2
    assert message in result.err
    assert result.out == ""


def test_missing_or_refused_credentials_exit_4(freight: Runner) -> None:
    missing = freight("shipments", token=None)
    assert missing.status == 4
    assert "freight auth login" in missing.err
    refused = freight("shipments", token="demo.wrong-secret")
    assert refused.status == 4
    assert "wrong-secret" not in refused.err
    unpaid = freight("shipments", token="nosub.nosub-secret")
    assert unpaid.status == 4


def test_a_service_that_cannot_be_reached_exits_5(
    freight: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = freight("shipments", "--base-url", f"http://127.0.0.1:{port}", "--limit", "1")
    assert result.status == 5
    assert result.err.startswith("freight: ")


def test_output_file_takes_its_format_from_the_extension(freight: Runner, tmp_path: Path) -> None:
    target = tmp_path / "pickups.csv"
    result = freight("shipments", "--limit", "3", "--output", str(target))
    assert result.status == 0, result.err
    assert result.out == ""
    assert f"Wrote 3 shipments to {target}" in result.err
    assert target.read_bytes().startswith(BOM.encode())
    as_json = freight("shipments", "--limit", "2", "--output", str(tmp_path / "s.json"))
    assert as_json.status == 0
    assert len(json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))) == 2
    unknown = freight("shipments", "--output", str(tmp_path / "s.txt"))
    assert unknown.status == 2
    assert "--output: say --format csv, json or jsonl" in unknown.err


def test_output_xlsx_is_a_workbook_that_keeps_long_numbers_as_text(
    freight: Runner, tmp_path: Path
) -> None:
    from openpyxl import load_workbook

    target = tmp_path / "shipments.xlsx"
    result = freight("shipments", "--limit", "60", "--output", str(target))
    assert result.status == 0, result.err
    sheet = load_workbook(target).active  # CSV text under an .xlsx name would not open
    assert sheet is not None
    header, *rows = [list(row) for row in sheet.iter_rows()]
    names = [cell.value for cell in header]
    assert names == list(HEADER)
    assert len(rows) == 60
    at = {name: n for n, name in enumerate(names)}
    zips = [row[at["destPostalCode"]] for row in rows] + [
        row[at["originPostalCode"]] for row in rows
    ]
    leading_zero = [cell for cell in zips if str(cell.value or "").startswith("0")]
    assert leading_zero  # Excel would make 7202 of 07202 in a number cell
    assert all(cell.data_type == "s" and cell.number_format == "@" for cell in leading_zero)
    totals = [row[at["total"]].value for row in rows if row[at["total"]].value is not None]
    assert totals
    assert all(isinstance(total, int | float) for total in totals)  # numbers Excel sums
    assert all(cell.data_type != "f" for row in rows for cell in row)


def test_output_into_a_missing_folder_names_it_and_creates_nothing(
    freight: Runner, tmp_path: Path
) -> None:
    missing = tmp_path / "reprots"
    result = freight("shipments", "--limit", "1", "--output", str(missing / "s.csv"))
    assert result.status == 2, result.err
    assert f"--output: there is no folder {missing}" in result.err
    assert not missing.exists()


def test_output_that_cannot_be_written_says_why_not_a_bug(freight: Runner, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    # /proc refuses new files even to root; a read-only folder refuses everyone else
    target = Path("/proc/shipments.csv") if os.geteuid() == 0 else locked / "s.csv"
    result = freight("shipments", "--limit", "1", "--output", str(target))
    assert result.status == 2, result.err
    assert f"--output: cannot write {target}: " in result.err
    assert "bug" not in result.err
    (tmp_path / "a.csv").mkdir()
    folder = freight("shipments", "--limit", "1", "--output", str(tmp_path / "a.csv"))
    assert folder.status == 2
    assert "is a folder" in folder.err
