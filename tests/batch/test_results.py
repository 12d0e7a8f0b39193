"""The results file an ERP and Excel take as they are: the order's total once (summing the
column gives the batch's total), every cell that would run as a formula neutralised, a real
``.xlsx`` whose long digit strings stay text."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import stat
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from openpyxl import load_workbook

from tests.batch.conftest import WMS_EXPORT, write
from tests.batch.test_engine import NOON_MONDAY, client_for, open_batch
from tui.batch.engine import Batch
from tui.batch.pace import Pace
from tui.batch.results import results_text, write_results
from tui.sandbox import SandboxConfig, create_app

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = '=HYPERLINK("http://x.invalid","go")'
BOL = "01234567890123456"  # 17 digits with a leading zero: Excel makes 1.23457E+15 of a number


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Any:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


async def rated(tmp_path: Path, path: Path, sandbox: Any) -> Batch:
    batch = open_batch(tmp_path, path)
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        await batch.rate(client, pace=Pace(None))
    return batch


def csv_rows(batch: Batch) -> list[dict[str, str]]:
    text = results_text(batch.sheet, batch.orders, batch.states)
    return list(csv.DictReader(io.StringIO(text, newline=""), delimiter=batch.sheet.delimiter))


async def test_summing_the_total_column_gives_the_batchs_total(
    tmp_path: Path, sandbox: Any
) -> None:
    batch = await rated(tmp_path, WMS_EXPORT, sandbox)
    rows = csv_rows(batch)
    summed = sum((Decimal(r["Total"]) for r in rows if r["Total"]), Decimal(0))
    assert batch.totals() == {"USD": summed}
    several = next(o for o in batch.orders if len(o.rows) == 3 and batch.state(o.key).choice)
    lines = [r for r in rows if r["Order No"] == several.key]
    choice = batch.state(several.key).choice
    assert choice is not None
    assert [(r["Total"], r["Currency"]) for r in lines] == [
        (f"{choice.total:.2f}", "USD"),
        ("", ""),
        ("", ""),
    ]
    assert {r["Carrier"] for r in lines} == {choice.carrier}  # the rest on every line


def hostile_file(tmp_path: Path) -> Path:
    quoted = HOSTILE.replace('"', '""')
    text = (
        "Order,Dest ZIP,Weight,Package,Dims,Note,Credit\n"
        f'H1,30303,800,pallet,48x40x48,"{quoted}",-12.50\n'
        "H2,30303,500,pallet,48x40x48,@SUM(A1:A9),+4\n"
        '"H3",30303,300,pallet,48x40x48,"\tcmd",-2+3\n'
    )
    return write(tmp_path / "hostile.csv", text)


def with_server_text(batch: Batch, key: str) -> None:
    """The service answered with formula-looking text in every field Freight passes on."""
    state = batch.state(key)
    choice = state.choice
    assert choice is not None
    odd = dataclasses.replace(choice, carrier="=cmd|' /C calc'!A0", service="+svc", currency="=USD")
    batch.states[key] = dataclasses.replace(
        state,
        rates=tuple(odd if r.id == choice.id else r for r in state.rates),
        pro_number="-PRO1",
        bol_number="@BOL",
        tracking_numbers=("\rT1",),
        pickup_confirmation="=PU",
    )


async def test_no_cell_of_any_column_reads_as_a_formula(tmp_path: Path, sandbox: Any) -> None:
    batch = await rated(tmp_path, hostile_file(tmp_path), sandbox)
    with_server_text(batch, "H1")
    text = results_text(batch.sheet, batch.orders, batch.states)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    risky = [
        (rows[0][i], cell)
        for row in rows
        for i, cell in enumerate(row)
        if cell.startswith(FORMULA_START) and cell not in ("-12.50", "+4")  # plain numbers
    ]
    assert risky == []
    first = dict(zip(rows[0], rows[1], strict=True))
    assert first["Note"] == "'" + HOSTILE
    assert first["Currency"] == "'=USD"
    assert first["Carrier"] == "'=cmd|' /C calc'!A0"
    assert first["Credit"] == "-12.50"  # a number stays a number
    assert dict(zip(rows[0], rows[3], strict=True))["Credit"] == "'-2+3"
    assert dict(zip(rows[0], rows[2], strict=True))["Note"] == "'@SUM(A1:A9)"


async def test_an_xlsx_results_file_is_a_workbook_with_long_numbers_as_text(
    tmp_path: Path, sandbox: Any
) -> None:
    text = f"Order,Dest ZIP,Weight,Package,Dims,PO\nX1,30303,800,pallet,48x40x48,{BOL}\n"
    batch = await rated(tmp_path, write(tmp_path / "erp.csv", text), sandbox)
    with_server_text(batch, "X1")
    batch.states["X1"] = dataclasses.replace(batch.state("X1"), bol_number=BOL)
    out = tmp_path / "results.xlsx"
    mask = os.umask(0o022)  # the user's usual umask: results are theirs to share
    try:
        write_results(out, batch.sheet, batch.orders, batch.states)
    finally:
        os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert out.read_bytes().startswith(b"PK")  # a zip: a workbook, not CSV text
    sheet = load_workbook(out).active
    assert sheet is not None
    header, row = (list(r) for r in sheet.iter_rows(min_row=1, max_row=2))
    cells = {h.value: c for h, c in zip(header, row, strict=True)}
    for name in ("PO", "BOL Number"):
        assert cells[name].value == BOL
        assert cells[name].data_type == "s"
        assert cells[name].number_format == "@"
    choice = batch.state("X1").choice
    assert choice is not None
    assert Decimal(str(cells["Total"].value)) == choice.total  # a number Excel can sum
    assert cells["Currency"].value == "=USD"  # the text itself: a string cell is never run
    assert cells["Currency"].data_type == "s"
    assert all(c.data_type != "f" for c in row)  # no formula anywhere
    assert not any(str(c.value or "").startswith("'") for c in [*header, *row])


def _read_only_folder(tmp_path: Path) -> Path:
    """A folder this user cannot write in (root writes past permission bits: then one of the
    kernel's, when the machine has one)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    if not os.access(folder, os.W_OK):
        return folder
    kernels = Path("/proc/1")
    if kernels.is_dir() and not os.access(kernels, os.W_OK):
        return kernels
    pytest.skip("no folder this user cannot write in")


def test_results_never_go_into_freights_own_folder_or_a_read_only_one(tmp_path: Path) -> None:
    from tui.batch.results import PACKAGE, results_refusal, suggested_results
    from tui.batch.source import read_file

    sample = PACKAGE / "batch" / "samples" / "demo-orders.csv"
    assert results_refusal(sample.with_name("demo-orders-results.csv")) is not None
    files = tmp_path / "workspace-files"
    assert suggested_results(read_file(sample), files) == files / "demo-orders-results.csv"
    mine = write(tmp_path / "orders.csv", WMS_EXPORT.read_text("utf-8"))
    assert suggested_results(read_file(mine), files) == tmp_path / "orders-results.csv"
    assert results_refusal(tmp_path / "orders-results.csv") is None
    assert "no folder" in str(results_refusal(tmp_path / "missing" / "r.csv"))
    read_only = _read_only_folder(tmp_path)
    assert "read-only" in str(results_refusal(read_only / "r.csv"))
