"""The shipments list on a sandbox holding 2,000 shipments: paging, filters, text, sort."""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
import pytest
from textual.widgets import Input, Select

from tests.ui.screen import wait_for
from tests.ui.test_shipments_support import (
    DelayFirstTransport,
    FailingTransport,
    HeldSearches,
    app_on,
    open_shipments,
    service_client,
    shipments_screen,
)
from tui.sandbox.app import SandboxApp
from tui.screens.shipments import ShipmentsScreen


async def all_listed(sandbox: SandboxApp, **params: str) -> list[dict[str, Any]]:
    """Every listing entry the sandbox returns for `params` (read straight from the service)."""
    found: list[dict[str, Any]] = []
    async with service_client(sandbox) as client:
        token: str | None = None
        while True:
            query = {**params, "limit": "200", **({"continuationToken": token} if token else {})}
            page = (await client.get("/shipments", params=query)).json()
            found += page["shipments"]
            token = page.get("continuationToken")
            if not token:
                return found


async def load_everything(pilot: Any, app: Any) -> None:
    screen = shipments_screen(app)
    for _ in range(300):
        if screen.paging.complete:
            return
        await pilot.press("G")
        await wait_for(pilot, lambda: not screen.is_loading, what="page")
    raise AssertionError("never finished loading")


async def filtered(pilot: Any, app: Any, apply: Any) -> None:
    """Apply a filter change and wait for the new first page."""
    screen = shipments_screen(app)
    before = screen.paging.generation
    apply()
    await wait_for(pilot, lambda: screen.paging.generation > before, what="new search")
    await wait_for(pilot, lambda: not screen.is_loading, what="filtered page")


async def test_paging_to_the_end_loads_every_shipment_once(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        assert str(table.border_title) == "Shipments · 50 loaded, more…"
        await load_everything(pilot, app)
        ids = [row.id for row in table.rows()]
        assert len(ids) == 2000
        assert len(set(ids)) == 2000
        assert str(table.border_title) == "Shipments · 2,000 shipments, all loaded"
        await pilot.press("home", "G")
        assert table.cursor_row == 1999
        assert table.cursor_key == ids[-1]


async def test_status_and_mode_filters_show_only_matching_shipments(sandbox: SandboxApp) -> None:
    expected = {s["id"] for s in await all_listed(sandbox, status="delivered", mode="ltl")}
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        await filtered(
            pilot,
            app,
            lambda: setattr(app.screen.query_one("#status-filter", Select), "value", "delivered"),
        )
        assert {row.status for row in table.rows()} == {"delivered"}
        assert "delivered" in str(table.border_title)
        await filtered(
            pilot,
            app,
            lambda: setattr(app.screen.query_one("#mode-filter", Select), "value", "ltl"),
        )
        await load_everything(pilot, app)
        assert {row.id for row in table.rows()} == expected
        assert {(row.status, row.mode) for row in table.rows()} == {("delivered", "ltl")}
        assert f"{len(expected):,} shipments, all loaded" in str(table.border_title)


async def test_typed_pickup_dates_narrow_the_list(sandbox: SandboxApp) -> None:
    every = await all_listed(sandbox)
    day = sorted(s["pickupDate"][:10] for s in every if s.get("pickupDate"))[len(every) // 2]
    listed = await all_listed(sandbox, pickupDateFrom=day, pickupDateTo=day)
    expected = {s["id"] for s in listed}
    assert {s["id"] for s in every if (s.get("pickupDate") or "")[:10] == day} <= expected
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before = screen.paging.generation
        app.screen.query_one("#pickup-from", Input).focus()
        await pilot.press(*day)
        app.screen.query_one("#pickup-to", Input).focus()
        await pilot.press(*day, "enter")
        wanted = date.fromisoformat(day)
        await wait_for(pilot, lambda: screen.filters_bar.posted.pickup_to == wanted)
        await wait_for(pilot, lambda: screen.paging.generation > before and not screen.is_loading)
        await load_everything(pilot, app)
        assert {row.id for row in table.rows()} == expected
        # (the sandbox lists canceled shipments without their pickup date)
        assert {row.pickup_date for row in table.rows()} - {None} == {date.fromisoformat(day)}
        assert app.screen.query_one("#pickup-shortcut", Select).value == "custom"


async def test_a_bad_date_is_shown_at_the_field_and_kept(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        field = app.screen.query_one("#pickup-from", Input)
        field.focus()
        await pilot.press(*"2026-13-45", "enter")
        await pilot.pause()
        assert field.value == "2026-13-45"
        assert field.has_class("-invalid")
        assert "not a calendar date" in str(app.screen.query_one("#filters-error").render())
        assert table.row_count == 50


async def test_pickup_shortcut_fills_the_dates(
    sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.screens.shipments as module

    monkeypatch.setattr(module, "today", lambda: date(2026, 11, 19))  # a Thursday
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        await filtered(
            pilot,
            app,
            lambda: setattr(app.screen.query_one("#pickup-shortcut", Select), "value", "this-week"),
        )
        assert app.screen.query_one("#pickup-from", Input).value == "2026-11-16"
        assert app.screen.query_one("#pickup-to", Input).value == "2026-11-22"
        assert "pickup 2026-11-16–2026-11-22" in str(shipments_screen(app).table.border_title)


async def test_free_text_search_after_slash_asks_at_once_and_filters(sandbox: SandboxApp) -> None:
    every = await all_listed(sandbox)
    city = every[7]["origin"]["city"]
    expected = {s["id"] for s in await all_listed(sandbox, search=city)}
    transport = HeldSearches(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        transport.hold = True
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        assert app.focused.id == "search-input"
        await pilot.press(city[0])
        await wait_for(pilot, lambda: transport.texts == [city[0]], what="the first key's search")
        await pilot.press(*city[1:])  # typed while the first key's search is in flight
        assert screen.filters_bar.posted.text == city
        await pilot.pause()
        assert transport.texts == [city[0]], "one search in flight, the latest text waits"
        transport.release_one()
        await wait_for(pilot, lambda: transport.texts == [city[0], city], what="the waiting one")
        transport.hold = False
        transport.release_one()  # (continuation pages are not held)
        await wait_for(pilot, lambda: not screen.is_loading)
        await load_everything(pilot, app)
        assert {row.id for row in table.rows()} == expected
        for row in table.rows():
            assert city in (row.origin.city, row.destination.city) or city.lower() in (
                f"{row.origin.company} {row.destination.company}".lower()
            )


async def test_the_answer_for_text_typed_before_is_never_shown(sandbox: SandboxApp) -> None:
    transport = HeldSearches(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before = [row.id for row in table.rows()]
        transport.hold = True
        screen.filters_bar.set_search("Zzzz-no-such-text")
        await wait_for(pilot, lambda: len(transport.texts) == 1, what="the first search")
        asked = screen.paging.generation
        screen.filters_bar.set_search("")
        screen.filters_bar.set_search("Q")
        screen.filters_bar.set_search("")  # back to the start: the latest filters win
        await wait_for(pilot, lambda: screen.paging.generation == asked + 3, what="3 changes")
        transport.release_one()  # "no such text" answers: nothing matches, and it is dropped
        await wait_for(pilot, lambda: len(transport.texts) == 2, what="the waiting search")
        assert transport.texts[-1] == ""
        assert [row.id for row in table.rows()] == before, "the empty answer was not shown"
        transport.hold = False
        transport.release_one()
        await wait_for(pilot, lambda: not screen.is_loading)
        assert [row.id for row in table.rows()] == before


async def test_typing_over_rows_keeps_them_named_until_the_latest_text_answers(
    sandbox: SandboxApp,
) -> None:
    every = await all_listed(sandbox)
    final = every[7]["origin"]["city"][:3]
    expected = [s["id"] for s in await all_listed(sandbox, search=final)]
    transport = HeldSearches(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        before, title = [row.id for row in table.rows()], str(table.border_title)
        transport.hold = True
        await pilot.press("slash", final[0])
        await wait_for(pilot, lambda: transport.texts == [final[0]], what="the first key's")
        await pilot.press(*final[1:])  # typed while the first key's search is in flight
        assert screen.filters_bar.posted.text == final
        # Meanwhile the list shows, and its title names, the rows it has; the header says
        # a search is on its way.
        await wait_for(pilot, lambda: "searching shipments" in app.activity_text, what="words")
        assert [row.id for row in table.rows()] == before
        assert str(table.border_title) == title
        transport.release_one()  # the first key's answer comes late: dropped, never shown
        await wait_for(pilot, lambda: transport.texts == [final[0], final], what="the latest")
        assert [row.id for row in table.rows()] == before
        transport.hold = False
        transport.release_one()
        await wait_for(pilot, lambda: not screen.is_loading, what="the latest answer")
        shown = [row.id for row in table.rows()]
        assert shown
        assert shown == expected[: len(shown)]
        assert f'"{final}"' in str(table.border_title)
        assert "searching" not in app.activity_text


async def test_a_search_asked_ahead_shows_at_once_when_its_text_is_let_go(
    sandbox: SandboxApp,
) -> None:
    transport = HeldSearches(httpx.ASGITransport(app=sandbox))
    city = (await all_listed(sandbox))[3]["destination"]["city"]
    expected = [entry["id"] for entry in await all_listed(sandbox, search=city)]
    freight = app_on(transport)
    async with freight.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, freight)
        before, screen = [row.id for row in table.rows()], shipments_screen(freight)
        transport.hold = True
        # Keys held as a possible scan would type the city: asked ahead, not shown.
        screen.burst_held(city)
        await wait_for(pilot, lambda: transport.texts == [city], what="the search asked ahead")
        assert [row.id for row in table.rows()] == before
        assert screen.filters_bar.posted.text == ""
        # Let go as text, the search takes that page (there, or on its way): no second request.
        transport.hold = False
        transport.release_one()
        screen.filters_bar.set_search(city)
        await wait_for(pilot, lambda: not screen.is_loading, what="the page asked ahead")
        shown = [row.id for row in table.rows()]
        assert shown
        assert shown == expected[: len(shown)]
        assert transport.texts == [city]
        # A page asked ahead for other text (a scan's first key) is never shown.
        screen.filters_bar.set_search("")
        await wait_for(pilot, lambda: not screen.is_loading, what="the whole list")
        transport.hold = True
        screen.burst_held("Zzzz-no-such-text")
        await wait_for(pilot, lambda: transport.texts[-1] == "Zzzz-no-such-text", what="ahead")
        transport.release_one()
        transport.hold = False
        screen.filters_bar.set_search(city)
        await wait_for(pilot, lambda: not screen.is_loading, what="the city's search")
        assert [row.id for row in table.rows()][: len(shown)] == shown


async def test_apply_search_shows_the_list_filtered_to_a_quote_id(sandbox: SandboxApp) -> None:
    every = await all_listed(sandbox)
    quote_id = next(s["quoteId"] for s in every if s.get("quoteId"))
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, app)
        app.show_quote()
        await pilot.pause()
        app.show_shipments(search=quote_id)
        screen = shipments_screen(app)
        await wait_for(pilot, lambda: screen.filters_bar.posted.text == quote_id)
        await wait_for(pilot, lambda: not screen.is_loading)
        assert [row.quote_id for row in screen.table.rows()] == [quote_id]
        assert app.screen.query_one("#search-input", Input).value == quote_id


async def test_show_shipments_with_a_search_on_a_fresh_app(sandbox: SandboxApp) -> None:
    every = await all_listed(sandbox)
    quote_id = next(s["quoteId"] for s in every[30:] if s.get("quoteId"))
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_shipments(search=quote_id)
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen))
        screen = shipments_screen(app)
        await wait_for(pilot, lambda: screen.filters_bar.posted.text == quote_id)
        await wait_for(pilot, lambda: not screen.is_loading and screen.paging.pages > 0)
        assert [row.quote_id for row in screen.table.rows()] == [quote_id]


async def test_a_late_page_for_old_filters_is_dropped(sandbox: SandboxApp) -> None:
    transport = DelayFirstTransport(httpx.ASGITransport(app=sandbox))
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        app.screen.query_one("#status-filter", Select).value = "canceled"
        await wait_for(pilot, lambda: transport.first_seen.is_set(), what="held request")
        app.screen.query_one("#status-filter", Select).value = "delivered"
        await pilot.pause()
        assert screen.is_loading, "the delivered search waits for the canceled one"
        transport.release.set()
        await wait_for(pilot, lambda: not screen.is_loading and screen.paging.pages > 0)
        statuses = {row.status for row in table.rows()}
        assert statuses == {"delivered"}
        assert "delivered" in str(table.border_title)


@pytest.mark.parametrize("failure", ["503", "429", "connect"])
async def test_errors_show_in_place_keep_rows_and_r_retries(
    sandbox: SandboxApp, failure: str
) -> None:
    transport = FailingTransport(httpx.ASGITransport(app=sandbox), failure)
    app = app_on(transport)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        loaded = [row.id for row in table.rows()]
        transport.failing = True
        await pilot.press("G")
        await wait_for(pilot, lambda: transport.failed > 0 and not screen.is_loading, seconds=30)
        assert [row.id for row in table.rows()] == loaded
        assert "press r to retry" in (table.tail_text or "")
        assert "error" in str(table.border_title)
        transport.failing = False
        await pilot.press("r")
        await wait_for(pilot, lambda: not screen.is_loading and table.row_count > len(loaded))
        assert [row.id for row in table.rows()][: len(loaded)] == loaded
        assert table.row_count == 100
        assert table.tail_text is None


async def test_sorting_loaded_rows_by_total_and_back(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        shipments_screen(app).action_sort("total")
        totals = [row.total for row in table.rows()]
        assert totals == sorted(totals)  # type: ignore[type-var]
        assert table.border_subtitle == "sorted by Total ▲"
        await pilot.press("S")
        totals = [row.total for row in table.rows()]
        assert totals == sorted(totals, reverse=True)  # type: ignore[type-var]
        assert table.border_subtitle == "sorted by Total ▼"


async def test_wide_terminal_shows_every_column(sandbox: SandboxApp) -> None:
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(120, 40)) as pilot:
        table = await open_shipments(pilot, app)
        assert table.column_keys_shown == [
            "reference",
            "created",
            "pickup",
            "status",
            "mode",
            "origin",
            "destination",
            "carrier",
            "total",
        ]
    narrow = app_on(httpx.ASGITransport(app=sandbox))
    async with narrow.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, narrow)
        shown = table.column_keys_shown
        assert {"reference", "status", "origin", "destination", "total"} <= set(shown)
        assert "carrier" not in shown


async def test_typing_in_the_search_lays_nothing_out_from_the_field(
    sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual's Input lays the whole screen out at every key (its text's width changed);
    # the search is 1fr wide whatever it holds, so a key only repaints it.
    from textual.widget import Widget

    layouts: list[Widget] = []
    refresh = Widget.refresh

    def counted(self: Widget, *regions: Any, **options: Any) -> Widget:
        if options.get("layout") and isinstance(self, Input):
            layouts.append(self)
        return refresh(self, *regions, **options)

    freight = app_on(httpx.ASGITransport(app=sandbox))
    async with freight.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, freight)
        screen = shipments_screen(freight)
        search = screen.query_one("#search-input", Input)
        search.focus()
        await pilot.pause()
        search.value = "a"  # text in it: the keys go in as typed, never held as a scan
        search.cursor_position = 1
        monkeypatch.setattr(Widget, "refresh", counted)
        await pilot.press("t", "l", "a")
        await wait_for(pilot, lambda: search.value == "atla", what="the keys in the search")
        await wait_for(pilot, lambda: not screen.is_loading, what="the search")
        assert layouts == []


class SearchesSent(httpx.AsyncBaseTransport):
    """Records the search text of every listing request."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.searches: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/shipments"):
            self.searches.append(request.url.params.get("search", ""))
        return await self.inner.handle_async_request(request)


async def test_a_key_on_the_list_asks_the_service_for_no_search(sandbox: SandboxApp) -> None:
    # A lone key held as a possible scan's first is a key there (e exports), never text:
    # nothing is searched ahead for it.
    from tui.screens.shipments_export import ExportDialog

    transport = SearchesSent(httpx.ASGITransport(app=sandbox))
    freight = app_on(transport)
    async with freight.run_test(size=(80, 24)) as pilot:
        await open_shipments(pilot, freight)
        sent = len(transport.searches)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(freight.screen, ExportDialog), what="export")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(freight.screen, ShipmentsScreen), what="list")
        assert [text for text in transport.searches[sent:] if text] == []
