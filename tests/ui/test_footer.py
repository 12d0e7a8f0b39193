"""The footer draws the screen's keys in its first frame, follows focus, and takes clicks."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input

from tests.textual_probes import watch_frames
from tests.ui.screen import screen_text
from tui.widgets.footer import FreightFooter


class Field(Input):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+k", "clear_all", "Clear")]

    def action_clear_all(self) -> None:
        self.value = ""


class Keys(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "add", "Add"),
        Binding("ctrl+r", "rates", "Get rates"),
        Binding("ctrl+b", "book", "Book", tooltip="Book the chosen rate"),
        Binding("ctrl+z", "add", "Add again", show=True),
        Binding("ctrl+h", "add", "Hidden", show=False),
    ]

    def __init__(self, *, compact: bool = True) -> None:
        super().__init__()
        self.compact = compact
        self.added = 0
        self.booked = 0

    def compose(self) -> ComposeResult:
        yield Input(id="plain")
        yield Field(id="field")
        yield FreightFooter(compact=self.compact)

    def on_mount(self) -> None:
        self.query_one("#plain").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "rates" else True

    def action_add(self) -> None:
        self.added += 1

    def action_book(self) -> None:
        self.booked += 1


def footer_line(app: App[Any]) -> str:
    return screen_text(app).splitlines()[-1]


async def test_the_first_frame_has_the_keys_one_per_action_and_the_palette_right() -> None:
    app = Keys()
    first: list[str] = []

    def frame(_screen: object) -> None:
        if not first:
            first.append(footer_line(app))

    watch_frames(app, frame)
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
    assert first[0] == "^n Add ^r Get rates ^b Book" + " " * 21 + "▏^p palette "


async def test_the_wide_style_pads_each_key() -> None:
    app = Keys(compact=False)
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        assert footer_line(app).startswith(" ^n Add  ^r Get rates  ^b Book ")


async def test_the_keys_follow_focus() -> None:
    app = Keys()
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        assert "Clear" not in footer_line(app)
        app.query_one("#field").focus()
        await pilot.pause()
        assert footer_line(app).startswith("^k Clear ^n Add")


async def test_a_click_presses_the_key_and_a_disabled_key_does_nothing() -> None:
    app = Keys()
    async with app.run_test(size=(60, 8)) as pilot:
        await pilot.pause()
        footer = app.query_one(FreightFooter)
        await pilot.click(FreightFooter, offset=(1, 0))  # ^n Add
        await pilot.pause()
        assert app.added == 1
        await pilot.click(FreightFooter, offset=(9, 0))  # ^r Get rates: not available
        await pilot.click(FreightFooter, offset=(22, 0))  # ^b Book
        await pilot.pause()
        assert (app.added, app.booked) == (1, 1)
        key = footer.key_at(22)
        assert key is not None
        assert key.tooltip == "Book the chosen rate"
        assert footer.key_at(40) is None


async def test_keys_that_do_not_fit_are_left_out_whole() -> None:
    app = Keys()
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        assert footer_line(app) == "^n Add" + " " * 12 + "▏^p palette "
