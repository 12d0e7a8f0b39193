"""The key filter on its own (tui.key_filter): bursts of keys land exactly as typed, editing
keys included and in order; only a scanner's burst on a field that takes scans is a scan."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Input, OptionList

from tests.ui.scanning import key_for
from tests.ui.screen import wait_for
from tui.key_filter import KeyFilter, KeyHandled
from tui.scan_reader import SCAN_GAP, SCAN_MAX_LENGTH, SCAN_MIN_LENGTH, is_scanned_code


class Form(Screen[None]):
    """Two text fields, the second taking scans while empty, and a list."""

    OPENS_SCANS: ClassVar[bool] = True

    def compose(self) -> ComposeResult:
        yield Input(id="text")
        yield Input(id="search", classes="accepts-scans")
        yield OptionList("one", "two", id="list")


class Filtered(KeyFilter):
    SCREEN: ClassVar[type[Form]] = Form

    def __init__(self, opens_scans: bool = True) -> None:
        super().__init__()
        self.scanned: list[str] = []
        self.submitted: list[tuple[str, str]] = []
        self.opens_scans = opens_scans

    def on_mount(self) -> None:
        screen = self.SCREEN()
        screen.OPENS_SCANS = self.opens_scans  # type: ignore[misc]
        self.push_screen(screen)

    def open_scanned(self, code: str) -> None:
        self.scanned.append(code)

    @on(Input.Submitted)
    def _submitted(self, message: Input.Submitted) -> None:
        self.submitted.append((message.input.id or "", message.value))


class KeepsHandled(Input):
    """A field that keeps back the word that a key it was handed is through: it reaches the
    app only when the test says, as at the end of a run on a busy machine (the app's last
    screen closed, a widget's queue drained behind it)."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.kept: list[KeyHandled] = []

    def on_key_handled(self, message: KeyHandled) -> None:
        message.stop()
        self.kept.append(message)


class KeepingForm(Form):
    def compose(self) -> ComposeResult:
        yield KeepsHandled(id="text")


class Keeping(Filtered):
    SCREEN: ClassVar[type[Form]] = KeepingForm


KEY_NAMES = {
    "⌫": ("backspace", "\x7f"),
    "⏎": ("enter", "\r"),
    "⇥": ("tab", "\t"),
    "⎋": ("escape", "\x1b"),
    "⌁": ("ctrl+right_square_bracket", "\x1d"),  # a scanner's prefix (GS)
}


def burst(app: Any, keys: str | list[str], gap: float = 0.0, start: float = 1000.0) -> None:
    """Post every key before the app reads one, each `gap` seconds after the last (arrival)."""
    for index, key in enumerate(keys):
        if key in KEY_NAMES:
            event = events.Key(*KEY_NAMES[key])
        elif key == "ctrl+u":
            event = events.Key("ctrl+u", "\x15")
        else:
            event = key_for(key)
        event.time = start + index * gap
        app.post_message(event)


async def focus(pilot: Any, selector: str) -> Input:
    widget = pilot.app.screen.query_one(selector)
    widget.focus()
    await pilot.pause()
    return widget  # type: ignore[no-any-return]


async def settled(pilot: Any) -> None:
    app = pilot.app
    await pilot.pause(SCAN_GAP * 3)
    await wait_for(pilot, lambda: not app.holding_keys and not app.input_waiting)
    await pilot.pause()


async def test_backspace_and_the_key_after_it_land_in_order() -> None:
    app = Filtered(opens_scans=False)
    async with app.run_test() as pilot:
        field = await focus(pilot, "#text")
        burst(app, list("60608⌫7"))
        await settled(pilot)
        assert field.value == "60607"
        field.value = ""
        burst(app, list("Machx⌫ine"))
        await settled(pilot)
        assert field.value == "Machine"
        field.value = "cheapest"
        field.cursor_position = len(field.value)
        burst(app, ["ctrl+u", *"cheapest-within-3", "⏎"])  # clear, type, Enter: all in order
        await settled(pilot)
        assert field.value == "cheapest-within-3"
        assert app.submitted == [("text", "cheapest-within-3")]


async def test_a_fast_text_and_enter_in_a_text_field_is_typed_not_scanned() -> None:
    app = Filtered()
    async with app.run_test() as pilot:
        field = await focus(pilot, "#text")
        burst(app, list("SO-12345⏎"))  # a scanner's look, but in a field being typed in
        await settled(pilot)
        assert field.value == "SO-12345"
        assert app.submitted == [("text", "SO-12345")]
        assert app.scanned == []


async def test_a_scan_on_the_list_or_the_empty_search_field_is_a_scan() -> None:
    app = Filtered()
    async with app.run_test() as pilot:
        await focus(pilot, "#list")
        burst(app, list("1234567890⏎"))
        await settled(pilot)
        assert app.scanned == ["1234567890"]
        search = await focus(pilot, "#search")
        burst(app, list("shp_00042⇥"))  # a scanner set to end with Tab
        await settled(pilot)
        assert app.scanned == ["1234567890", "shp_00042"]
        assert search.value == ""
        assert app.screen.focused is search  # the Tab was the scan's: focus stays
        burst(app, list("ab"), gap=SCAN_GAP * 4)  # a person's pace: typed
        await settled(pilot)
        burst(app, list("12345⏎"), start=2000.0)  # text in the field now: typing
        await settled(pilot)
        assert search.value == "ab12345"
        assert app.scanned == ["1234567890", "shp_00042"]
        assert app.submitted == [("search", "ab12345")]


async def test_a_burst_that_is_no_scan_is_replayed_exactly_with_its_editing_keys() -> None:
    app = Filtered()
    async with app.run_test() as pilot:
        search = await focus(pilot, "#search")
        burst(app, list("SO12x⌫3⏎"))  # held as a possible scan, then Backspace: typing
        await settled(pilot)
        assert search.value == "SO123"
        assert app.scanned == []
        assert app.submitted == [("search", "SO123")]
        search.value = ""
        burst(app, list("4417"))  # no Enter: after the gap the keys are typed
        await settled(pilot)
        assert search.value == "4417"
        search.value = ""
        burst(app, list("44"), gap=0.0)  # a stall mid-code: two bursts, neither a scan
        burst(app, list("17⏎"), start=1002.0)
        await settled(pilot)
        assert search.value == "4417"
        assert app.scanned == []


def test_a_scan_is_a_plausible_code() -> None:
    assert is_scanned_code("1" * SCAN_MIN_LENGTH)
    assert not is_scanned_code("1" * (SCAN_MIN_LENGTH - 1))
    assert not is_scanned_code("Chicago")  # no digit
    assert is_scanned_code("1" * SCAN_MAX_LENGTH)
    assert not is_scanned_code("1" * (SCAN_MAX_LENGTH + 1))


async def test_a_key_through_after_the_last_screen_closed_raises_nothing() -> None:
    # The order seen at teardown under load: a key is handed to a field, the app ends (its
    # last screen gone), then the word that the key is through reaches the app.
    app = Keeping(opens_scans=False)
    async with app.run_test() as pilot:
        field = await focus(pilot, "#text")
        assert isinstance(field, KeepsHandled)
        await pilot.press("a")
        await wait_for(pilot, lambda: bool(field.kept), what="the key handed to the field")
    assert not app.screen_stack
    app.on_key_handled(field.kept[0])  # (ScreenStackError here without the guard)
