"""The app against a second server, written apart from the sandbox: rates, book, search, detail."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import httpx

from tests.independent_server import QUERY, TOKEN, IndependentServer
from tests.ui.booking_flow import open_rates
from tests.ui.screen import screen_text, settle, wait_for
from tui.api.models import RateItem, RateRequest
from tui.app import FreightApp, make_app
from tui.config.settings import AppConfig, Profile
from tui.demo_profile import demo_profile
from tui.screens.book import BookScreen
from tui.screens.book_check import BookingCheckScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.rates import RatesScreen
from tui.screens.result import ResultScreen
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen
from tui.screens.shipments_summary import ShipmentsSummaryScreen
from tui.session import Session
from tui.widgets.rates_table import RatesTable

BASE = "http://indie.test"


def indie_session(
    server: IndependentServer, data_dir: Path, transport: httpx.AsyncBaseTransport | None = None
) -> Session:
    """A SANDBOX session on the independent server, its query names in the profile's [wire]."""
    wire = Profile.model_validate(
        {
            "name": "indie",
            "base_url": BASE,
            "environment": "sandbox",
            "wire": {
                "search_params": {
                    "search": QUERY["text"],
                    "status": QUERY["status"],
                    "mode": QUERY["mode"],
                    "continuationToken": QUERY["token"],
                    "limit": QUERY["size"],
                }
            },
        }
    ).wire
    profile = demo_profile(BASE, data_dir).model_copy(update={"name": "indie", "wire": wire})

    async def connect() -> tuple[str, str]:
        return BASE, TOKEN

    return Session(
        environment="SANDBOX",
        profile=profile,
        config=AppConfig(),
        data_dir=data_dir,
        connect=connect,
        transport=transport or httpx.ASGITransport(app=server.app()),
    )


def request() -> RateRequest:
    """Two pallets from the profile's Chicago dock to its Atlanta consignee."""
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=2, package="pallet")
    return RateRequest(origin_postal_code="60607", dest_postal_code="30303", items=[item])


def current_rates(app: FreightApp) -> RatesScreen:
    screen = app.screen
    assert isinstance(screen, RatesScreen)
    return screen


def flat(text: str) -> str:
    return " ".join(text.split())


async def book_rate(pilot: object, app: FreightApp, rates: RatesScreen, scac: str) -> str:
    """Enter on the rate of a carrier, then book it with the prefilled form; the screen text."""
    assert rates.quote is not None
    rate = next(r for r in rates.quote.rates if r.carrier_code == scac)
    table = rates.query_one(RatesTable)
    table.move_cursor(row=table.get_row_index(rate.id), animate=False)
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    assert isinstance(app.screen, BookScreen)
    await pilot.press("ctrl+s")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    return screen_text(app)


async def test_rates_booking_search_and_detail_against_another_server(tmp_path: Path) -> None:
    server = IndependentServer()
    session = indie_session(server, tmp_path / "data")
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        # "Show = LTL" keeps the rates the server writes as `LTL` and `Ltl`.
        rates = await open_rates(pilot, request(), mode_filter="ltl")
        assert rates.quote is not None
        table = rates.query_one(RatesTable)
        assert {rate.carrier_code for rate in table.view.offered} == {"MLFT", "PRLN"}
        # Cheapest in each currency: 987.25 USD is not "cheaper" than 1,234.50 CAD.
        marks = {key.value: table.get_row(key)[0].plain for key in table.rows}
        assert all("$" in mark for mark in marks.values())
        text = screen_text(app)
        assert "1,234.50 CAD" in text  # the narrow table keeps the code
        assert "cheapest: PRLN 987.25, MLFT 1,234.50 CAD" in text
        assert "987.25" in text
        assert "987.25 USD" not in text

        # Booking the CAD rate: the confirmation says CAD, the answer (201, a PRO, a BOL, the
        # carrier as an object, no shipment id) is a success, sent once.
        confirm = await book_rate(pilot, app, rates, "MLFT")
        assert isinstance(app.screen, BookConfirmScreen)
        assert "1,234.50 CAD" in confirm
        assert "$1,234.50" not in confirm
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        result = flat(screen_text(app))
        assert "PRO7001" in result
        assert "outcome unknown" not in result.lower()
        assert server.requests["POST /book"] == 1
        (record,) = session.ledger().bookings("indie")
        assert (record.outcome, record.pro_number) == ("booked", "PRO7001")

        # Back on the rates, the booked rate is marked; booking it again first searches
        # for the earlier booking, and going back sends nothing.
        app.show_rates()
        await settle(pilot)
        rates = current_rates(app)
        assert "✓ booked" in screen_text(app)
        await book_rate(pilot, app, rates, "MLFT")
        check = app.screen
        assert isinstance(check, BookingCheckScreen)
        await wait_for(pilot, lambda: check.found is not None, what="search answered")
        assert "Found 1 shipment" in flat(screen_text(app))
        assert "1,234.50 CAD" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert server.requests["POST /book"] == 1
        await pilot.press("escape")
        await pilot.pause()

        # The USD rate too: two shipments in two currencies.
        rates = current_rates(app)
        await book_rate(pilot, app, rates, "PRLN")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert server.requests["POST /book"] == 2
        assert len(server.shipments) == 2

        # The list shows the CAD amount with its code at 80 columns; the totals never add
        # the two currencies.
        app.show_shipments()
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen), what="list")
        shipments = app.screen
        assert isinstance(shipments, ShipmentsScreen)
        await wait_for(pilot, lambda: shipments.table.row_count == 2, what="two rows")
        await wait_for(pilot, lambda: "1,234.50 CAD" in screen_text(app), what="the text")
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, ShipmentsSummaryScreen)
        totals = flat(screen_text(app))
        assert "Spend by carrier · USD total 987.25" in totals
        assert "Spend by carrier · CAD total 1,234.50 CAD" in totals
        assert "2,221.75" not in totals
        await pilot.press("escape")
        await pilot.pause()

        # The booking's reference finds it (the listing has no quote ids); Enter opens it.
        app.show_shipments(search=record.reference)
        await wait_for(
            pilot,
            lambda: shipments.table.row_count == 1 and not shipments.is_loading,
            what="the search",
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen), what="detail")
        await settle(pilot)
        detail = flat(screen_text(app))
        assert "PRO7001" in detail
        assert "1,234.50 CAD" in detail
        assert server.requests["POST /book"] == 2


async def test_a_mode_filter_in_capitals_still_shows_that_modes_rates(tmp_path: Path) -> None:
    server = IndependentServer()
    app = make_app(indie_session(server, tmp_path / "data"))
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, request(), mode_filter="LTL")
        table = rates.query_one(RatesTable)
        assert {rate.carrier_code for rate in table.view.offered} == {"MLFT", "PRLN"}
        assert "no LTL offers" not in screen_text(app)


class LostAnswer(httpx.AsyncBaseTransport):
    """The server books the next booking; its answer is lost on the way (a read timeout)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, after: Callable[[], None]) -> None:
        self.inner = inner
        self.after = after

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.url.path == "/book":
            await response.aread()
            self.after()
            raise httpx.ReadTimeout("timed out", request=request)
        return response


async def test_a_lost_answer_on_a_server_that_drops_references_asks_is_this_yours(
    tmp_path: Path,
) -> None:
    server = IndependentServer(keep_references=False, now=lambda: datetime.now(UTC))

    def hostile() -> None:  # the server's words are data: markup and escapes in the carrier
        made = server.shipments[-1]
        made["carrier"] = {"name": "[@click=app.quit]Maple[/] \x1b]0;pwned\x07Leaf", "scac": "MLFT"}

    lost = LostAnswer(httpx.ASGITransport(app=server.app()), hostile)
    session = indie_session(server, tmp_path / "data", lost)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, request(), mode_filter="ltl")
        await book_rate(pilot, app, rates, "MLFT")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BookingCheckScreen), what="check")
        check = app.screen
        assert isinstance(check, BookingCheckScreen)
        await wait_for(pilot, lambda: check.found is not None, what="search answered")
        text = flat(screen_text(app))
        assert f"No shipment shows {check.record.reference}." in text
        assert "1 shipment may be it. Is it yours?" in text
        assert "60607 → 30303 · same lane, created after the booking was sent" in text
        assert "PRO7001" in text
        assert "[@click=app.quit]Mapl…" in text  # shown as text (cut to its room), no link
        assert "pwned" not in text
        (record,) = session.ledger().bookings("indie")
        assert record.outcome == "unknown"  # a candidate is not the booking until the user says
        await pilot.press("y")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ShipmentDetailScreen), what="the shipment"
        )
        (record,) = session.ledger().bookings("indie")
        assert (record.outcome, record.pro_number) == ("booked", "PRO7001")
        assert (
            record.note == "confirmed by the user (same lane, created after the booking was sent)"
        )
        assert server.requests["POST /book"] == 1
        app.switch_mode("quote")
        await pilot.pause()
        assert "Recorded as booked (you confirmed it)" in flat(screen_text(app))
