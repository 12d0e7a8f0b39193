"""Tracking in the UI: the detail's timeline (newest first, local time, fallbacks), `t`, the
list's auto-refresh, and a PRO, BOL or tracking number typed in the search field."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import date, datetime
from datetime import time as dt_time
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from textual.widgets import Input

from tests.ui.screen import screen_text, wait_for
from tests.ui.test_shipments_scan import deep_listing, detail_opened
from tests.ui.test_shipments_support import app_on, open_shipments, service_client
from tui.sandbox.app import SandboxApp
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen


@pytest.fixture
def tokyo_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The viewer sits in Tokyo (the sandbox's events happen in US and Canadian zones)."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


class TrackingTransport(httpx.AsyncBaseTransport):
    """Forwards to the sandbox; answers the tracking endpoint with `status` when it is set."""

    def __init__(
        self, inner: httpx.AsyncBaseTransport, status: int | None = None, *, no_events: bool = False
    ) -> None:
        self.inner = inner
        self.status = status
        self.no_events = no_events
        """Answer the shipment detail without its events too."""
        self.paths: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.paths.append(path)
        if self.status is not None and path.endswith("/tracking"):
            return httpx.Response(self.status, json={"message": "no tracking here"})
        response = await self.inner.handle_async_request(request)
        if self.no_events and path.count("/") == 2 and path.startswith("/shipments/"):
            body = json.loads(await response.aread())
            body.pop("events", None)
            return httpx.Response(response.status_code, json=body)
        return response


async def _delivered_entry(sandbox: SandboxApp) -> dict[str, Any]:
    """A delivered shipment on the first page, with its tracking events as the sandbox serves."""
    async with service_client(sandbox) as client:
        page = (await client.get("/shipments", params={"status": "delivered"})).json()
        entry = page["shipments"][0]
        events = (await client.get(f"/shipments/{entry['id']}/tracking")).json()
    return {**entry, "events": events}


def _event_lines(screen: ShipmentDetailScreen) -> list[str]:
    text = str(screen.query_one("#detail-events").render())
    return [line.strip() for line in text.splitlines()[1:]]


async def _open(pilot: Any, app: Any, shipment_id: str) -> ShipmentDetailScreen:
    app.open_shipment(shipment_id)
    return await detail_opened(pilot, app, shipment_id)


async def test_tracking_events_newest_first_in_local_time(
    sandbox: SandboxApp, tokyo_time: None
) -> None:
    entry = await _delivered_entry(sandbox)
    expected = sorted(
        (
            datetime.combine(
                date.fromisoformat(e["eventDate"]),
                dt_time.fromisoformat(e["eventTime"]),
                ZoneInfo(e["timeZone"]),
            ).astimezone(),
            e["summary"],
        )
        for e in entry["events"]
    )[::-1]
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app, entry["id"])
        await wait_for(pilot, lambda: len(_event_lines(screen)) > 1, what="tracking events")
        lines = _event_lines(screen)
        assert len(lines) == len(expected)
        for line, (moment, summary) in zip(lines, expected, strict=True):
            assert moment.strftime("%m-%d %H:%M JST") in line  # the viewer's clock, not the dock's
            assert summary in line
        assert "delivered" in lines[0].lower()  # the newest event first


async def test_events_are_named_as_freight_track_names_them(sandbox: SandboxApp) -> None:
    """The tracking endpoint has no more events than the shipment record here, so `freight
    track` prints the record's (pending, awarded, …): the app shows those names too, newest
    first, not the endpoint's `booked`, `accepted`."""
    entry = await _delivered_entry(sandbox)
    async with service_client(sandbox) as client:
        recorded = (await client.get(f"/shipments/{entry['id']}")).json()["events"]
    assert len(entry["events"]) <= len(recorded)  # (what makes the CLI keep the record's)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app, entry["id"])
        await wait_for(pilot, lambda: len(_event_lines(screen)) > 1, what="tracking events")
        await pilot.pause(0.2)
        words = [
            line.split()[5] for line in _event_lines(screen)
        ]  # `Fri 11-27 14:26 EST ● delivered`
    newest_first = sorted(recorded, key=lambda e: str(e["time"]), reverse=True)
    assert words == [e["status"] for e in newest_first]
    assert "booked" not in words


async def test_t_brings_the_timeline_into_view(sandbox: SandboxApp) -> None:
    entry = await _delivered_entry(sandbox)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app, entry["id"])
        await wait_for(pilot, lambda: len(_event_lines(screen)) > 1, what="tracking events")

        def heading_row() -> int:
            rows = screen_text(app).splitlines()
            return next((i for i, row in enumerate(rows) if "Tracking events" in row), -1)

        before = heading_row()
        shown = screen_text(app)
        assert not all(line[:40] in shown for line in _event_lines(screen))  # below the fold
        await pilot.press("t")
        await pilot.pause()
        after = heading_row()
        assert after > 0  # the heading in view, under the title
        assert before == -1 or after < before  # below the fold before (-1) or lower down
        shown = screen_text(app)
        assert all(line[:40] in shown for line in _event_lines(screen))  # every event in view


@pytest.mark.parametrize("status", [404, 500])
async def test_without_the_tracking_endpoint_the_detail_events_show_without_an_error(
    sandbox: SandboxApp, status: int
) -> None:
    entry = await _delivered_entry(sandbox)
    transport = TrackingTransport(httpx.ASGITransport(app=sandbox), status=status)
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app, entry["id"])
        await wait_for(pilot, lambda: len(_event_lines(screen)) > 1, what="fallback events")
        assert any(p.endswith("/tracking") for p in transport.paths)
        assert len(_event_lines(screen)) == len(entry["events"])
        assert "delivered" in _event_lines(screen)[0].lower()
        status_line = screen.query_one("#detail-status")
        assert "⚠" not in str(status_line.render())
        assert not status_line.has_class("-error")


async def test_no_events_anywhere_says_none_yet_without_an_error(sandbox: SandboxApp) -> None:
    entry = await _delivered_entry(sandbox)
    transport = TrackingTransport(httpx.ASGITransport(app=sandbox), status=503, no_events=True)
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot, app, entry["id"])
        events = screen.query_one("#detail-events")
        await wait_for(pilot, lambda: "Tracking events" in str(events.render()), what="timeline")
        assert str(events.render()) == "Tracking events  none yet"
        assert not screen.query_one("#detail-status").has_class("-error")


async def test_a_toggles_the_list_auto_refresh(
    sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tui.screens.shipments.AUTO_REFRESH_SECONDS", 0.2)
    transport = TrackingTransport(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        assert not screen.auto.running  # off by default
        searches = transport.paths.count("/shipments")
        await pilot.pause(0.6)
        assert transport.paths.count("/shipments") == searches  # nothing reloads by itself
        await pilot.press("a")
        assert screen.auto.running
        assert "auto-refresh" in str(table.border_subtitle)
        await wait_for(
            pilot, lambda: transport.paths.count("/shipments") >= searches + 2, what="reloads"
        )
        assert "newest first · auto-refresh 0.2 s" in screen_text(app)  # on the table's border
        await pilot.press("a")
        await pilot.pause(0.3)
        assert not screen.auto.running
        assert "auto-refresh" not in str(table.border_subtitle)
        stopped = transport.paths.count("/shipments")
        await pilot.pause(0.6)
        assert transport.paths.count("/shipments") == stopped


@pytest.mark.parametrize("field", ["bolNumber", "trackingNumber"])
async def test_a_bol_or_tracking_number_typed_in_search_finds_the_shipment(
    sandbox: SandboxApp, field: str
) -> None:
    wanted = {field: True} if field == "bolNumber" else {field: True, "proNumber": False}
    entry = await deep_listing(sandbox, **wanted)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        assert entry["id"] not in table
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*entry[field].lower(), "enter")
        await detail_opened(pilot, app, entry["id"])
