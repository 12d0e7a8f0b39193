"""Tab and shift+tab move focus as they arrive, so keys typed right after land in the next field."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import OptionList

if TYPE_CHECKING:
    from textual.screen import Screen

TYPEAHEAD_BINDINGS: list[BindingType] = [
    Binding(
        "tab",
        "app.typeahead_focus(1)",
        "Next",
        id="form.next_field",
        tooltip="Next field",
        show=False,
        priority=True,
    ),
    Binding(
        "shift+tab",
        "app.typeahead_focus(-1)",
        "Previous",
        id="form.previous_field",
        tooltip="Previous field",
        show=False,
        priority=True,
    ),
]
"""Tab and shift+tab, run as they arrive (priority): the app's `action_typeahead_focus`
(`KeyFilter`) calls `move_focus`. A screen puts these in its BINDINGS; a form mixes in
`TypeaheadFocus`."""


def move_focus(screen: Screen[object], step: int) -> None:
    """Focus the next (`step` 1) or previous (-1) field of `screen`, unless an open
    drop-down has focus (it uses the key itself)."""
    if isinstance(screen.focused, OptionList):
        raise SkipAction
    if step > 0:
        screen.focus_next()
    else:
        screen.focus_previous()


class TypeaheadFocus(Widget):
    """Mix into a form, after its container class (`class Form(Vertical, TypeaheadFocus)`):
    Tab and shift+tab move focus on arrival.

    Textual hands each key to the widget focused when the app reads it; a plain Tab binding
    only runs once the focused input has worked through its queue, so keys typed ahead of
    it (a paste, a scanner, a fast typist) all land in the old field. Priority bindings run
    while the key is read, so focus has moved before the next key is handed on. Enter stays
    an ordinary key: run on arrival it would overtake a key binding still on its way (ctrl+s
    then Enter would move a field instead of confirming the booking ctrl+s opened).

    Textual's CSS lineage follows each class's first base: mixed in first, this class would
    take the container's place (Vertical's, or a modal screen's centring), whose DEFAULT_CSS
    and type selectors would then no longer apply. Bindings are merged along the whole MRO,
    so mixed in last they still apply to a container. Not to a screen: Screen's own Tab
    binding comes later in that merge and wins, so a screen takes `TYPEAHEAD_BINDINGS` into
    its own BINDINGS.
    """

    BINDINGS: ClassVar[list[BindingType]] = TYPEAHEAD_BINDINGS
