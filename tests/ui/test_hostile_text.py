"""Text that looks like markup or a terminal escape is shown as the characters it is, on
every screen that shows data (issue 28, plain by default): a batch file's headers and
cells, the address book's names, item templates, and a server's tracking events.

Each place gets `[/]` (a MarkupError when parsed), `[bold` (a style when parsed),
`[@click=app.quit]x[/]` (an action when parsed) and `ESC[31m` (a colour in a terminal); the
test sees the literal characters on the screen, no style or action in what is painted, and
the app still running."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from textual.app import App

from tests.hostile_server import HostileServer
from tests.textual_probes import screen_render
from tests.ui.screen import settle, wait_for
from tests.ui.test_hostile_server_ui import assert_painted_safely, hostile_session
from tests.ui.test_quote import start
from tui.app import make_app
from tui.config.settings import AppConfig, ItemTemplate, Location, Profile
from tui.demo import DEMO_TOKEN
from tui.screens.batch import BatchScreen
from tui.screens.batch_mapping import BatchMappingScreen
from tui.screens.batch_order import BatchOrderScreen
from tui.screens.quote_address_book import QuoteAddressesScreen
from tui.screens.quote_item_details import ItemDetailsScreen
from tui.screens.quote_templates import TemplatesScreen
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.session import Session

CLOSE = "[/]"
OPEN = "[bold"
CLICK = "[@click=app.quit]x[/]"
ESCAPE = "\x1b[31m"
HOSTILE = f"{CLOSE} {OPEN} {CLICK} {ESCAPE}"


def assert_shown_as_text(app: App[Any], *words: str) -> str:
    """Each word's literal characters on the screen, nothing painted as a click or colour
    from them, no control character drawn, and the app still running."""
    text = assert_painted_safely(app)
    for word in words:
        assert word in text, word
    update = screen_render(app.screen)
    assert update is not None
    console = Console(width=app.size.width, force_terminal=True, color_system="truecolor")
    for segment in console.render(update):
        if segment.style is not None and not segment.control:
            assert "app.quit" not in repr(segment.style.meta), segment
    assert app.is_running
    assert app.return_code is None
    return text


async def test_a_batch_file_with_markup_in_headers_and_cells_is_shown_as_text(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.csv"
    path.write_text(
        f"Order,Zip,Weight,Length,Width,Height,Unit Type,Notes {CLOSE},Misc {OPEN},"
        f"Tag {CLICK},Ink {ESCAPE}\n"
        f"A1 {CLOSE},30303,800,48,40,48,Pallet,n {OPEN},m {CLICK},t {ESCAPE},i\n"
        f"B2 {CLICK},30303,400,48,40,40,Pallet,{HOSTILE},,,\n",
        encoding="utf-8",
    )
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="batch")
        screen = app.screen
        assert isinstance(screen, BatchScreen)
        screen.path_input.value = str(path)
        screen.path_input.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        await settle(pilot)
        assert_shown_as_text(app, f"A1 {CLOSE}", f"Misc {OPEN}")
        units = str(app.screen.query_one("#mapping-units").render())
        assert "Tag [@click=app.qui" in units  # (names cut at 20; the line at the dialog's edge)
        await pilot.press("ctrl+s")  # use the mapping: the orders' table
        await wait_for(pilot, lambda: app.screen is screen, what="the batch")
        await settle(pilot)
        assert_shown_as_text(app, f"A1 {CLOSE}", "B2 [@click=")  # (cut at the column)
        screen.table.focus()
        await pilot.press("home", "enter")  # the first order's dialog
        await wait_for(pilot, lambda: isinstance(app.screen, BatchOrderScreen), what="order")
        await settle(pilot)
        assert_shown_as_text(app, f"A1 {CLOSE}")


async def test_address_book_names_and_templates_are_shown_as_text(tmp_path: Path) -> None:
    dock = Location(label=f"Dock {CLICK}", company=f"Acme {CLOSE}", postal_code="60607")
    profile = Profile(
        name="hostile",
        base_url="https://freight.example.com",
        environment="sandbox",
        default_origin=dock,
        address_book=[
            dock,
            Location(label=f"Peach {OPEN}", postal_code="30303", city=f"Atlanta {ESCAPE}"),
        ],
        item_templates=[
            ItemTemplate(
                name=f"Std {CLICK}",
                quantity=1,
                package="pallet",
                weight=Decimal(800),
                length=Decimal(48),
                width=Decimal(40),
                height=Decimal(48),
                description=f"Parts {CLOSE} {OPEN}",
            )
        ],
    )
    config = AppConfig(default_profile="hostile", profiles={"hostile": profile})

    async def connect() -> tuple[str, str]:
        return "https://freight.example.com", "unused.token"

    session = Session(
        environment="SANDBOX",
        profile=profile,
        config=config,
        data_dir=tmp_path / "data",
        connect=connect,
        config_path=tmp_path / "config.toml",
    )
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        quote = await start(pilot)
        await pilot.press("ctrl+a")
        await wait_for(pilot, lambda: isinstance(app.screen, QuoteAddressesScreen), what="book")
        await settle(pilot)
        assert_shown_as_text(app, f"Dock {CLICK}", f"Peach {OPEN}", "Atlanta ")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is quote, what="the quote")
        quote.editor.input_for(0, "quantity").focus()
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, TemplatesScreen), what="templates")
        await settle(pilot)
        assert_shown_as_text(app, f"Std {CLICK}", f"Parts {CLOSE} {OPEN}")
        await pilot.press("enter")  # the template fills the row: its description too
        await wait_for(pilot, lambda: app.screen is quote, what="the quote")
        quote.editor.input_for(0, "quantity").focus()
        await pilot.press("ctrl+o")  # the row's details, headed by its description
        await wait_for(pilot, lambda: isinstance(app.screen, ItemDetailsScreen), what="details")
        await settle(pilot)
        assert_shown_as_text(app, f"Parts {CLOSE} {OPEN}")


async def test_tracking_events_from_a_hostile_server_are_shown_as_text(tmp_path: Path) -> None:
    server = HostileServer()
    app = make_app(hostile_session(server, tmp_path / "data"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_shipment("shp_1")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ShipmentDetailScreen) and app.screen.detail is not None,
            what="the detail",
        )
        await settle(pilot)
        await pilot.press("t")  # the events into view
        await settle(pilot)
        events = str(app.screen.query_one("#detail-events").render())
        assert "[@click=app.pwned()]clickme[/]" in events
        assert_shown_as_text(app, "Tracking events", "[@click=app.pwned()]clickme[/]")
