"""Booking onto a pickup day already closed (`freight day close`), whole or for the rate's
carrier, asks first: nothing is sent until the user has confirmed twice."""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from tests.ui.booking_flow import choose_rate, counting_session, ltl_request, open_rates
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import make_app
from tui.domain.pickup_dates import next_business_day, short_date
from tui.screens.book import BookScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.result import ResultScreen
from tui.store.days import close_day


def top(app: App[Any]) -> Screen[Any]:
    """The screen on top (a function: a narrowed `app.screen` would stick)."""
    return app.screen


def flat(text: str) -> str:
    """The screen's words in one line, without the dialog's borders."""
    return " ".join(word for word in text.split() if word not in ("│", "┃", "█"))


async def warned(pilot: Pilot[Any], warning: str, station: str) -> None:
    """ctrl+s asks, saying ``warning`` (closed by ``station``); one Enter books nothing."""
    app = pilot.app
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(app.screen, BookConfirmScreen), what="confirm")
    await wait_for(pilot, lambda: warning in flat(screen_text(app)), what="the warning")
    assert f"by {station}" in flat(screen_text(app))
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, BookConfirmScreen), "one Enter books nothing"


async def test_booking_onto_a_closed_day_warns_and_needs_a_second_enter(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    day = next_business_day(date.today())  # the Book screen's own today
    ledger = session.ledger()
    close_day(ledger.store, day, ledger.environment, "dock-2", ("manifest-x.csv", "bols.pdf"))
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request().model_copy(update={"pickup_date": day}))
        rate = await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        warning = f"{short_date(day)} is already closed for {rate.carrier}: its manifest was sent"
        await warned(pilot, warning, "dock-2")
        assert "enter again to book anyway" in screen_text(app)
        assert transport.count("/book") == 0
        await pilot.press("escape")
        await pilot.pause()
        assert top(app) is book
        assert "Not booked." in screen_text(app)
        assert transport.count("/book") == 0
        # asked again, and confirmed twice: booked
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: warning in flat(screen_text(app)), what="the warning")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the result")
        await settle(pilot)
        assert transport.count("/book") == 1


async def test_an_open_day_books_with_one_enter(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    day = next_business_day(date.today())
    ledger = session.ledger()
    close_day(ledger.store, next_business_day(day), ledger.environment, "dock-2")  # another day
    close_day(ledger.store, day, ledger.environment, "dock-2", carrier="Another Carrier Inc")
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request().model_copy(update={"pickup_date": day}))
        await choose_rate(pilot, rates, "ltl")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, BookConfirmScreen), what="confirm")
        assert "already closed" not in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the result")
        await settle(pilot)
        assert transport.count("/book") == 1


@pytest.mark.slow  # the rates, then the Book screen: 5-10 s
async def test_booking_with_a_carrier_closed_alone_that_day_warns(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    """The carrier's driver came and went (``freight day close --carrier``): the day is open
    for the other carriers, not for this one."""
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    day = next_business_day(date.today())
    ledger = session.ledger()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request().model_copy(update={"pickup_date": day}))
        rate = await choose_rate(pilot, rates, "ltl")
        assert rate.carrier
        close_day(ledger.store, day, ledger.environment, "pack-1", carrier=rate.carrier.upper())
        await warned(pilot, f"{short_date(day)} is already closed for {rate.carrier}", "pack-1")
        assert transport.count("/book") == 0
