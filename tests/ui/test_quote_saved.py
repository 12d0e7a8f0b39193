"""Saved things on the quote screen: item templates (insert, save to config), address book."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import OptionList

from tests.ui.screen import screen_text, wait_for
from tests.ui.test_quote import fill_row, focused_field, start, type_text
from tui.app import make_app
from tui.config.settings import AppConfig, ItemTemplate, Location, Profile, load_config
from tui.screens.quote_address_book import QuoteAddressesScreen
from tui.screens.quote_templates import TemplatesScreen
from tui.session import Session


def top(app: App[Any]) -> Screen[Any]:
    """The screen on top (a function, so type narrowing of `app.screen` does not stick)."""
    return app.screen


@pytest.fixture
def warehouse(tmp_path: Path) -> Session:
    """A session on a profile from a real config file, with an address book and a template."""
    dock = Location(label="Main dock", company="Acme", postal_code="60607", city="Chicago")
    profile = Profile(
        name="warehouse",
        base_url="https://freight.example.com",
        environment="sandbox",
        default_origin=dock,
        address_book=[
            dock,
            Location(
                label="Peach Retail",
                postal_code="30303",
                city="Atlanta",
                state="GA",
                location_type="business-no-dock",
            ),
            Location(label="Expo hall", postal_code="89109", location_type="trade-show"),
        ],
        item_templates=[
            ItemTemplate(
                name="Std pallet",
                quantity=2,
                package="pallet",
                weight=Decimal(800),
                length=Decimal(48),
                width=Decimal(40),
                height=Decimal(48),
                description="Machine parts",
            )
        ],
    )
    config = AppConfig(default_profile="warehouse", profiles={"warehouse": profile})

    async def connect() -> tuple[str, str]:
        return "https://freight.example.com", "unused.token"

    return Session(
        environment="SANDBOX",
        profile=config.profiles["warehouse"],
        config=config,
        data_dir=tmp_path / "data",
        connect=connect,
        config_path=tmp_path / "config.toml",
    )


async def test_a_template_fills_the_empty_row_and_a_row_is_saved_as_one(
    warehouse: Session,
) -> None:
    app = make_app(warehouse)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        screen.editor.input_for(0, "quantity").focus()
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert isinstance(app.screen, TemplatesScreen)
        text = screen_text(app)
        assert "Std pallet · 2 × Pallet 800 lb 48×40×48 · Machine parts" in text
        assert "Save row" not in text, "an empty row cannot be saved as a template"
        await pilot.press("enter")
        await pilot.pause()
        assert top(app) is screen
        rows = screen.editor.values()
        assert len(rows) == 1, "the empty row was replaced, not kept"
        assert (rows[0].quantity, rows[0].weight, rows[0].description) == (
            "2",
            "800",
            "Machine parts",
        )
        assert "2 units · 1,600 lb" in screen_text(app)
        # a second row, typed by hand, then saved as a template with F8
        await pilot.press("ctrl+n")
        await fill_row(pilot, "1", "drum", "450", "23", "23", "35", "60", "Resin drum")
        await pilot.press("f8")
        await pilot.pause()
        assert "+ Save row 2 as a template…" in screen_text(app)
        await pilot.press("end", "enter")
        await pilot.pause()
        name = app.screen.query_one("#template-name")
        assert name.has_focus
        await pilot.press("ctrl+u")
        await type_text(pilot, "Resin drum")
        await pilot.press("enter")
        await pilot.pause()
        assert top(app) is screen
    saved = load_config(warehouse.config_path)
    templates = saved.profiles["warehouse"].item_templates
    assert [t.name for t in templates] == ["Std pallet", "Resin drum"]
    drum = templates[1]
    assert (drum.package, drum.weight, drum.height) == ("drum", Decimal(450), Decimal(35))
    assert drum.freight_class == Decimal(60), "the class the user typed is kept"


async def test_the_address_book_fills_either_end(warehouse: Session) -> None:
    app = make_app(warehouse)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert focused_field(app) == "dest_zip"
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert isinstance(app.screen, QuoteAddressesScreen)
        text = screen_text(app)
        assert "enter: use for destination" in text
        assert "Peach Retail · Atlanta GA · 30303 · No dock" in text
        app.screen.query_one(OptionList).highlighted = 1
        await pilot.press("enter")
        await pilot.pause()
        draft = screen.draft()
        assert (draft.dest_zip, draft.dest_type) == ("30303", "business-no-dock")
        # F10 is the same; "o" puts the highlighted address at the origin instead
        await pilot.press("f10")
        await pilot.pause()
        app.screen.query_one(OptionList).highlighted = 2
        await pilot.press("o")
        await pilot.pause()
        draft = screen.draft()
        assert (draft.origin_zip, draft.origin_type) == ("89109", "trade-show")
        assert (draft.dest_zip, draft.dest_type) == ("30303", "business-no-dock")
        await pilot.press("ctrl+a")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert top(app) is screen
        assert screen.draft() == draft


async def test_the_command_palette_offers_the_quote_actions(warehouse: Session) -> None:
    app = make_app(warehouse)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await type_text(pilot, "item templates")
        await wait_for(
            pilot, lambda: "Insert or save (ctrl+t, F8)" in screen_text(app), what="the command"
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(top(app), TemplatesScreen), what="templates")
        await pilot.press("escape")
        await pilot.pause()
        assert top(app) is screen
