"""Every private name of Textual that Freight uses, in one place.

Everywhere else Freight uses Textual's public API. Each function here reaches a private name
because no public one does the job; each says which name and why. The names were checked on
Textual `CHECKED_ON` (pyproject.toml allows only that minor), and `tests/test_textual_internals.py`
fails when an upgrade removes or changes one of them: run it before widening the range.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import textual
from textual.css.stylesheet import Stylesheet

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.css.model import RuleSet
    from textual.dom import DOMNode
    from textual.geometry import Size
    from textual.message import Message
    from textual.message_pump import MessagePump
    from textual.notifications import Notification
    from textual.pilot import Pilot
    from textual.screen import Screen
    from textual.widget import Widget

    _WidgetBase = Widget
    _AppBase = App[Any]
else:
    _WidgetBase = _AppBase = object

CHECKED_ON = "8.2"
"""The Textual minor these names were checked on (`major.minor`)."""

# -- start-up -----------------------------------------------------------------------------


def ansi_sequence_keys() -> MutableMapping[str, object]:
    """Textual's table of terminal sequences to keys (`textual._ansi_sequences`).

    The app maps ESC + digit or letter to alt keys at once (see
    `tui.app.read_alt_keys_at_once`); Textual has no public way to add a sequence.
    """
    from textual import _ansi_sequences

    return cast("MutableMapping[str, object]", _ansi_sequences.ANSI_SEQUENCES_KEYS)


def mark_styled(app: App[Any], screen: Screen[Any]) -> None:
    """Mark a mode's first screen as styled by the app's sheet as it stands, when that sheet's
    variables are the theme's as they stand (no theme change is waiting to be applied).

    Textual parses every sheet anew and restyles the whole app when a mode's first screen
    appears (`Screen._css_update_count` differs from `App._css_update_count`), in case the CSS
    changed since the screen was made; for the app's first screen that changed nothing and was
    a tenth of the work before the first frame. `Stylesheet._variables` are the variables the
    sheet was parsed with.
    """
    if app.stylesheet._variables == app.get_css_variables():
        screen._css_update_count = app._css_update_count


_ParseKey = tuple[str, tuple[str, str], bool, int, str]
"""What Textual parses a CSS source by: its text, where it was read, default or not, its
tie-breaker and scope (the arguments of `Stylesheet._parse_rules`)."""

STORE_FORMAT = 1
"""Bumped when what `StoredStylesheet` writes changes shape."""


class StoredStylesheet(Stylesheet):
    """A stylesheet that takes the rules of a CSS source from the ones an earlier run parsed,
    kept in one file, when the source, where it was read, Textual's version and the CSS
    variables (the theme's) are all the same; any other source is parsed as Textual does.

    Textual parses every sheet and every widget class's `DEFAULT_CSS` anew at each start
    (`Stylesheet._parse_rules`, overridden here): a sixth of the work before the first frame,
    for rules that are the same every time. Loading them back is about a tenth of that.
    The file is read once, at the first parse; `save` writes it when this run parsed a
    source it did not hold (keeping, of each place, only the source read this run). A file
    that cannot be read or is of another version counts as empty, one that cannot be
    written is left as it is: the rules are parsed, as without a store.
    """

    def __init__(self, *, variables: dict[str, str], path: Path) -> None:
        super().__init__(variables=variables)
        self.store_path = path
        self._stored: dict[_ParseKey, list[RuleSet]] | None = None
        self._stored_for: tuple[str, ...] | None = None
        """What the stored rules were parsed with: Textual's version and the variables."""
        self._wanted: tuple[str, ...] | None = None
        self._used: set[_ParseKey] = set()
        self._changed = False

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._wanted = None

    def _store(self) -> dict[_ParseKey, list[RuleSet]]:
        if self._wanted is None:
            self._wanted = _signature(self._variables)
        if self._stored is None or self._stored_for != self._wanted:
            self._stored, self._stored_for = (
                _read_rules(self.store_path, self._wanted),
                self._wanted,
            )
        return self._stored

    def _parse_rules(
        self,
        css: str,
        read_from: tuple[str, str],
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key: _ParseKey = (css, read_from, is_default_rules, tie_breaker, scope)
        store = self._store()
        self._used.add(key)
        rules = store.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            if not any(rule.errors for rule in rules):  # an error is reported, never stored
                store[key] = rules
                self._changed = True
        return rules

    def save(self) -> None:
        """Write the store if this run parsed a source it did not hold."""
        if not self._changed or self._stored is None or self._stored_for is None:
            return
        self._changed = False
        places = {key[1] for key in self._used}
        kept = {
            key: rules
            for key, rules in self._stored.items()
            if key in self._used or key[1] not in places  # an older text of a place goes
        }
        try:
            blob = pickle.dumps((self._stored_for, kept), protocol=pickle.HIGHEST_PROTOCOL)
            self.store_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, temporary = tempfile.mkstemp(dir=self.store_path.parent, suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(blob)
                os.replace(temporary, self.store_path)
            except BaseException:
                os.unlink(temporary)
                raise
        except Exception:  # unwritable, or rules Textual can no longer pickle
            pass  # parsed again next time


def _signature(variables: dict[str, str]) -> tuple[str, ...]:
    """What stored rules must have been parsed with: this format, this Textual (its package's
    `__init__.py` as installed: an upgrade writes it anew; `textual.__version__` would read
    the package metadata, a millisecond) and these variables."""
    installed = os.stat(textual.__file__ or "")
    return (
        f"{STORE_FORMAT} {installed.st_mtime_ns} {installed.st_size}",
        *sorted(f"{name}={value}" for name, value in variables.items()),
    )


def _read_rules(path: Path, signature: tuple[str, ...]) -> dict[_ParseKey, list[RuleSet]]:
    """The rules stored in `path` for `signature`; empty when there are none."""
    try:
        stored_for, rules = pickle.loads(path.read_bytes())
    except Exception:  # missing, unreadable, torn, or from a Textual that pickles otherwise
        return {}
    if stored_for != signature or not isinstance(rules, dict):
        return {}
    return rules


def use_stored_stylesheet(app: App[Any], path: Path) -> StoredStylesheet:
    """Give `app` (in its `__init__`, before any CSS is read) a `StoredStylesheet` kept in
    `path`, with the variables of the sheet Textual made (`Stylesheet._variables`)."""
    stylesheet = StoredStylesheet(variables=app.stylesheet._variables, path=path)
    app.stylesheet = stylesheet
    return stylesheet


class EarlyFirstFrame(_AppBase):
    """Mixin (first in the bases) for an app that sends its first frame as soon as the first
    screen is drawn, and the whole screen after a frame a batch update held back.

    Textual sends no frame while a batch update is open (`App._batch_count`), and its start-up
    batch stays open until every widget of the first screen is mounted and what runs right
    after its first refresh is done (the item grid's inputs, the footer's keys): the first
    screen, laid out and drawn well before that, waited (a third of the time to it). And a
    frame held back counts as sent, so the frames after it carry only later changes: the rest
    of the screen would show only when something repaints it. Overrides `App._display`, the
    one place frames go; a held frame is redrawn whole from `Screen._compositor`.
    """

    _first_frame_sent = False
    _frame_held = False

    def first_frame_sent(self) -> None:
        """Called once, right after the first frame is handed to the terminal's writer."""

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        if renderable is None:
            super()._display(screen, renderable)
        elif not self._first_frame_sent:
            self._first_frame_sent = True
            held, self._batch_count = self._batch_count, 0
            try:
                super()._display(screen, renderable)
            finally:
                self._batch_count = held
            self.first_frame_sent()
        elif self._batch_count:
            self._frame_held = True
        else:
            if self._frame_held and screen is self.screen:
                self._frame_held = False
                renderable = screen._compositor.render_update(full=True) or renderable
            super()._display(screen, renderable)


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
    (headless too, where nothing is written); frames a batch update holds back are not sent
    (see `EarlyFirstFrame`). Wraps `App._display`, the one place frames go."""
    display = app._display

    def display_and_tell(screen: Screen[Any], renderable: Any) -> None:
        early = isinstance(app, EarlyFirstFrame) and not app._first_frame_sent
        held = app._batch_count
        display(screen, renderable)
        if renderable is None:
            return
        if not held or (early and isinstance(app, EarlyFirstFrame) and app._first_frame_sent):
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
