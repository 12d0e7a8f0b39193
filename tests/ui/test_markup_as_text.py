"""Server and file text with markup in it is shown as the characters it is (issue 28): the
batch column dialog's headers and cells, and a refused booking's field errors. (The Export
dialog's server error: tests/ui/test_shipments_export.py.)"""

from __future__ import annotations

from pathlib import Path

import httpx
from textual.widgets import OptionList

from tests.ui.booking_flow import CountingTransport, book_it, choose_rate, ltl_request, open_rates
from tests.ui.screen import screen_text, wait_for
from tui.app import make_app
from tui.demo import DEMO_TOKEN
from tui.screens.batch import BatchScreen
from tui.screens.batch_mapping import BatchMappingScreen
from tui.screens.book import BookScreen
from tui.session import Session

HOSTILE = "[/]"
"""A closing tag with nothing open: parsed as markup, it ends the app with a MarkupError."""


async def test_the_column_dialog_shows_headers_and_cells_with_markup_as_text(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "odd.csv"
    path.write_text(
        "Order,Zip,Weight,Length,Width,Height,Unit Type,Odd [/],Misc [bold\n"
        "A1 [/],30303,800,48,40,48,Pallet,ok [@click=app.quit]x,[red]\n",
        encoding="utf-8",
    )
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="batch")
        screen = app.screen
        assert isinstance(screen, BatchScreen)
        screen.path_input.value = str(path)
        screen.path_input.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        review = app.screen
        assert isinstance(review, BatchMappingScreen)
        await pilot.pause()
        units = str(review.query_one("#mapping-units").render())
        assert units.endswith("not read: Odd [/], Misc [bold"), units  # headers no field took
        review.table.move_cursor_to_key("weight")
        await pilot.press("enter")  # the columns to choose from, each with its first cell
        await pilot.pause()
        shown = screen_text(app)
        assert "Order  (A1 [/])" in shown, shown
        choice = review.query_one("#mapping-choice", OptionList)
        prompts = [str(choice.get_option_at_index(i).prompt) for i in range(choice.option_count)]
        assert "Odd [/]  (ok [@click=app.quit]x)" in prompts
        assert app.is_running
        assert app.return_code is None


async def test_a_refused_bookings_field_errors_with_markup_are_shown_as_text(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    transport = CountingTransport(sandbox_transport)
    problem = {
        "name": "BAD_REQUEST",
        "message": "refused [/]",
        "errors": [
            {"field": "originContactPhone", "message": "not a phone [/] [bold"},
            {"field": "destCompany", "message": "[@click=app.quit]who?[/]"},
            {"field": "pickupDate", "message": "closed [/]"},
        ],
    }
    transport.replace["/book"] = [httpx.Response(400, json=problem)]
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=transport)
    app = make_app(session)
    async with app.run_test(size=(100, 50)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        await book_it(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, BookScreen), what="the form again")
        await wait_for(pilot, lambda: "not a phone" in screen_text(app), what="field errors")
        shown = screen_text(app)
        assert "not a phone [/] [bold" in shown
        assert "[@click=app.quit]who?[/]" in shown
        assert app.is_running
        assert app.return_code is None
