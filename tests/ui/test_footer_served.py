"""Served (`freight serve`), the footer shows keys a browser lets through: ctrl+n, ctrl+t and
ctrl+w open and close the browser's windows and tabs and never reach the page."""

from __future__ import annotations

import pytest

from tests.ui.screen import settle
from tui.app import make_app
from tui.screens.quote import QuoteScreen
from tui.session import Session
from tui.widgets.footer import FreightFooter
from tui.workspace import SERVE_SESSION_ENV


def footer_keys(footer: FreightFooter) -> dict[str, str]:
    """Each shown action's description, and the key shown for it."""
    shown, _palette = footer.keys()
    return {key.description: key.key for key in shown}


@pytest.mark.parametrize("served", [False, True])
async def test_the_quote_footer_shows_keys_a_browser_lets_through(
    ui_session: Session, monkeypatch: pytest.MonkeyPatch, served: bool
) -> None:
    if served:
        monkeypatch.setenv(SERVE_SESSION_ENV, "tab-1")
    else:
        monkeypatch.delenv(SERVE_SESSION_ENV, raising=False)
    app = make_app(ui_session)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, QuoteScreen)
        keys = footer_keys(app.screen.query_one(FreightFooter))
        if served:
            assert (keys["Add"], keys["Tmpl"]) == ("f5", "f8")
            assert not {"ctrl+n", "ctrl+t", "ctrl+w"} & set(keys.values())
            # The key shown works: F5 adds a row.
            rows = len(app.screen.query(".item-row"))
            await pilot.press("f5")
            await settle(pilot)
            assert len(app.screen.query(".item-row")) == rows + 1
        else:
            assert (keys["Add"], keys["Tmpl"]) == ("ctrl+n", "ctrl+t")  # the terminal's
