"""Form keys that move focus as they arrive, so keys typed right after land in the next field."""

from __future__ import annotations

from typing import ClassVar

from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Input, OptionList


class TypeaheadFocus(Widget):
    """Mix into a form (before its container class): Tab, shift+tab and, where a field says
    so, Enter move focus on arrival instead of after the keys queued behind them.

    Textual hands each key to the widget focused when the app reads it; a plain Tab binding
    only runs once the focused input has worked through its queue, so keys typed ahead of
    it (a paste, a scanner, a fast typist) all land in the old field. Priority bindings run
    while the key is read, so focus has moved before the next key is handed on.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "tab",
            "typeahead_focus(1)",
            "Next",
            id="form.next_field",
            tooltip="Next field",
            show=False,
            priority=True,
        ),
        Binding(
            "shift+tab",
            "typeahead_focus(-1)",
            "Previous",
            id="form.previous_field",
            tooltip="Previous field",
            show=False,
            priority=True,
        ),
        Binding(
            "enter",
            "typeahead_enter",
            "Next",
            id="form.enter_next",
            tooltip="Next field",
            show=False,
            priority=True,
        ),
    ]

    def enter_moves_on(self, field: Input) -> bool:
        """Whether Enter in `field` just goes to the next field (else the field gets it)."""
        return False

    def action_typeahead_focus(self, step: int) -> None:
        focused = self.screen.focused
        if isinstance(focused, OptionList):  # an open dropdown uses the key itself
            raise SkipAction
        if step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def action_typeahead_enter(self) -> None:
        focused = self.screen.focused
        if not isinstance(focused, Input) or not self.enter_moves_on(focused):
            raise SkipAction
        self.screen.focus_next()
