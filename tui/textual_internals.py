"""Every private name of Textual that Freight uses, in one place.

Everywhere else Freight uses Textual's public API. Each function here reaches a private name
because no public one does the job; each says which name and why. The names were checked on
Textual `CHECKED_ON` (pyproject.toml allows only that minor), and `tests/test_textual_internals.py`
fails when an upgrade removes or changes one of them: run it before widening the range.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.dom import DOMNode
    from textual.geometry import Size
    from textual.message import Message
    from textual.message_pump import MessagePump
    from textual.notifications import Notification
    from textual.pilot import Pilot
    from textual.screen import Screen
    from textual.widget import Widget

    _WidgetBase = Widget
else:
    _WidgetBase = object

CHECKED_ON = "8.2"
"""The Textual minor these names were checked on (`major.minor`)."""

# -- keys from the terminal ---------------------------------------------------------------


def ansi_sequence_keys() -> MutableMapping[str, object]:
    """Textual's table of terminal sequences to keys (`textual._ansi_sequences`).

    The app maps ESC + digit or letter to alt keys at once (see
    `tui.app.read_alt_keys_at_once`); Textual has no public way to add a sequence.
    """
    from textual import _ansi_sequences

    return cast("MutableMapping[str, object]", _ansi_sequences.ANSI_SEQUENCES_KEYS)


# -- bindings and keys (the [keymap] check) ----------------------------------------------


def merged_bindings(cls: type[DOMNode]) -> BindingsMap:
    """The bindings a class has, its own and inherited, as Textual merges them
    (`DOMNode._merge_bindings`): the keymap check reads classes, not instances."""
    return cls._merge_bindings()


def key_of_character(character: str) -> str:
    """The key name Textual gives a printable character (`/` is `slash`):
    `textual.keys._character_to_key`."""
    from textual.keys import _character_to_key

    return _character_to_key(character)


def normalized_keys(keys: str) -> str:
    """A comma-separated key list as Textual reads a binding's keys (single characters become
    key names): `textual.keys._normalize_key_list`."""
    from textual.keys import _normalize_key_list

    return _normalize_key_list(keys)


# -- widgets ------------------------------------------------------------------------------


def has_pending_messages(pump: MessagePump) -> bool:
    """True while a key or event waits in `pump`'s queue (`MessagePump._message_queue`)."""
    return not pump._message_queue.empty()


def hand_on_refresh(widget: Widget) -> None:
    """Hand the screen now the layout or repaint `widget` asked for, rather than when the
    widget next goes idle (`Widget._check_refresh`): a row that asks only after the frame costs
    a second layout of the screen."""
    widget._check_refresh()


def update_scrollbars(widget: Widget, virtual_size: Size) -> None:
    """Size `widget`'s scrollbars for `virtual_size` without a layout pass
    (`Widget._scroll_update`): a table whose own size never depends on its rows."""
    widget._scroll_update(virtual_size)


class ResizeWithoutLayout(_WidgetBase):
    """Mixin (first in the bases) for a scroll area whose content height changes as rows come
    and go: the change repaints its scrollbar instead of laying the whole screen out again.

    Overrides `Widget._size_updated`, which asks for a screen layout when the virtual size of
    a widget changes; nothing around the area depends on its content height.
    """

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class SkipUnchangedResize(_WidgetBase):
    """Mixin (first in the bases) for a widget laid out often at the same size (the inputs of
    the item grid): `Widget._size_updated` re-measures it even when nothing changed."""

    _last_resize: tuple[Size, Size, Size, Size, bool] | None = None

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        key = (size, virtual_size, container_size, self.virtual_size)
        last = self._last_resize
        if last is not None and last[:4] == key:
            return last[4]
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        self._last_resize = (*key, resized)
        return resized


# -- tests and benchmarks -------------------------------------------------------------------


def screen_render(screen: Screen[Any]) -> object:
    """The whole of `screen` as Textual would send it (a renderable): the only way to read a
    screen as text (`Screen._compositor`)."""
    return screen._compositor.render_update(full=True)


def watch_frames(app: App[Any], callback: Callable[[Screen[Any]], None]) -> None:
    """Call `callback` with the screen each time `app` sends a frame, right after it is sent
    (headless too, where nothing is written); frames a batch update holds back
    (`App._batch_count`) are not sent. Wraps `App._display`, the one place frames go."""
    display = app._display

    def display_and_tell(screen: Screen[Any], renderable: Any) -> None:
        held = app._batch_count
        display(screen, renderable)
        if renderable is not None and not held:
            callback(screen)

    app._display = display_and_tell  # type: ignore[method-assign]


def after_every_frame(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after every screen of every app in this process refreshes its part of
    the terminal (`Screen._compositor_refresh`): for benchmarks that time the last paint.
    Returns the function that stops it."""
    from textual.screen import Screen

    refresh = Screen._compositor_refresh

    def refresh_and_tell(self: Screen[Any]) -> None:
        refresh(self)
        callback()

    Screen._compositor_refresh = refresh_and_tell  # type: ignore[method-assign]

    def stop() -> None:
        Screen._compositor_refresh = refresh  # type: ignore[method-assign]

    return stop


def after_every_message(callback: Callable[[], None]) -> Callable[[], None]:
    """Call `callback` after every message any widget or app handles
    (`MessagePump._dispatch_message`): for benchmarks that wait for work that paints nothing.
    Returns the function that stops it."""
    from textual.message_pump import MessagePump

    dispatch = MessagePump._dispatch_message

    async def dispatch_and_tell(self: MessagePump, message: Message) -> None:
        await dispatch(self, message)
        callback()

    MessagePump._dispatch_message = dispatch_and_tell  # type: ignore[method-assign]

    def stop() -> None:
        MessagePump._dispatch_message = dispatch  # type: ignore[method-assign]

    return stop


async def wait_for_screen(pilot: Pilot[Any]) -> None:
    """Wait until the screen and its widgets have handled what is queued for them, as
    `Pilot.press` does after each key (`Pilot._wait_for_screen`)."""
    await pilot._wait_for_screen()


def notifications(app: App[Any]) -> list[Notification]:
    """The notifications `app` shows now (`App._notifications`)."""
    return list(app._notifications)


def parse_terminal_input(data: str) -> list[object]:
    """The events Textual's input parser makes of `data` as a terminal sends it
    (`textual._xterm_parser.XTermParser`)."""
    from textual._xterm_parser import XTermParser

    return list(XTermParser().feed(data))


def send_as_terminal(app: App[Any], message: Message) -> None:
    """Hand `message` to `app` the way its driver hands on what the terminal sent
    (`App._driver`): from a benchmark's thread, like real input."""
    driver = app._driver
    assert driver is not None, "the app is not running"
    driver.send_message(message)
