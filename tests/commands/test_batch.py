"""``freight batch``: fields, sample, rate and status on the live sandbox and the demo; exit
statuses; JSON records with exactly the vocabulary's keys; the results file; resume after
kill -9 while rating."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest

from tests.batch.conftest import WMS_EXPORT
from tests.commands.conftest import Runner
from tui.batch.report import RECORD_KEYS
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.threaded import RunningSandbox

CONFIG = """\
default_profile = "sandbox"

[profiles.sandbox]
base_url = "{url}"
environment = "sandbox"
emergency_name = "Dock Safety"
emergency_phone = "312-555-0177"

[profiles.sandbox.default_origin]
label = "Main dock"
company = "Acme Dock Co"
address = "1200 W Lake St"
city = "Chicago"
state = "IL"
postal_code = "60607"
contact_name = "Pat Doyle"
phone = "312-555-0142"

[[profiles.sandbox.address_book]]
label = "Atlanta DC"
company = "Acme Dock Co"
address = "4500 Fulton Industrial Blvd SW"
city = "Atlanta"
state = "GA"
postal_code = "30336"
contact_name = "Dana Brooks"
phone = "404-555-0156"
"""

ORDERS = (
    "Order,Ship From Zip,Consignee,City,State,Zip,Handling Units,Unit Type,Weight,Length,"
    "Width,Height,Class,Liftgate\n"
    "A1,60607,Peach Retail,Atlanta,GA,30303,2,Pallet,1600,48,40,48,70,Y\n"
    "A1,,,,,,1,Crate,350,40,30,36,,\n"
    "A2,30336,Lone Star DC,Dallas,TX,75207,1,Pallet,800,48,40,48,,\n"
)


@pytest.fixture
def configured(live_sandbox: RunningSandbox, isolated_home: Path) -> Path:
    """A config whose sandbox profile has a default origin, an Atlanta dock and an
    emergency contact."""
    folder = isolated_home / "config" / "freight-tui"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(CONFIG.format(url=live_sandbox.base_url), encoding="utf-8")
    return path


def orders_file(tmp_path: Path, text: str = ORDERS, name: str = "orders.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_fields_lists_every_field(freight: Runner) -> None:
    result = freight("batch", "fields")
    assert result.status == 0
    for name in ("order", "ship_date", "dims", "dim_unit", "hazmat_un", "po", "notes"):
        assert f"  {name} " in result.out


def test_the_demos_sample_file_is_printed_or_written(freight: Runner, tmp_path: Path) -> None:
    printed = freight("batch", "sample")
    assert printed.status == 0
    assert printed.out.startswith("Order No,Ship Date,Ship From Zip,")
    target = tmp_path / "sample.csv"
    assert freight("batch", "sample", "--out", str(target)).status == 0
    assert target.read_bytes().startswith(b"\xef\xbb\xbfOrder No,")


def test_rate_prints_every_order_and_exits_0_when_all_are_rated(
    freight: Runner, configured: Path, tmp_path: Path
) -> None:
    path = orders_file(tmp_path)
    result = freight("batch", "rate", str(path))
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("orders.csv · 3 rows · 2 orders · comma, utf-8, LF")
    assert lines[1].split() == ["ORDER", "STATUS", "CARRIER", "SERVICE", "DAYS", "TOTAL",
                                "PICKUP", "TO", "/", "PRO"]  # fmt: skip
    assert lines[2].startswith("A1")
    assert " rated " in lines[2]
    assert lines[-1].startswith("2 rated · total ")
    assert lines[-1].endswith(" USD")


def test_json_records_carry_exactly_the_vocabularys_keys(
    freight: Runner, configured: Path, tmp_path: Path
) -> None:
    path = orders_file(
        tmp_path, ORDERS + "A3,60607,Bad Class Co,Dallas,TX,75207,1,Pallet,800,48,40,48,73,\n"
    )
    result = freight("batch", "rate", str(path), "--format", "json")
    assert result.status == 1
    records = json.loads(result.out)
    assert [tuple(r) for r in records] == [RECORD_KEYS] * 3
    first, _, bad = records
    assert first["order"] == "A1"
    assert first["status"] == "rated"
    assert isinstance(first["total"], str)  # money: a decimal string
    assert first["total"] == f"{Decimal(first['total']):.2f}"
    assert first["currency"] == "USD"
    assert first["errors"] == []
    assert first["trackingNumbers"] == []
    assert first["proNumber"] is None
    assert bad["status"] == "invalid"
    assert bad["errors"] == [
        {"row": 5, "column": "Class", "value": "73",
         "reason": "is not a freight class (50, 55 … 92.5, 100 … 500)"}
    ]  # fmt: skip
    picked = json.loads(freight("batch", "status", str(path), "--json", "order,scac,rows").out)
    assert list(picked[0]) == ["order", "scac", "rows"]
    assert picked[0]["order"] == "A1"
    assert picked[0]["rows"] == [2, 3]
    listed = freight("batch", "status", str(path), "--json")
    assert listed.status == 0
    assert "transitDays" in listed.out
    assert "serviceType" in listed.out
    wrong = freight("batch", "status", str(path), "--json", "order,heft")
    assert wrong.status == 2
    assert "unknown field heft" in wrong.err
    lines = freight("batch", "status", str(path), "--format", "jsonl").out.splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["rated", "rated", "invalid"]
    csv_out = freight("batch", "status", str(path), "--format", "csv").out.splitlines()
    assert csv_out[0] == ",".join(RECORD_KEYS)
    assert csv_out[3].startswith("A3,invalid,row 5, Class: 73 is not") or csv_out[3].startswith(
        'A3,invalid,"row 5, Class: 73 is not'
    )


def test_rules_and_the_results_file(freight: Runner, configured: Path, tmp_path: Path) -> None:
    path = orders_file(tmp_path)
    out = tmp_path / "results.csv"
    result = freight(
        "batch", "rate", str(path), "--rule", "fastest", "--exclude", "BCXP", "--out", str(out)
    )
    assert result.status == 0, result.err
    assert "rule fastest, exclude BCXP" in result.out
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[0].endswith(
        "Status,Carrier,Service,Total,Currency,Transit Days,Pickup Date,PRO,BOL Number,"
        "Tracking Numbers,Pickup Confirmation,Reference,Error"
    )
    assert len(rows) == 4
    assert all(",rated," in row for row in rows[1:])
    assert "Bluecrest" not in out.read_text(encoding="utf-8")
    again = freight("batch", "rate", str(path), "--rule", "nearest")
    assert again.status == 2
    assert "--rule 'nearest'" in again.err


def test_out_xlsx_writes_a_workbook(freight: Runner, configured: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    out = tmp_path / "results.xlsx"
    result = freight("batch", "rate", str(orders_file(tmp_path)), "--out", str(out))
    assert result.status == 0, result.err
    sheet = load_workbook(out).active  # CSV text under an .xlsx name does not open
    assert sheet is not None
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    status = rows[0].index("Status")
    assert [row[status] for row in rows[1:]] == ["rated"] * 3


def test_the_mapping_is_saved_and_found_again_for_the_same_headers(
    freight: Runner, configured: Path, tmp_path: Path
) -> None:
    text = "Ref,Dest ZIP,Gross Wt,Dims\nM1,30303,800,48x40x48\n"
    path = orders_file(tmp_path, text, "erp.csv")
    first = freight(
        "batch",
        "rate",
        str(path),
        "--map",
        "order=Ref",
        "--set",
        "package=pallet",
        "--save-mapping",
    )
    assert first.status == 0, first.out
    assert "mapping 'erp'" in first.out
    other = orders_file(tmp_path, text.replace("M1", "M2"), "erp-tuesday.csv")
    second = freight("batch", "rate", str(other))
    assert second.status == 0, second.out
    assert (
        "mapping 'erp' (saved; not the guess: order Ref, not unmapped; package = pallet, "
        "not unmapped)" in second.out
    )
    assert "M2 " in second.out


def test_files_and_flags_that_cannot_be_used_are_usage_errors(
    freight: Runner, configured: Path, tmp_path: Path
) -> None:
    missing = freight("batch", "rate", str(tmp_path / "nope.csv"))
    assert missing.status == 2
    assert "cannot read" in missing.err
    path = orders_file(tmp_path)
    column = freight("batch", "rate", str(path), "--map", "weight=Heft")
    assert column.status == 2
    assert "no column 'Heft'" in column.err


def test_status_sends_nothing(freight: Runner, configured: Path, tmp_path: Path) -> None:
    path = orders_file(tmp_path)
    configured.write_text(
        configured.read_text(encoding="utf-8").replace("http://127.0.0.1", "http://127.0.0.2"),
        encoding="utf-8",
    )
    result = freight("batch", "status", str(path), "--format", "jsonl")
    assert result.status == 1
    assert [json.loads(line)["status"] for line in result.out.splitlines()] == [
        "pending",
        "pending",
    ]


def test_the_warehouse_export_on_the_demo_rates_every_good_order(
    freight: Runner, tmp_path: Path
) -> None:
    path = tmp_path / "wms-export.csv"
    path.write_bytes(WMS_EXPORT.read_bytes())
    result = freight("--demo", "batch", "rate", str(path), "--format", "json")
    assert result.status == 1, result.err
    records = json.loads(result.out)
    assert len(records) == 120
    statuses = [r["status"] for r in records]
    assert statuses.count("rated") == 113
    assert statuses.count("invalid") == 7
    reasons = {
        r["order"]: [(e["row"], e["column"], e["value"], e["reason"]) for e in r["errors"]]
        for r in records
        if r["status"] == "invalid"
    }
    assert reasons == {
        "SO-104212": [(24, "Zip", None, "is blank on the order's first row (row 25 has 50650)")],
        "SO-104229": [(51, "Weight Lbs", "-40", "must be more than 0")],
        "SO-104257": [(98, "Hazard Class", None,
                       "is blank: hazardous freight (UN1993) needs its hazard class")],
        "SO-104271": [(122, "Zip", "6060", "is not a 5-digit ZIP (and 06060 is in CT, not AR)")],
        "SO-104294": [(154, "Weight Lbs", "twelve hundred", "is not a number")],
        "SO-104296": [(158, "Height", None, "is blank: every line needs its length, width and "
                       "height (or a size like 48x40x48 in the notes)")],
        "SO-104318": [(195, "Class", "73", "is not a freight class (50, 55 … 92.5, 100 … 500)")],
    }  # fmt: skip
    rated = [r for r in records if r["status"] == "rated"]
    assert all(r["carrier"] and Decimal(r["total"]) > 0 and r["currency"] == "USD" for r in rated)


def _stored(data_home: Path, status: str, field: str) -> dict[str, str]:
    """``field`` of each order the batch store holds with ``status`` (read while a run of
    another process may be writing it)."""
    path = data_home / "freight-tui" / "freight.sqlite3"
    if not path.exists():
        return {}
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            query = "SELECT key, state FROM orders WHERE status = ?"
            rows = conn.execute(query, (status,)).fetchall()
    except sqlite3.OperationalError:
        return {}
    return {key: json.loads(state)[field] for key, state in rows}


def _rated_quotes(data_home: Path) -> dict[str, str]:
    return _stored(data_home, "rated", "quote_id")


def _command_env(live_sandbox: RunningSandbox, home: Path) -> dict[str, str]:
    """The environment of a `freight` process on the live sandbox, in a home of its own."""
    return {
        **os.environ,
        "FREIGHT_BASE_URL": live_sandbox.base_url,
        "FREIGHT_API_TOKEN": DEMO_TOKEN,
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }


@pytest.mark.slow
def test_kill_9_while_rating_then_resume_loses_nothing_and_rates_nothing_twice(
    live_sandbox: RunningSandbox, configured: Path, isolated_home: Path, tmp_path: Path
) -> None:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"K{n:03d},30303,{400 + n},48,40,48,Pallet" for n in range(60)]
    path = orders_file(tmp_path, "\n".join(lines) + "\n")
    env = _command_env(live_sandbox, isolated_home)
    command = [sys.executable, "-m", "tui", "batch", "rate", str(path), "--format", "json"]
    slow = [*command, "--requests-per-second", "6", "--concurrency", "2"]
    process = subprocess.Popen(slow, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    data_home = isolated_home / "data"
    deadline = time.monotonic() + 120
    before: dict[str, str] = {}
    while time.monotonic() < deadline and len(before) < 10:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
        before = _rated_quotes(data_home)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert 10 <= len(before) < 60
    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr + finished.stdout
    records = json.loads(finished.stdout)
    assert [r["order"] for r in records] == [f"K{n:03d}" for n in range(60)]
    assert all(r["status"] == "rated" for r in records)
    after = _rated_quotes(data_home)
    assert len(after) == 60
    assert all(after[key] == quote for key, quote in before.items())  # not rated again


def test_book_books_the_rated_orders_and_saves_and_prints_their_paperwork(
    freight: Runner, configured: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fake_lp import install_fake_lp, install_fake_lpstat

    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    install_fake_lpstat(tmp_path / "bin", monkeypatch, "office")
    path = orders_file(tmp_path)
    assert freight("batch", "rate", str(path)).status == 0
    docs = tmp_path / "paperwork"
    result = freight(
        "batch", "book", str(path), "--documents", str(docs), "--print", "--format", "json"
    )
    assert result.status == 0, result.err
    records = json.loads(result.out)
    assert [r["status"] for r in records] == ["booked", "booked"]
    assert all(r["proNumber"] and r["bolNumber"] and r["bookingReference"] for r in records)
    folder = docs / "batch-orders"
    saved = sorted(p.name for p in folder.iterdir())
    assert saved
    assert all(name.startswith(("A1-", "A2-")) for name in saved)
    calls = lp.calls()
    assert len(calls) == 1  # the batch's PDFs as one job
    printed = [arg for arg in calls[0].argv if arg.endswith(".pdf")]
    assert len(printed) == sum(name.endswith(".pdf") for name in saved)
    assert "paperwork" in result.err
    again = freight("batch", "book", str(path), "--format", "jsonl")
    assert again.status == 0
    assert "nothing to book" in again.err
    references = [json.loads(line)["bookingReference"] for line in again.out.splitlines()]
    assert references == [r["bookingReference"] for r in records]


def test_production_asks_for_the_count_and_the_totals(
    freight: Runner,
    configured: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configured.write_text(
        configured.read_text(encoding="utf-8").replace(
            'environment = "sandbox"', 'environment = "production"'
        ),
        encoding="utf-8",
    )
    path = orders_file(tmp_path)
    rated = json.loads(freight("batch", "rate", str(path), "--format", "json").out)
    total = sum(Decimal(r["total"]) for r in rated)
    script = freight("batch", "book", str(path))
    assert script.status == 2
    assert "only with --yes" in script.err
    import tui.commands.batch_book

    monkeypatch.setattr(tui.commands.batch_book, "stdin_is_terminal", lambda: True)
    wrong = freight("batch", "book", str(path), stdin="3\n")
    assert wrong.status == 1
    assert "Book 2 orders on PRODUCTION" in wrong.err
    assert "the number typed is not the number of orders" in wrong.err
    bad_total = freight("batch", "book", str(path), stdin=f"2\n{total + 1}\n")
    assert bad_total.status == 1
    assert "the total typed is not the USD total" in bad_total.err
    status = json.loads(freight("batch", "status", str(path), "--format", "json").out)
    assert [r["status"] for r in status] == ["rated", "rated"]
    right = freight("batch", "book", str(path), stdin=f"2\n{total:,.2f}\n")
    assert right.status == 0, right.err
    assert "booked" in right.out


def _booked(data_home: Path) -> dict[str, str]:
    return _stored(data_home, "booked", "reference")


@pytest.mark.slow
def test_kill_9_while_booking_then_resume_books_every_order_once(
    live_sandbox: RunningSandbox, configured: Path, isolated_home: Path, tmp_path: Path
) -> None:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"K{n:02d},30303,{400 + n},48,40,48,Pallet" for n in range(24)]
    path = orders_file(tmp_path, "\n".join(lines) + "\n")
    env = _command_env(live_sandbox, isolated_home)
    base = [sys.executable, "-m", "tui", "batch"]
    rated = subprocess.run([*base, "rate", str(path)], env=env, capture_output=True, timeout=300)
    assert rated.returncode == 0, rated.stderr
    slow = [*base, "book", str(path), "--requests-per-second", "3", "--concurrency", "2"]
    process = subprocess.Popen(slow, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    data_home = isolated_home / "data"
    deadline = time.monotonic() + 120
    before: dict[str, str] = {}
    while time.monotonic() < deadline and len(before) < 5:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
        before = _booked(data_home)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert 5 <= len(before) < 24
    finished = subprocess.run(
        [*base, "book", str(path), "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr + finished.stdout
    records = json.loads(finished.stdout)
    assert [r["status"] for r in records] == ["booked"] * 24
    after = _booked(data_home)
    assert all(after[key] == reference for key, reference in before.items())
    # every order's reference names exactly one shipment on the service: none booked twice
    import asyncio

    from tui.api.client import FreightClient
    from tui.api.models import ShipmentQuery

    async def shipments_of(reference: str) -> int:
        async with FreightClient(live_sandbox.base_url, DEMO_TOKEN) as client:
            page = await client.search_shipments(ShipmentQuery(text=reference))
            return len(page.shipments)

    counts = {r["order"]: asyncio.run(shipments_of(r["bookingReference"])) for r in records}
    assert counts == {f"K{n:02d}": 1 for n in range(24)}
