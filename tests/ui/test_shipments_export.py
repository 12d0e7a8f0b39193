"""Export of every page of the list's filter (`e`: CSV, JSON, JSON Lines) and the totals view."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections import Counter
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from textual.widgets import Input, Select

from tests.ui.screen import screen_text, wait_for
from tests.ui.test_shipments_support import (
    app_on,
    open_shipments,
    service_client,
    shipments_screen,
)
from tui.app import FreightApp
from tui.domain.display_paths import display_path
from tui.sandbox.app import SandboxApp
from tui.screens.modal import PATH_WIDTH
from tui.screens.shipments_export import ExportDialog
from tui.screens.shipments_summary import ShipmentsSummaryScreen, summarize


class GateTransport(httpx.AsyncBaseTransport):
    """Holds the search requests after the first `open_pages` until released."""

    def __init__(self, inner: httpx.AsyncBaseTransport, open_pages: int) -> None:
        self.inner = inner
        self.open_pages = open_pages
        self.searches = 0
        self.release = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/shipments"):
            self.searches += 1
            if self.searches > self.open_pages:
                await self.release.wait()
        return await self.inner.handle_async_request(request)


async def _ids_of(sandbox: SandboxApp, status: str) -> list[str]:
    """Every shipment id of a status, newest first, read from the service page by page."""
    ids: list[str] = []
    token: str | None = None
    async with service_client(sandbox) as client:
        while True:
            params = {"status": status, **({"continuationToken": token} if token else {})}
            page = (await client.get("/shipments", params=params)).json()
            ids += [shipment["id"] for shipment in page["shipments"]]
            token = page.get("continuationToken")
            if not token or not page["shipments"]:
                return ids


def _dialog(app: FreightApp) -> ExportDialog:
    assert isinstance(app.screen, ExportDialog), app.screen
    return app.screen


async def test_export_writes_every_page_of_the_filter_as_csv_with_a_bom(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before = screen.paging.generation
        app.screen.query_one("#status-filter", Select).value = "canceled"
        await wait_for(pilot, lambda: screen.paging.generation > before and not screen.is_loading)
        loaded = table.row_count
        await pilot.press("e")
        field = _dialog(app).query_one("#export-path", Input)
        assert field.value.startswith(str(tmp_path / "data" / "exports" / "freight-shipments-"))
        target = tmp_path / "out" / "canceled.csv"
        field.value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog))
        assert target.read_bytes().startswith(b"\xef\xbb\xbf")  # BOM: Excel reads UTF-8
        with target.open(encoding="utf-8-sig") as handle:
            records = list(csv.DictReader(handle))
        expected = await _ids_of(sandbox, "canceled")
        assert [r["shipmentId"] for r in records] == expected
        assert len(expected) > loaded  # not only the rows loaded on screen
        assert {r["status"] for r in records} == {"canceled"}
        shown = display_path(target, PATH_WIDTH)
        assert shown.endswith("/canceled.csv")  # the file name whole, the middle shortened
        assert f"Wrote {len(expected):,} shipments to {shown}" in str(
            app.screen.query_one("#shipments-status").render()
        )


async def test_export_as_json_lines_or_json_changes_the_suffix_and_the_format(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before = screen.paging.generation
        app.screen.query_one("#status-filter", Select).value = "canceled"
        await wait_for(pilot, lambda: screen.paging.generation > before and not screen.is_loading)
        expected = await _ids_of(sandbox, "canceled")
        for choice, suffix in (("jsonl", ".jsonl"), ("json", ".json"), ("csv-plain", ".csv")):
            await pilot.press("e")
            dialog = _dialog(app)
            dialog.query_one("#export-format", Select).value = choice
            await pilot.pause()
            field = dialog.query_one("#export-path", Input)
            assert field.value.endswith(suffix)
            target = tmp_path / f"canceled{suffix}"
            field.value = str(target)
            await pilot.press("enter")
            await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog))
            text = target.read_text(encoding="utf-8")
            if choice == "jsonl":
                ids = [json.loads(line)["shipmentId"] for line in text.splitlines()]
            elif choice == "json":
                ids = [record["shipmentId"] for record in json.loads(text)]
            else:
                assert not text.startswith("\ufeff")  # the option without a BOM
                ids = [row["shipmentId"] for row in csv.DictReader(io.StringIO(text))]
            assert ids == expected, choice


async def test_export_shows_its_progress_and_escape_stops_it_writing_nothing(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    gate = GateTransport(httpx.ASGITransport(app=sandbox), open_pages=4)
    app = app_on(gate, data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)  # page 1 on screen
        await pilot.press("e")
        dialog = _dialog(app)
        target = tmp_path / "out" / "all.csv"
        target.parent.mkdir()
        target.write_text("an older export\n", encoding="utf-8")
        dialog.query_one("#export-path", Input).value = str(target)
        await pilot.press("enter")
        assert "exists: Enter again replaces it" in str(dialog.query_one("#export-status").render())
        await pilot.press("enter")  # asked: yes, replace it
        # The export reads pages 1-3 of its own, then waits for the 4th one.
        await wait_for(
            pilot,
            lambda: "150 shipments" in str(dialog.query_one("#export-status").render()),
            what="progress in the dialog",
        )
        assert "exporting… 150 shipments" in app.activity_text  # and in the header
        assert dialog.query_one("#export-path", Input).disabled  # no edits while it runs
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog))
        await wait_for(pilot, lambda: not list(target.parent.glob(".all.csv.*")), what="temp gone")
        assert target.read_text(encoding="utf-8") == "an older export\n"  # left as it was
        status = str(app.screen.query_one("#shipments-status").render())
        where = display_path(target, PATH_WIDTH)
        assert f"Export stopped after 150 shipments: {where} was not written" in status
        assert "exporting" not in app.activity_text
        gate.release.set()


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
        assert "is a folder" in str(app.screen.query_one("#export-status").render())
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


async def test_a_long_export_path_reads_from_home_and_is_shortened_in_the_middle(
    sandbox: SandboxApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """80x24, a deep home folder: the field starts at `~`, and the line that says where the
    file went keeps its start and its whole file name, shortened in the middle."""
    home = tmp_path / "home" / "warehouse-operator-with-a-long-name"
    monkeypatch.setenv("HOME", str(home))
    data = home / ".local" / "share" / "freight-tui"
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=data)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before = screen.paging.generation
        app.screen.query_one("#status-filter", Select).value = "canceled"
        await wait_for(pilot, lambda: screen.paging.generation > before and not screen.is_loading)
        await pilot.press("e")
        field = _dialog(app).query_one("#export-path", Input)
        assert field.value.startswith("~/.local/share/freight-tui/exports/freight-shipments-")
        deep = data / "exports" / "by-customer" / "acme-industrial-supply" / "canceled.csv"
        field.value = str(deep)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog))
        assert deep.exists()
        line = next(row for row in screen_text(app).splitlines() if "shipments to" in row).strip()
        assert line.startswith("Wrote ")
        assert " to ~/.local/" in line
        assert "…" in line
        assert line.endswith("/canceled.csv")


async def test_export_asks_before_it_overwrites_and_writes_no_dotfile_nor_outside(
    sandbox: SandboxApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted = tmp_path / "planted.csv"
    planted.write_text("kept\n", encoding="utf-8")
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press("e")
        field = app.screen.query_one("#export-path", Input)
        status = app.screen.query_one("#export-status")
        field.value = str(tmp_path / ".bashrc")
        await pilot.press("enter")
        assert "does not write files whose name starts with a dot" in str(status.render())
        assert not (tmp_path / ".bashrc").exists()
        field.value = str(planted)
        await pilot.press("enter")
        assert "exists: Enter again replaces it" in str(status.render())
        assert planted.read_text(encoding="utf-8") == "kept\n"  # asked, not written
        # Served (freight serve): only the workspace folder; a path outside is refused.
        monkeypatch.setenv("FREIGHT_WORKSPACE", str(tmp_path / "workspace"))
        (tmp_path / "workspace").mkdir()
        field.value = str(tmp_path / "workspace" / ".." / "escaped.csv")
        await pilot.press("enter")
        assert "files stay in the workspace folder" in str(status.render())
        field.value = str(planted)
        await pilot.press("enter")  # once more on the same file: outside, still refused
        assert "files stay in the workspace folder" in str(status.render())
        monkeypatch.delenv("FREIGHT_WORKSPACE")
        field.value = str(planted)
        await pilot.press("enter")  # the second Enter on the file asked about replaces it
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog))
    assert planted.read_text(encoding="utf-8-sig").startswith("id,") or planted.stat().st_size
    assert not (tmp_path / "escaped.csv").exists()


HOSTILE_MESSAGE = "Database [/] down [bold]now [@click=app.quit]x[/]"
"""A server's words with markup in them: shown as they are, never parsed."""


class FailingSearch(httpx.AsyncBaseTransport):
    """The sandbox, until a search with a page token: then a 500 with `HOSTILE_MESSAGE`."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/shipments") and "continuationToken" in str(request.url):
            return httpx.Response(
                500, json={"error": "internal", "message": HOSTILE_MESSAGE}, request=request
            )
        return await self.inner.handle_async_request(request)


async def test_a_server_error_with_markup_in_its_message_is_shown_as_text(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    app = app_on(FailingSearch(httpx.ASGITransport(app=sandbox)), data_dir=tmp_path / "data")
    async with app.run_test(size=(100, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press("e")
        dialog = _dialog(app)
        dialog.query_one("#export-path", Input).value = str(tmp_path / "out [/] x.csv")
        await pilot.press("enter")
        status = dialog.query_one("#export-status")
        await wait_for(pilot, lambda: "nothing was written" in str(status.render()), seconds=30)
        assert app.is_running
        assert app.screen is dialog
        assert "Database [/] down [bold]now" in str(status.render())
