"""Moving between the main screens with F2/F3/F4 or alt+1/2/3 keeps what the user already has."""

from __future__ import annotations

import httpx
from textual import events
from textual.widgets import Input

from tests.textual_probes import notifications, parse_terminal_input
from tests.ui.booking_flow import counting_session, open_rates
from tests.ui.screen import screen_text, settle
from tui.app import make_app, read_alt_keys_at_once
from tui.screens.help import HelpScreen
from tui.screens.quote import QuoteScreen
from tui.screens.rates import RatesScreen
from tui.screens.shipments import ShipmentsScreen
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
        assert any("No rates yet" in str(n.message) for n in notifications(app))


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


def test_escape_and_a_digit_read_as_alt_at_once_even_with_keys_right_behind() -> None:
    """What tmux, screen and xterm send for alt+1: ESC 1 (Textual alone reads `¡`); alt+letter
    too, with no wait for more."""
    read_alt_keys_at_once()
    keys = [
        (key.key, key.character)
        for key in parse_terminal_input("\x1b1ab\x1b3\x1bh\x1bl\x1b[A\x1bb")
        if isinstance(key, events.Key)
    ]
    assert keys == [
        ("alt+1", None),
        ("a", "a"),
        ("b", "b"),
        ("alt+3", None),
        ("alt+h", None),
        ("alt+l", None),
        ("up", None),
        ("ctrl+left", None),  # iTerm's word-left, kept
    ]


async def test_alt_keys_switch_screens_and_never_type_into_the_focused_field(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        quote = app.screen
        assert isinstance(quote, QuoteScreen)
        field = app.focused
        assert isinstance(field, Input)
        await pilot.press(*"303")
        # Also as Textual reports alt+key after its wait: with the key's character.
        for key in (events.Key("alt+9", "9"), events.Key("alt+x", "x")):
            app.post_message(key)
            await pilot.pause()
        assert field.value == "303"
        app.post_message(events.Key("alt+3", "3"))
        await settle(pilot)
        assert isinstance(app.screen, ShipmentsScreen)
        await pilot.press("alt+h")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("alt+h")  # again: closes it
        assert isinstance(app.screen, ShipmentsScreen)
        await pilot.press("alt+1")
        await settle(pilot)
        assert app.screen_stack[-1] is quote
        assert field.value == "303"
