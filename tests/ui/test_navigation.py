"""Moving between the main screens with F2/F3/F4 keeps what the user already has."""

from __future__ import annotations

import httpx

from tests.ui.booking_flow import counting_session, open_rates
from tests.ui.screen import screen_text, settle
from tui.app import make_app
from tui.screens.quote import QuoteScreen
from tui.screens.rates import RatesScreen
from tui.session import Session


async def test_f3_brings_back_the_last_rates_without_asking_again(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, counting = counting_session(sandbox_transport, sandbox_base_url)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot)
        assert rates.quote is not None
        quote_id = rates.quote.id
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, QuoteScreen)
        await pilot.press("f3")
        await settle(pilot)
        assert isinstance(app.screen, RatesScreen)
        assert quote_id in screen_text(app)
        assert counting.count("/rates") == 1


async def test_f3_before_any_quote_says_there_are_no_rates(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, QuoteScreen)
        assert any("No rates yet" in str(n.message) for n in app._notifications)


async def test_f4_and_f2_switch_between_shipments_and_the_quote_form(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f4")
        await settle(pilot)
        assert "Shipments" in screen_text(app)
        await pilot.press("alt+1")
        await settle(pilot)
        assert isinstance(app.screen, QuoteScreen)
