"""Every private name of Textual that Freight uses, in one place.

Everywhere else Freight uses Textual's public API. Each function here reaches a private name
because no public one does the job; each says which name and why. The names were checked on
Textual `CHECKED_ON` (pyproject.toml allows only that minor), and `tests/test_textual_internals.py`
fails when an upgrade removes or changes one of them: run it before widening the range.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any, cast

from textual import _ansi_sequences
from textual.keys import _character_to_key, _normalize_key_list

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.dom import DOMNode
    from textual.geometry import Size
    from textual.message_pump import MessagePump
    from textual.widget import Widget

CHECKED_ON = "8.2"
"""The Textual minor these names were checked on (`major.minor`)."""

# -- keys from the terminal ---------------------------------------------------------------


def ansi_sequence_keys() -> MutableMapping[str, object]:
    """Textual's table of terminal sequences to keys (`textual._ansi_sequences`).

    The app maps ESC + digit or letter to alt keys at once (see
    `tui.app.read_alt_keys_at_once`); Textual has no public way to add a sequence.
    """

    return cast("MutableMapping[str, object]", _ansi_sequences.ANSI_SEQUENCES_KEYS)


# -- bindings and keys (the [keymap] check) ----------------------------------------------


def merged_bindings(cls: type[DOMNode]) -> BindingsMap:
    """The bindings a class has, its own and inherited, as Textual merges them
    (`DOMNode._merge_bindings`): the keymap check reads classes, not instances."""
    return cls._merge_bindings()


def key_of_character(character: str) -> str:
    """The key name Textual gives a printable character (`/` is `slash`):
    `textual.keys._character_to_key`."""

    return _character_to_key(character)


def normalized_keys(keys: str) -> str:
    """A comma-separated key list as Textual reads a binding's keys (single characters become
    key names): `textual.keys._normalize_key_list`."""

    return _normalize_key_list(keys)


# -- the theme ----------------------------------------------------------------------------


def refresh_ansi_filter(app: App[Any]) -> None:
    """Fit `app`'s filter that turns ANSI colours into RGB to its current theme: off for an
    ANSI theme, a dark or light palette otherwise (`App._refresh_truecolor_filter`, which
    Textual's theme watcher calls). For a theme set without that watcher (`set_reactive`)."""
    app._refresh_truecolor_filter(app.ansi_theme)


# -- widgets ------------------------------------------------------------------------------


def is_leaving(node: DOMNode) -> bool:
    """True once Textual has begun taking `node` or one of its ancestors down (a screen popped,
    a widget removed, the app ending) though it is still attached: its children may be gone
    already (`MessagePump._closing`, `_closed`, `DOMNode._pruning`)."""
    current: MessagePump | None = node
    while current is not None:
        if current._closing or current._closed or getattr(current, "_pruning", False):
            return True
        current = current._parent
    return False


def add_default_css(app: App[Any], *classes: type[DOMNode]) -> None:
    """Add the default CSS of widget classes not mounted yet to `app`'s stylesheet and parse
    it now, as the first mount of each would (`DOMNode._get_default_css`, read as
    `Widget._post_register` reads it): the same sources, so nothing is styled otherwise, and
    a screen opened later mounts without parsing CSS. Only the class is read (no instance is
    made: `__new__` alone)."""
    stylesheet = app.stylesheet
    for widget_class in classes:
        for location, css, tie_breaker, scope in widget_class.__new__(
            widget_class
        )._get_default_css():
            stylesheet.add_source(
                css,
                read_from=location,
                is_default_css=True,
                tie_breaker=tie_breaker,
                scope=scope,
            )
    stylesheet.rules_map  # noqa: B018 (parsed here, not at the mount)


def update_scrollbars(widget: Widget, virtual_size: Size) -> None:
    """Size `widget`'s scrollbars for `virtual_size` without a layout pass
    (`Widget._scroll_update`): a table whose own size never depends on its rows."""
    widget._scroll_update(virtual_size)


SETTLED_INPUT_CLASSES = "-valid"
"""The class an `Input` built with a value gives itself when it checks that value (`-valid`,
with no validators). Given at construction it is there already, so Textual does not style the
input and its four parts again before it is even mounted (the origin's ZIP: about 20,000
Python opcodes of the quote's first frame). Not `-textual-compact`: `compact`'s toggle class
is taken off as the reactive starts, whatever the constructor gave."""
