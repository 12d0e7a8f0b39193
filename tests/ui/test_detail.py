"""The shipment detail screen, opened from the list of a 2,000-shipment sandbox."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from textual.widgets import OptionList

from tests.ui.screen import wait_for
from tests.ui.test_shipments_support import FailingTransport, app_on, open_shipments, service_client
from tui.api.models import ShipmentDetail
from tui.sandbox.app import SandboxApp
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen


async def sandbox_detail(sandbox: SandboxApp, shipment_id: str) -> dict[str, Any]:
    async with service_client(sandbox) as client:
        return dict((await client.get(f"/shipments/{shipment_id}")).json())


def text_of(screen: ShipmentDetailScreen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def open_row(pilot: Any, app: Any, index: int) -> ShipmentDetailScreen:
    table = await open_shipments(pilot, app)
    table.move_cursor(index)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen))
    screen = app.screen
    assert isinstance(screen, ShipmentDetailScreen)
    await wait_for(pilot, lambda: screen.detail is not None, what="detail")
    return screen


async def test_detail_shows_lifecycle_places_items_tracking_events_documents(
    sandbox: SandboxApp, tmp_path: Path
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox), data_dir=tmp_path / "data")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        index = next(
            i
            for i, row in enumerate(table.rows())
            if row.pro_number and row.status in ("confirmed", "picked-up", "delivered")
        )
        listing = table.rows()[index]
        screen = await open_row(pilot, app, index)
        wire = await sandbox_detail(sandbox, listing.id)
        assert listing.pro_number is not None
        title = text_of(screen, "#detail-title")
        assert listing.pro_number in title
        assert f"{listing.scac}" in title
        assert wire["status"] in title
        carrier = text_of(screen, "#detail-carrier")
        assert f"total {listing.total:,.2f}" in carrier  # cost from the listing row
        assert f"{listing.carrier_name} ({listing.scac})" in carrier
        timeline = text_of(screen, "#detail-timeline")
        assert "pending ──" in timeline.replace("✓", "")
        assert f"[{wire['status']}]" in timeline
        places = text_of(screen, "#detail-places")
        assert wire["origin"]["city"] in places
        assert wire["destination"]["postalCode"] in places
        items = text_of(screen, "#detail-items")
        assert f"{wire['items'][0]['quantity']} ×" in items
        tracking = text_of(screen, "#detail-tracking")
        assert "pickup" in tracking
        assert wire["bolNumber"] in tracking
        events = text_of(screen, "#detail-events")
        assert len(wire["events"]) == events.count("\n")
        documents = screen.query_one("#documents", OptionList)
        assert documents.option_count == len(wire["documents"])
        if wire["documents"]:
            await pilot.press("s")
            status = screen.query_one("#detail-status")
            await wait_for(pilot, lambda: "Saved" in str(status.render()), what="saved")
            folder = tmp_path / "data" / "documents" / listing.pro_number
            saved = list(folder.iterdir())
            assert len(saved) == 1
            assert saved[0].stat().st_size > 0
            await pilot.press("p")
            assert "No printer configured: set [printers] in the config" in str(status.render())


async def test_j_shows_the_raw_json_and_r_refreshes(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_row(pilot, app, 3)
        raw = screen.query_one("#detail-raw")
        assert not raw.display or not raw.has_class("-shown")
        await pilot.press("j")
        assert raw.has_class("-shown")
        shown = json.loads(str(raw.render()))
        assert shown["id"] == screen.shipment_id
        first = screen.detail
        status = screen.query_one("#detail-status")
        await pilot.press("r")
        await wait_for(
            pilot,
            lambda: screen.detail is not first or str(status.render()) == "no change",
            what="refreshed",
        )
        await pilot.press("a")
        assert "auto-refresh every 30 s" in str(screen.query_one("#detail-status").render())
        await pilot.press("a")
        assert "auto-refresh off" in str(screen.query_one("#detail-status").render())
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen))


async def test_open_shipment_without_listing_and_errors_in_place(sandbox: SandboxApp) -> None:
    transport = FailingTransport(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        shipment_id = table.rows()[0].id
        app.open_shipment(shipment_id)
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen))
        screen = app.screen
        assert isinstance(screen, ShipmentDetailScreen)
        await wait_for(pilot, lambda: screen.detail is not None)
        assert shipment_id in text_of(screen, "#detail-tracking")
        missing = ShipmentDetailScreen("shp_doesnotexist00")
        await app.push_screen(missing)
        status = missing.query_one("#detail-status")
        await wait_for(pilot, lambda: "r to retry" in str(status.render()), seconds=20)
        assert missing.detail is None


@pytest.fixture
def kolkata(monkeypatch: pytest.MonkeyPatch) -> Iterator[ZoneInfo]:
    """The viewer's clock in India (UTC+05:30: every minute shown moves)."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield ZoneInfo("Asia/Kolkata")
    monkeypatch.undo()
    time.tzset()


async def test_times_are_shown_in_the_viewers_local_time(
    sandbox: SandboxApp, kolkata: ZoneInfo
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_row(pilot, app, 2)
        detail = ShipmentDetail.model_validate(await sandbox_detail(sandbox, screen.shipment_id))
        event = detail.events[0]
        assert event.time is not None
        events = text_of(screen, "#detail-events")
        assert event.time.astimezone(kolkata).strftime("%m-%d %H:%M") in events
        assert event.time.astimezone(UTC).strftime("%m-%d %H:%M") not in events
        tracking = detail.tracking
        assert tracking is not None
        assert tracking.pickup_date is not None
        shown = text_of(screen, "#detail-tracking")
        # The pickup is a day at the dock, as the list and the CSV show it (not moved to India).
        assert f"pickup {tracking.pickup_date:%a %m-%d}" in shown
