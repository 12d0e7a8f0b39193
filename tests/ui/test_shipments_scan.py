"""Scan to open: a scanner types a PRO, tracking number or BOL and Enter anywhere on the list."""

from __future__ import annotations

from typing import Any

import httpx
from textual.widgets import Input

from tests.ui.screen import wait_for
from tests.ui.test_shipments_support import app_on, open_shipments, service_client
from tui.sandbox.app import SandboxApp
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen


async def deep_listing(sandbox: SandboxApp, **wanted: bool) -> dict[str, Any]:
    """A listing entry far down the list (not on the first page), with the wanted fields."""
    async with service_client(sandbox) as client:
        page = (await client.get("/shipments", params={"limit": "200"})).json()
    for entry in page["shipments"][120:]:
        if all(bool(entry.get(name)) == value for name, value in wanted.items()):
            return dict(entry)
    raise AssertionError(f"no listing with {wanted}")


async def detail_opened(pilot: Any, app: Any, shipment_id: str) -> ShipmentDetailScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen), what="detail")
    screen = app.screen
    assert isinstance(screen, ShipmentDetailScreen)
    await wait_for(pilot, lambda: screen.detail is not None, what="detail loaded")
    assert screen.shipment_id == shipment_id
    return screen


async def test_scanning_a_pro_on_the_list_opens_its_detail(sandbox: SandboxApp) -> None:
    entry = await deep_listing(sandbox, proNumber=True)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        assert entry["id"] not in table
        await pilot.press(*entry["proNumber"], "enter")
        screen = await detail_opened(pilot, app, entry["id"])
        title = str(screen.query_one("#detail-title").render())
        assert entry["proNumber"] in title
        assert entry["carrier"]["scac"] in title  # the carrier comes from the listing


async def test_scanning_a_tracking_number_or_bol_opens_the_shipment(sandbox: SandboxApp) -> None:
    parcel = await deep_listing(sandbox, trackingNumber=True, proNumber=False)
    freight = await deep_listing(sandbox, bolNumber=True)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press(*parcel["trackingNumber"], "enter")
        await detail_opened(pilot, app, parcel["id"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen))
        await pilot.press(*freight["bolNumber"], "enter")
        await detail_opened(pilot, app, freight["id"])


async def test_an_unknown_code_says_no_shipment_matches(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press(*"999000111222", "enter")
        status = app.screen.query_one("#shipments-status")
        await wait_for(pilot, lambda: "no shipment matches" in str(status.render()))
        assert str(status.render()) == "no shipment matches 999000111222"
        assert isinstance(app.screen, ShipmentsScreen)


async def test_scan_characters_do_not_fire_list_keys_and_escape_clears(
    sandbox: SandboxApp,
) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        await pilot.press(*"12G", "e")  # G and e are list keys, but they are part of a code here
        assert table.cursor_row == 0
        assert isinstance(app.screen, ShipmentsScreen)
        status = app.screen.query_one("#shipments-status")
        assert "scan: 12Ge" in str(status.render())
        await pilot.press("escape")
        assert str(status.render()) == ""
        last = table.row_count - 1
        await pilot.press("G")  # a list key again once nothing is being typed
        assert table.cursor_row == last


async def test_enter_in_the_search_field_with_a_scanned_pro_opens_it(sandbox: SandboxApp) -> None:
    entry = await deep_listing(sandbox, proNumber=True)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*entry["proNumber"], "enter")
        await detail_opened(pilot, app, entry["id"])
