"""The one-widget drop-down: shows its choice, opens its list below itself, picks by key."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.widgets import Input

from tests.ui.screen import screen_text
from tui.widgets.drop_down import DropDown, DropDownList, next_match

OPTIONS = [("Dock", "dock"), ("No dock", "no-dock"), ("Residential", "residential")]


class Form(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.changes: list[str] = []

    def compose(self) -> ComposeResult:
        yield Input(id="before")
        yield DropDown(OPTIONS, "dock", id="kind")

    @on(DropDown.Changed)
    def _changed(self, event: DropDown.Changed) -> None:
        self.changes.append(event.value)


def kind(app: App[Any]) -> DropDown:
    return app.query_one("#kind", DropDown)


def test_a_letter_finds_the_next_option_that_starts_with_it_and_wraps() -> None:
    labels = [label for label, _value in OPTIONS]
    assert next_match(labels, 0, "n") == 1
    assert next_match(labels, 1, "d") == 0
    assert next_match(labels, 2, "R") == 2
    assert next_match(labels, 0, "x") is None


async def test_it_shows_its_choice_and_an_unknown_value_falls_back_to_the_first() -> None:
    app = Form()
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        assert "Dock        ▼" in screen_text(app).splitlines()[3]
        kind(app).value = "cellar"
        await pilot.pause()
        assert kind(app).value == "dock"


async def test_enter_opens_the_list_below_it_and_enter_picks() -> None:
    app = Form()
    async with app.run_test(size=(30, 12)) as pilot:
        kind(app).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert kind(app).expanded
        options = app.query_one(DropDownList)
        assert options.has_focus
        assert options.region.y == kind(app).region.y + 1
        assert options.highlighted == 0
        assert "No dock" in screen_text(app)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert not kind(app).expanded
        assert kind(app).value == "residential"
        assert app.changes == ["residential"]
        assert app.focused is kind(app)
        assert "Residential ▼" in screen_text(app)


async def test_escape_closes_the_list_and_keeps_the_choice() -> None:
    app = Form()
    async with app.run_test(size=(30, 12)) as pilot:
        kind(app).focus()
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("down", "escape")
        await pilot.pause()
        assert not kind(app).expanded
        assert kind(app).value == "dock"
        assert app.changes == []


async def test_a_letter_picks_without_opening_and_moves_in_the_open_list() -> None:
    app = Form()
    async with app.run_test(size=(30, 12)) as pilot:
        kind(app).focus()
        await pilot.press("r")
        assert kind(app).value == "residential"
        await pilot.press("d")
        assert kind(app).value == "dock"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("n")
        assert app.query_one(DropDownList).highlighted == 1
        await pilot.press("enter")
        await pilot.pause()
        assert kind(app).value == "no-dock"


async def test_a_click_opens_it_and_a_click_outside_closes_it() -> None:
    app = Form()
    async with app.run_test(size=(30, 12)) as pilot:
        await pilot.pause()
        await pilot.click("#kind")
        await pilot.pause()
        assert kind(app).expanded
        await pilot.click(offset=(28, 10))
        await pilot.pause()
        assert not kind(app).expanded
        assert kind(app).value == "dock"
