"""Every private name of Textual that `tui.textual_internals` (the product's fence) and
`tests.textual_probes` (the tests') reach still exists and still
does what Freight relies on. A Textual upgrade that removes or changes one fails here (and
the version check fails first when the minor changes: recheck, then move `CHECKED_ON` and
the range in pyproject.toml together)."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path
from typing import Any, ClassVar

import pytest
import textual
from rich.console import Console
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.geometry import Size
from textual.keys import Keys
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widgets import Input, Static

from tests import textual_probes as probes
from tui import textual_internals as internals

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


class Probe(App[None]):
    """A bare app with one line of text and a binding that counts presses."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f9", "count", "Count")]

    def __init__(self) -> None:
        super().__init__()
        self.presses = 0

    def compose(self) -> ComposeResult:
        yield Static("PROBE", id="probe")

    def action_count(self) -> None:
        self.presses += 1


def test_textual_is_the_minor_the_internals_were_checked_on() -> None:
    installed = ".".join(textual.__version__.split(".")[:2])
    assert installed == internals.CHECKED_ON, (
        f"Textual {textual.__version__}: recheck tui/textual_internals.py on it"
    )
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (textual_range,) = [d for d in dependencies if re.match(r"textual\b", d)]
    major, minor = (int(part) for part in internals.CHECKED_ON.split("."))
    assert textual_range == f"textual>={major}.{minor},<{major}.{minor + 1}", textual_range


def test_the_sequence_table_is_the_one_the_input_parser_reads() -> None:
    table = internals.ansi_sequence_keys()
    assert table["\x1b[A"] == (Keys.Up,)
    sequence = "\x1bOz"  # no terminal sends it
    assert sequence not in table
    table[sequence] = (Keys.F20,)
    try:
        keys = [e.key for e in probes.parse_terminal_input(sequence) if isinstance(e, events.Key)]
    finally:
        del table[sequence]
    assert keys == ["f20"]


def test_merged_bindings_are_a_class_s_own_and_inherited() -> None:
    class Child(Probe):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("f8", "count", "Again")]

    keys = internals.merged_bindings(Child).key_to_bindings
    assert {"f8", "f9"} <= set(keys)
    assert keys["f9"][0].action == "count"


def test_key_names_of_characters_as_textual_reads_bindings() -> None:
    assert internals.key_of_character("/") == "slash"
    assert internals.key_of_character("a") == "a"
    assert internals.normalized_keys("a, /,ctrl+x") == "a,slash,ctrl+x"


async def test_a_node_being_taken_down_is_seen_leaving_while_still_attached() -> None:
    seen: list[tuple[bool, bool]] = []

    class Child(Static):
        def on_unmount(self) -> None:  # the children go first: the screen is still attached
            seen.append((self.screen.is_attached, internals.is_leaving(self.screen)))

    class Leaving(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Child("child")

    app = Probe()
    async with app.run_test() as pilot:
        screen = Leaving()
        await app.push_screen(screen)
        assert not internals.is_leaving(screen)
        assert not internals.is_leaving(screen.query_one(Child))
        await app.pop_screen()
        await pilot.pause()
    assert seen == [(True, True)]


async def test_scrollbars_follow_a_virtual_size_set_without_layout() -> None:
    class Tall(ScrollView):
        pass

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            yield Tall()

    app = Holder()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        tall = app.query_one(Tall)
        assert not tall.show_vertical_scrollbar
        tall.set_reactive(Tall.virtual_size, Size(10, 100))
        internals.update_scrollbars(tall, Size(10, 100))
        assert tall.show_vertical_scrollbar
        assert tall.vertical_scrollbar.window_virtual_size == 100


async def test_default_css_added_ahead_is_the_first_mounts_and_parsed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Boxed(Static):
        DEFAULT_CSS = "Boxed { height: 3; border: round red; }"

    parses: list[Stylesheet] = []
    parse = Stylesheet.parse

    def counted(stylesheet: Stylesheet) -> None:
        parses.append(stylesheet)
        parse(stylesheet)

    app = Probe()
    async with app.run_test(size=(20, 6)) as pilot:
        await pilot.pause()
        before = dict(app.stylesheet.source)
        internals.add_default_css(app, Boxed)
        added = {where: source for where, source in app.stylesheet.source.items()}
        assert any(name == "Boxed.DEFAULT_CSS" for _file, name in added)
        monkeypatch.setattr(Stylesheet, "parse", counted)
        await app.mount(Boxed("x"))
        await pilot.pause()
        assert app.stylesheet.source == added, "the mount added other sources"
        assert not parses, "the mount parsed CSS again"
        assert app.query_one(Boxed).outer_size.height == 3
        assert set(added) > set(before)


async def test_a_compact_input_with_its_settled_classes_is_not_styled_before_mounting() -> None:
    restyled: list[str] = []

    class Counting(App[None]):
        def update_styles(self, node: DOMNode, animate: bool = True) -> None:
            restyled.append(type(node).__name__)
            super().update_styles(node, animate=animate)

    app = Counting()
    async with app.run_test(size=(40, 10)):
        plain = Input("60607")
        assert restyled.count("Input") == 1, "its value checked, it restyles with its class"
        settled = Input("60607", classes=internals.SETTLED_INPUT_CLASSES)
        assert restyled.count("Input") == 1
        assert settled.classes == plain.classes


async def test_a_screen_reads_as_text_and_frames_are_seen() -> None:
    app = Probe()
    frames: list[Screen[Any]] = []
    probes.watch_frames(app, frames.append)
    async with app.run_test(size=(20, 3)) as pilot:
        await pilot.pause()
        assert frames
        assert frames[0] is app.screen
        console = Console(width=20, height=3, file=io.StringIO(), record=True)
        console.print(probes.screen_render(app.screen))
        assert console.export_text().startswith("PROBE")
        first_line = list(probes.layout_render(app).strips[0])
        assert "".join(strip.text for strip in first_line).startswith("PROBE")


async def test_frame_and_message_hooks_run_and_stop() -> None:
    counts = {"frames": 0, "messages": 0}

    def frame() -> None:
        counts["frames"] += 1

    def message() -> None:
        counts["messages"] += 1

    stops = [probes.after_every_frame(frame), probes.after_every_message(message)]
    try:
        async with Probe().run_test() as pilot:
            await pilot.pause()
    finally:
        for stop in stops:
            stop()
    assert counts["frames"]
    assert counts["messages"]
    seen = dict(counts)
    async with Probe().run_test() as pilot:
        await pilot.pause()
    assert counts == seen


async def test_notifications_input_from_the_terminal_and_screen_waits() -> None:
    app = Probe()
    async with app.run_test() as pilot:
        app.notify("hello there")
        await pilot.pause()
        assert [n.message for n in probes.notifications(app)] == ["hello there"]
        probes.send_as_terminal(app, events.Key("f9", None))
        while not app.presses:
            await pilot.pause()
        await probes.wait_for_screen(pilot)
        assert app.presses == 1
