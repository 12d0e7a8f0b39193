"""The header follows the session's profile by itself: a change reaches every screen's header."""

from __future__ import annotations

from tests.ui.screen import screen_text, settle
from tui.app import make_app
from tui.config.settings import Profile
from tui.screens.quote import QuoteScreen
from tui.session import Session


async def test_a_profile_switch_shows_in_the_headers_of_the_screens_below(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, QuoteScreen)
        assert " DEMO " in screen_text(app).splitlines()[0]
        acme = Profile(name="acme", base_url="https://api.acme.example", environment="production")
        ui_session.switch_profile(acme, "PRODUCTION", None)
        await pilot.pause()
        header = screen_text(app).splitlines()[0]
        assert "acme" in header
        assert " PRODUCTION " in header
        await pilot.press("f4")
        await settle(pilot)
        assert " PRODUCTION " in screen_text(app).splitlines()[0]
