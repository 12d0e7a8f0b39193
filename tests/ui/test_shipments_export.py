"""Export of the loaded, filtered list to CSV (`e`) and the totals view (`t`)."""

from __future__ import annotations

import csv
from collections import Counter
from decimal import Decimal
from pathlib import Path

import httpx
from textual.widgets import Input, Select

from tests.ui.screen import wait_for
from tests.ui.test_shipments_support import app_on, open_shipments, shipments_screen
from tui.sandbox.app import SandboxApp
from tui.screens.shipments_export import ExportDialog
from tui.screens.shipments_summary import ShipmentsSummaryScreen, summarize


async def test_export_writes_the_rows_shown_to_an_edited_path(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before = screen.paging.generation
        app.screen.query_one("#status-filter", Select).value = "delivered"
        await wait_for(pilot, lambda: screen.paging.generation > before and not screen.is_loading)
        shown = [row.id for row in table.rows()]
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        field = app.screen.query_one("#export-path", Input)
        assert field.value.startswith(str(tmp_path / "data" / "exports" / "freight-shipments-"))
        target = tmp_path / "out" / "delivered.csv"
        field.value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog))
        assert target.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM: Excel reads UTF-8
        with target.open(encoding="utf-8-sig") as handle:
            records = list(csv.DictReader(handle))
        assert [r["id"] for r in records] == shown
        assert {r["status"] for r in records} == {"delivered"}
        assert f"Wrote {len(shown):,} shipments to {target}" in str(
            app.screen.query_one("#shipments-status").render()
        )


async def test_export_to_a_folder_is_refused_at_the_field(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press("e")
        field = app.screen.query_one("#export-path", Input)
        field.value = str(tmp_path)
        await pilot.press("enter")
        assert isinstance(app.screen, ExportDialog)
        assert "is a folder" in str(app.screen.query_one("#export-error").render())
        assert field.value == str(tmp_path)  # what was typed stays
        await pilot.press("escape")
        assert not isinstance(app.screen, ExportDialog)


async def test_totals_count_by_status_and_sum_spend_by_carrier(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        rows = table.rows()
        await pilot.press("t")
        assert isinstance(app.screen, ShipmentsSummaryScreen)
        summary = app.screen.summary
        assert dict(summary.by_status) == dict(Counter(row.status for row in rows))
        # The sandbox bills in USD only: one block, every shipment counted in it.
        assert [spend.currency for spend in summary.spend] == ["USD"]
        assert summary.total_in("USD") == sum((row.total or Decimal(0) for row in rows), Decimal(0))
        assert sum(count for _, _, count in summary.spend[0].by_carrier) == len(rows)
        drawn = str(app.screen.query_one("#summary-bars").render())
        assert "By status" in drawn
        assert "█" in drawn
        assert "50 shipments (loaded so far)" in str(
            app.screen.query_one("#summary-title").render()
        )
        await pilot.press("escape")
        assert not isinstance(app.screen, ShipmentsSummaryScreen)


def test_summary_of_nothing_is_empty() -> None:
    summary = summarize([])
    assert summary.count == 0
    assert summary.spend == []
    assert summary.total_in("USD") == Decimal(0)
    assert summary.by_status == []
