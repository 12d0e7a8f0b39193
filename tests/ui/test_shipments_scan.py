"""Scan to open: a scanner's burst + Enter opens the shipment where focus takes scans."""

from __future__ import annotations

from typing import Any

import httpx
from textual import events
from textual.widgets import Input, Select

from tests.ui.booking_flow import CountingTransport
from tests.ui.scanning import key_for, scan, slow_scan
from tests.ui.screen import wait_for
from tests.ui.test_shipments_support import (
    app_on,
    open_shipments,
    service_client,
    shipments_screen,
)
from tui.sandbox.app import SandboxApp
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen
from tui.screens.shipments_export import ExportDialog


async def deep_listing(sandbox: SandboxApp, **wanted: bool) -> dict[str, Any]:
    """A listing entry far down the list (not on the first page), with the wanted fields."""
    async with service_client(sandbox) as client:
        page = (await client.get("/shipments", params={"limit": "200"})).json()
    for entry in page["shipments"][120:]:
        if all(bool(entry.get(name)) == value for name, value in wanted.items()):
            return dict(entry)
    raise AssertionError(f"no listing with {wanted}")


async def detail_opened(pilot: Any, app: Any, shipment_id: str) -> ShipmentDetailScreen:
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, ShipmentDetailScreen) and app.screen.shipment_id == shipment_id
        ),
        what="detail",
    )
    screen = app.screen
    assert isinstance(screen, ShipmentDetailScreen)
    await wait_for(pilot, lambda: screen.detail is not None, what="detail loaded")
    return screen


async def test_scanning_a_pro_on_the_list_opens_its_detail(sandbox: SandboxApp) -> None:
    entry = await deep_listing(sandbox, proNumber=True)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        assert entry["id"] not in table
        await scan(pilot, entry["proNumber"])
        screen = await detail_opened(pilot, app, entry["id"])
        title = str(screen.query_one("#detail-title").render())
        assert entry["proNumber"] in title
        assert entry["carrier"]["scac"] in title  # the carrier comes from the listing


async def test_a_scan_on_the_detail_opens_the_next_shipment(sandbox: SandboxApp) -> None:
    parcel = await deep_listing(sandbox, trackingNumber=True, proNumber=False)
    freight = await deep_listing(sandbox, bolNumber=True)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await scan(pilot, parcel["trackingNumber"])
        await detail_opened(pilot, app, parcel["id"])
        await scan(pilot, freight["bolNumber"])  # straight from the detail
        await detail_opened(pilot, app, freight["id"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen))
        status = app.screen.query_one("#shipments-status")
        assert str(status.render()) == ""  # nothing of the scan is left on the list


async def test_a_scan_in_any_field_changes_no_value_and_runs_no_key(sandbox: SandboxApp) -> None:
    """Shipment ids start with letters the list binds (`s` sorts): none of them runs. The
    fields that take scans: the list, the drop-downs, the empty search (not a date field)."""
    entry = await deep_listing(sandbox, proNumber=True)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        for selector in ("#status-filter", "#mode-filter", "#search-input", None):
            target = table if selector is None else screen.query_one(selector)
            target.focus()
            await pilot.pause()
            await scan(pilot, entry["id"])
            await detail_opened(pilot, app, entry["id"])
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)
            assert screen.focused is target, selector
            for name in ("#status-filter", "#mode-filter"):
                assert screen.query_one(name, Select).is_blank(), name
            for name in ("#pickup-from", "#pickup-to", "#search-input"):
                assert screen.query_one(name, Input).value == "", name
            assert table.sort_column is None, selector


async def test_a_date_typed_at_scanner_speed_with_enter_is_kept_as_typed(
    sandbox: SandboxApp,
) -> None:
    """A date field takes no scans: `2026-11-02` and Enter in one burst (an SSH stall) is
    the date, not a code to open; so is a typed search after text already in the field."""
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        date = screen.query_one("#pickup-from", Input)
        date.focus()
        await pilot.pause()
        await scan(pilot, "2026-11-02")
        await wait_for(pilot, lambda: date.value == "2026-11-02", what="the date typed")
        assert app.screen is screen
        search = screen.query_one("#search-input", Input)
        search.focus()
        await scan(pilot, "SO", enter=False)
        await wait_for(pilot, lambda: search.value == "SO", what="typed")
        await scan(pilot, "1234", enter=False)  # into a field with text: typing, not a scan
        await wait_for(pilot, lambda: search.value == "SO1234", what="typed on")
        assert app.screen is screen


async def test_an_unknown_code_says_no_shipment_matches(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await scan(pilot, "999000111222")
        status = app.screen.query_one("#shipments-status")
        await wait_for(pilot, lambda: "no shipment matches" in str(status.render()))
        assert str(status.render()) == "no shipment matches 999000111222"
        assert isinstance(app.screen, ShipmentsScreen)


async def test_keys_typed_by_a_person_reach_the_list_and_the_search(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        await pilot.press("s")  # a person's key: held a moment, then the list's own
        assert table.sort_column is not None
        await pilot.press("1", "2")  # typed on the list: a search starts with them
        search = screen.query_one("#search-input", Input)
        assert search.value == "12"
        assert screen.focused is search


async def test_a_short_fast_burst_is_typing_not_a_scan(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        search = screen.query_one("#search-input", Input)
        search.focus()
        await pilot.pause()
        await scan(pilot, "Chicago Heights", enter=False)  # a paste-like run with a space
        await wait_for(pilot, lambda: search.value == "Chicago Heights", what="typed")
        await scan(pilot, "abc")  # three keys and Enter: too short for a scan
        await wait_for(pilot, lambda: search.value == "Chicago Heightsabc", what="typed")
        search.value = ""
        search.focus()
        await scan(pilot, "Peoria")  # a word and Enter, fast (a paste): a search, not a scan
        await wait_for(pilot, lambda: search.value == "Peoria", what="typed")
        await wait_for(pilot, lambda: screen.focused is screen.table, what="Enter: to the list")
        assert app.screen is screen


async def test_enter_on_a_pro_in_the_search_field_opens_it_with_no_search_of_its_own(
    sandbox: SandboxApp,
) -> None:
    entry = await deep_listing(sandbox, proNumber=True)
    transport = CountingTransport(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*entry["proNumber"])  # the list searches as it is typed…
        screen = shipments_screen(app)
        await wait_for(
            pilot,
            lambda: screen.filters_bar.posted.text == entry["proNumber"] and not screen.is_loading,
            what="the search for the whole PRO",
        )
        before = transport.count("/shipments")
        await pilot.press("enter")  # …and Enter opens the row it found: no search of its own
        await detail_opened(pilot, app, entry["id"])
        await pilot.pause(0.3)  # a second search would have been sent by now
        assert transport.count("/shipments") == before


async def test_esc_clears_the_search(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        await pilot.press("slash", *"Chicago")
        await wait_for(pilot, lambda: '"Chicago"' in str(table.border_title), what="searched")
        await pilot.press("escape")  # cleared, and back on the list at once
        search = screen.query_one("#search-input", Input)
        assert search.value == ""
        assert screen.focused is table
        await wait_for(pilot, lambda: '"Chicago"' not in str(table.border_title), what="cleared")
        await pilot.press("e")  # the list's key: the export, not an "e" in the search
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog), what="the export")
        assert search.value == ""


async def test_an_empty_result_says_so_instead_of_searching(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        screen.filters_bar.set_search("Zzyzxnowhere")
        await wait_for(pilot, lambda: table.row_count == 0 and not screen.is_loading)
        await pilot.pause()
        text = "\n".join(line.text for line in table.render_lines(table.region.reset_offset))
        assert "searching" not in text
        assert "no shipments match" in text


async def test_keys_typed_ahead_of_tab_land_in_their_own_fields(sandbox: SandboxApp) -> None:
    """Held keys are handed on in order: Tab still moves focus as it arrives (the forms'
    type-ahead), so the dates typed around it land in "from" and "to"."""
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        screen = app.screen
        assert isinstance(screen, ShipmentsScreen)
        start, end = screen.query_one("#pickup-from", Input), screen.query_one("#pickup-to", Input)
        start.focus()
        await pilot.pause()
        for key in [
            *map(key_for, "2026-11-01"),
            events.Key("tab", "\t"),
            *map(key_for, "2026-11-30"),
        ]:
            app.post_message(key)
        await wait_for(pilot, lambda: end.value == "2026-11-30", what="the second date")
        assert start.value == "2026-11-01"
        assert app.focused is end
        assert app.screen is screen


async def test_enter_on_a_searched_zip_goes_to_its_matches_with_no_error(
    sandbox: SandboxApp,
) -> None:
    """A ZIP looks like a code but names no one shipment: Enter goes to the rows it matched,
    and the status does not say "no shipment matches" over them."""
    entry = await deep_listing(sandbox, proNumber=True)
    wanted = entry["origin"]["postalCode"]
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        await pilot.press("slash", *wanted)
        await wait_for(
            pilot,
            lambda: screen.filters_bar.posted.text == wanted and not screen.is_loading,
            what="the search for the ZIP",
        )
        assert table.row_count > 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.focused is table, what="Enter: to the matches")
        await pilot.pause(0.3)  # a lookup of its own would have answered by now
        status = str(screen.query_one("#shipments-status").render())
        assert "no shipment matches" not in status
        assert table.row_count > 1
        assert app.screen is screen


async def test_a_slow_scan_on_the_list_goes_through_the_search_and_leaving_clears_it(
    sandbox: SandboxApp,
) -> None:
    """A shipment id (`s` sorts, `e` exports on the list) 35 ms a key: no key of it runs; it
    is typed into the search, its Enter opens the shipment, and back on the list the search
    is empty again, so the next scan is not appended to it."""
    entry = await deep_listing(sandbox)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        sort = (table.sort_column, table.sort_reverse)
        await slow_scan(pilot, entry["id"])
        await detail_opened(pilot, app, entry["id"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="back on the list")
        search = screen.query_one("#search-input", Input)
        await wait_for(pilot, lambda: search.value == "", what="search cleared")
        assert screen.focused is table
        assert (table.sort_column, table.sort_reverse) == sort
        assert not isinstance(app.screen, ExportDialog)
        await scan(pilot, entry["id"])  # the next scan opens, nothing appended
        await detail_opened(pilot, app, entry["id"])
