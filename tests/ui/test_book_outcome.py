"""Outcome unknown on the real sandbox: the reference is searched, nothing resent unasked."""

from __future__ import annotations

import httpx

from tests.store_full import fill_the_store
from tests.ui.booking_flow import CountingTransport, book_it, choose_rate, ltl_request, open_rates
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import make_app
from tui.demo import DEMO_TOKEN
from tui.screens.book import BookScreen
from tui.screens.book_check import BookingCheckScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.result import ResultScreen
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.session import Session
from tui.widgets.rates_table import RatesTable


class LostTransport(CountingTransport):
    """A CountingTransport whose next `/book` times out before reaching the sandbox."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        super().__init__(inner)
        self.lose_next_booking = True

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/book" and self.lose_next_booking:
            self.lose_next_booking = False
            self.calls.append("/book")
            raise httpx.ReadTimeout("timed out", request=request)
        return await super().handle_async_request(request)


def flat(text: str) -> str:
    return " ".join(text.split())


async def test_an_answer_lost_after_booking_finds_the_shipment_by_its_reference(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    # The sandbox books the shipment, then the answer is lost as a read timeout.
    transport = CountingTransport(sandbox_transport)
    transport.fail_after_forward["/book"] = httpx.ReadTimeout("timed out")
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=transport)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        assert rates.quote is not None
        rate = await choose_rate(pilot, rates, "ltl")
        await book_it(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, BookingCheckScreen), what="check")
        check = app.screen
        assert isinstance(check, BookingCheckScreen)
        await wait_for(pilot, lambda: check.found is not None, what="search answered")
        text = flat(screen_text(app))
        reference = check.record.reference
        assert "Booking outcome unknown" in text
        assert "It was NOT sent again." in text
        assert f"Found 1 shipment for {reference}" in text
        assert transport.count("/book") == 1
        # The reference went out in the booking: the sandbox lists it among the references.
        client = await session.client()
        assert check.found is not None
        detail = await client.get_shipment(check.found[0].id)
        assert detail.raw["references"]["reference"] == reference
        assert detail.raw["references"]["originReferenceNumber"] == reference
        # The search settled the ledger: booked, with the shipment found.
        (record,) = session.ledger().bookings()
        assert (record.outcome, record.shipment_id) == ("booked", detail.id)
        assert (record.quote_id, record.rate_id) == (rates.quote.id, rate.id)
        assert record.time.tzinfo is not None
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ShipmentDetailScreen), what="the detail"
        )
        opened = app.screen
        assert isinstance(opened, ShipmentDetailScreen)
        assert opened.shipment_id == detail.id
        assert transport.count("/book") == 1


async def test_no_answer_and_nothing_found_sends_again_only_after_a_search_and_a_yes(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    transport = LostTransport(sandbox_transport)
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=transport)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book: object = app.screen
        assert isinstance(book, BookScreen)
        await book_it(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, BookingCheckScreen), what="check")
        check = app.screen
        assert isinstance(check, BookingCheckScreen)
        await wait_for(pilot, lambda: check.found is not None, what="search answered")
        first_reference = check.record.reference
        assert f"No shipment found for {first_reference}" in flat(screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is book
        assert f"Not sent again. Reference {first_reference}" in flat(screen_text(app))
        assert transport.count("/book") == 1
        (record,) = session.ledger().bookings()
        assert record.outcome == "unknown"

        # Booking again first searches again; `b` does nothing until that search answered.
        searches = transport.count("/shipments")
        answer = transport.hold("/shipments")  # the search is in flight until this is set
        await pilot.press("ctrl+s")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, BookingCheckScreen)
        assert "Booked before?" in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert app.screen is again
        answer.set()
        await wait_for(pilot, lambda: again.found is not None, what="search answered")
        assert transport.count("/shipments") > searches  # the reference, then the lane
        assert transport.count("/book") == 1
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BookConfirmScreen)
        await pilot.press("enter")
        await settle(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="result")
        assert transport.count("/book") == 2
        outcomes = {b.reference: b.outcome for b in session.ledger().bookings()}
        assert outcomes[first_reference] == "unknown"
        assert sorted(outcomes.values()) == ["booked", "unknown"]


async def test_booked_rates_are_marked_from_the_ledger_of_this_profile(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        assert rates.quote is not None
        quote = rates.quote
        offered = sorted((r for r in quote.rates if r.is_ok), key=lambda r: r.total)
        first, second, third = offered[:3]
        ledger = session.ledger()
        ledger.settle(ledger.sent("someone-else", quote.id, second.id, "FRTX"), "booked")
        ledger.settle(ledger.sent(session.profile_name, quote.id, third.id, "FRTY"), "unknown")
        await choose_rate(pilot, rates, "ltl")  # the cheapest: `first`
        await book_it(pilot)
        assert isinstance(app.screen, ResultScreen)
        app.show_rates()
        await settle(pilot)
        table = app.screen.query_one(RatesTable)
        marks = {key.value: table.get_row(key)[0].plain for key in table.rows}
        assert "✓" in marks[first.id]
        assert "✓" not in marks[second.id]  # booked in another profile only
        assert "?" not in marks[second.id]
        assert "?" in marks[third.id]
        text = screen_text(app)
        assert "✓ booked · ? outcome unknown" in text


async def test_a_ledger_that_cannot_be_written_stops_the_booking_with_the_reason(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    transport = CountingTransport(sandbox_transport)
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=transport)
    fill_the_store(session.ledger().store)  # the disk is full
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        await book_it(pilot)
        await wait_for(pilot, lambda: not app.booking_in_flight, what="the outcome")
        assert app.screen is book
        assert "Not booked: the booking ledger could not be written (the store " in flat(
            screen_text(app)
        )
        assert "the disk is full" in flat(screen_text(app))
        assert "so the booking was not sent." in flat(screen_text(app))
        assert transport.count("/book") == 0
        assert not book.query_one("#book-body").disabled  # the form is the user's again
