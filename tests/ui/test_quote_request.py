"""A valid quote form becomes the rate request the rates screen sends (real sandbox)."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal

from tests.ui.test_quote import fill_row, start, type_text
from tui.app import make_app
from tui.screens.quote import QuoteScreen
from tui.screens.rates import RatesScreen
from tui.session import Session
from tui.widgets.drop_down import DropDown


async def test_ctrl_r_sends_the_form_as_typed_to_the_rates_screen(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303-1234")
        # destination type: Limited access (4th); then the mode filter: LTL (2nd)
        await pilot.press("tab", "down", "down", "down", "down", "enter")
        await pilot.press("tab", "down", "down", "enter", "tab")
        await fill_row(pilot, "2", "pal", "800", "48", "40", "47.5", "", "Machine parts")
        await pilot.press("enter")  # a new blank row: left empty, it is not sent
        await fill_row(pilot, "1", "cr", "350", "40", "30", "36", "100")
        assert screen.query_one("#quote-mode", DropDown).value == "ltl"
        await pilot.press("ctrl+r")
        await pilot.pause()
        rates = app.screen
        assert isinstance(rates, RatesScreen)
        assert rates.mode_filter == "ltl"
        body = rates.request.wire_dict()
        assert body["originPostalCode"] == "60607"
        assert body["destPostalCode"] == "30303-1234"
        assert body["originType"] == "business dock"
        assert body["destType"] == "limited access"
        assert body["items"] == [
            {
                "quantity": 2,
                "pieces": 2,
                "package": "Pallets",
                "weight": Decimal(800),
                "length": Decimal(48),
                "width": Decimal(40),
                "height": Decimal("47.5"),
                "freightClass": Decimal(70),
                "description": "Machine parts",
            },
            {
                "quantity": 1,
                "pieces": 1,
                "package": "Crates",
                "weight": Decimal(350),
                "length": Decimal(40),
                "width": Decimal(30),
                "height": Decimal(36),
                "freightClass": Decimal(100),
            },
        ]
        # back to the quote: the form is as it was
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, QuoteScreen)
        assert app.screen.draft().items[1].package == "crate"


def test_the_quote_screen_loads_without_pydantic_httpx_or_the_sandbox() -> None:
    probe = (
        "import sys, tui.app, tui.screens.quote; "
        "print(','.join(m for m in ('pydantic', 'httpx', 'zipcodes', 'tui.sandbox', "
        "'tui.api.client') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
