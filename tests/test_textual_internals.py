"""Every private name of Textual that `tui.textual_internals` reaches still exists and still
does what Freight relies on. A Textual upgrade that removes or changes one fails here (and
the version check fails first when the minor changes: recheck, then move `CHECKED_ON` and
the range in pyproject.toml together)."""

from __future__ import annotations

import asyncio
import inspect
import io
import re
import tomllib
from pathlib import Path
from typing import Any, ClassVar

import textual
from rich.console import Console
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.css.stylesheet import Stylesheet
from textual.geometry import Size
from textual.keys import Keys
from textual.message import Message
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import Input, Static

from tui import textual_internals as internals

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


class Nudge(Message):
    """A message nobody handles."""


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
        keys = [
            e.key for e in internals.parse_terminal_input(sequence) if isinstance(e, events.Key)
        ]
    finally:
        del table[sequence]
    assert keys == ["f20"]


async def test_a_marked_mode_screen_is_not_restyled_and_an_unmarked_one_is() -> None:
    class Modes(App[None]):
        MODES: ClassVar[dict[str, Any]] = {
            "marked": lambda: marked(Screen(id="marked")),
            "plain": lambda: Screen(id="plain"),
        }

    def marked(screen: Screen[Any]) -> Screen[Any]:
        internals.mark_styled(screen.app, screen)
        return screen

    app = Modes()
    restyles: list[str] = []
    refresh_css = app.refresh_css

    def counted(animate: bool = True) -> None:
        restyles.append(app.current_mode)
        refresh_css(animate)

    app.refresh_css = counted  # type: ignore[method-assign]
    async with app.run_test() as pilot:
        await pilot.pause()
        restyles.clear()  # whatever the start did
        await app.switch_mode("marked")
        assert restyles == []
        await app.switch_mode("plain")
        assert restyles, "Textual no longer restyles a new mode's screen: drop mark_styled"


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


async def test_pending_messages_are_seen_until_handled() -> None:
    app = Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        probe = app.query_one("#probe")
        assert not internals.has_pending_messages(probe)
        probe.post_message(Nudge())
        assert internals.has_pending_messages(probe)
        await pilot.pause()
        assert not internals.has_pending_messages(probe)


async def test_a_layout_asked_for_is_handed_to_the_screen_at_once() -> None:
    app = Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        probe = app.query_one("#probe")
        probe.refresh(layout=True)
        assert probe._layout_required
        internals.hand_on_refresh(probe)
        assert not probe._layout_required


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


async def test_the_resize_mixins_override_textual_s_resize_hook() -> None:
    parameters = list(inspect.signature(Widget._size_updated).parameters)
    assert parameters == ["self", "size", "virtual_size", "container_size", "layout"]
    calls: list[bool] = []

    class Area(internals.ResizeWithoutLayout, VerticalScroll):
        def _size_updated(
            self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
        ) -> bool:
            calls.append(True)
            return super()._size_updated(size, virtual_size, container_size, layout)

    class Field(internals.SkipUnchangedResize, Input):
        pass

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            with Area():
                yield Field("x")

    app = Holder()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert calls, "Textual no longer calls _size_updated"
        field = app.query_one(Field)
        assert field.size.width > 0
        assert field._last_resize is not None
        assert field._last_resize[0] == field.outer_size


async def test_a_screen_reads_as_text_and_frames_are_seen() -> None:
    app = Probe()
    frames: list[Screen[Any]] = []
    internals.watch_frames(app, frames.append)
    async with app.run_test(size=(20, 3)) as pilot:
        await pilot.pause()
        assert frames
        assert frames[0] is app.screen
        console = Console(width=20, height=3, file=io.StringIO(), record=True)
        console.print(internals.screen_render(app.screen))
        assert console.export_text().startswith("PROBE")


async def test_the_first_frame_goes_out_while_the_start_up_batch_is_open() -> None:
    """While the app's start-up batch is open (here: its mount handler waits), Textual holds
    every frame back; `EarlyFirstFrame` sends the first one."""

    def app_with(*bases: type) -> Any:
        class Starting(*bases):  # type: ignore[misc]
            async def on_mount(self) -> None:
                await asyncio.sleep(0.3)  # the start-up batch stays open meanwhile
                self.frames_while_starting = len(self.frames)

        app = Starting()
        app.frames = []
        internals.watch_frames(app, app.frames.append)
        return app

    for bases, sent in (((internals.EarlyFirstFrame, Probe), True), ((Probe,), False)):
        app = app_with(*bases)
        async with app.run_test() as pilot:
            while not hasattr(app, "frames_while_starting"):
                await pilot.pause(0.05)
            assert bool(app.frames_while_starting) is sent, bases
            await pilot.pause()
            assert app.frames, "frames are sent once the batch is closed"


async def test_frame_and_message_hooks_run_and_stop() -> None:
    counts = {"frames": 0, "messages": 0}

    def frame() -> None:
        counts["frames"] += 1

    def message() -> None:
        counts["messages"] += 1

    stops = [internals.after_every_frame(frame), internals.after_every_message(message)]
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
        assert [n.message for n in internals.notifications(app)] == ["hello there"]
        internals.send_as_terminal(app, events.Key("f9", None))
        while not app.presses:
            await pilot.pause()
        await internals.wait_for_screen(pilot)
        assert app.presses == 1


class Styled(App[None]):
    """An app with a stylesheet kept in a file, a sheet of its own and an Input (whose
    DEFAULT_CSS is Textual's)."""

    CSS = "#probe { background: $surface; padding: 0 1; } Input { width: 20; }"

    def __init__(self, store: Path, theme: str = "textual-dark") -> None:
        super().__init__()
        self.theme = theme
        self.store = internals.use_stored_stylesheet(self, store)

    def compose(self) -> ComposeResult:
        yield Static("PROBE", id="probe")
        yield Input(placeholder="type")


async def _styled_run(store: Path, theme: str = "textual-dark") -> tuple[str, dict[str, str], int]:
    """An app's rules (what each selects and sets), the probe's background and padding, and how
    many sources Textual parsed (the rest came from the store)."""
    app = Styled(store, theme)
    parsed = 0
    parse_rules = Stylesheet._parse_rules  # the method the store overrides

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal parsed
        parsed += 1
        return parse_rules(self, *args, **kwargs)

    Stylesheet._parse_rules = counted  # type: ignore[method-assign]
    try:
        async with app.run_test() as pilot:
            await pilot.pause()
            probe = app.query_one("#probe")
            seen = {
                "background": str(probe.styles.background),
                "padding": str(probe.styles.padding),
            }
            css = repr(
                [
                    (
                        rule.selectors,
                        rule.is_default_rules,
                        rule.tie_breaker,
                        rule.styles.get_rules(),
                    )
                    for rule in app.stylesheet.rules
                ]
            )
            app.store.save()
    finally:
        Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
    return css, seen, parsed


async def test_stored_rules_are_the_rules_textual_parses_and_are_not_parsed_again(
    tmp_path: Path,
) -> None:
    store = tmp_path / "cache" / "stylesheets.pickle"
    css, seen, parsed = await _styled_run(store)
    assert parsed > 3
    assert store.is_file()
    assert "#probe" in css
    assert seen["padding"] == "Spacing(top=0, right=1, bottom=0, left=1)"
    again = await _styled_run(store)
    assert again == (css, seen, 0), "a second start parses nothing and styles alike"
    other_theme = await _styled_run(store, "textual-light")
    assert other_theme[2] >= parsed, "other variables: every source is parsed"
    assert other_theme[1]["background"] != seen["background"]


async def test_a_damaged_store_is_parsed_anew_and_written_again(tmp_path: Path) -> None:
    store = tmp_path / "stylesheets.pickle"
    store.write_bytes(b"not a pickle")
    css, seen, parsed = await _styled_run(store)
    assert parsed > 3
    assert (await _styled_run(store)) == (css, seen, 0)
