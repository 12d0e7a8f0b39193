"""A checkbox whose state reads as text (`[x]` on, `[ ]` off) and that leaves Enter alone."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Checkbox

ON = "x"
OFF = " "


class TickBox(Checkbox, inherit_bindings=False):
    """`[x] Stackable`: on and off differ in the text, not only in colour (a monochrome
    terminal, TERM=vt100, a screen reader or a screenshot read the same). Space flips it;
    Enter moves on to the next field, as it does from the inputs beside it (Textual's
    checkbox flips on Enter too, so a person pressing Enter to get past it changed it)."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"
    BUTTON_INNER = OFF

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Toggle", show=False),
        Binding("enter", "move_on", "Next", show=False),
    ]

    # The brackets take the button's background as their colour (Textual draws the sides so).
    DEFAULT_CSS = """
    TickBox > .toggle--button {
        color: $background;
        background: $foreground-muted;  /* checked at 3:1 on each pane (tui.readable) */
        text-style: bold;
    }
    TickBox.-on > .toggle--button {
        color: $background;
        background: $success;
    }
    /* An ANSI theme: the terminal's own text for the brackets (a translucent default colour
       is no colour at all), its own background for the mark on the success colour. */
    TickBox:ansi > .toggle--button {
        color: ansi_default;
        background: ansi_default;
    }
    TickBox:ansi.-on > .toggle--button {
        color: ansi_default;
        background: $success;
    }
    """

    def watch_value(self) -> None:
        super().watch_value()
        self.BUTTON_INNER = ON if self.value else OFF
        self.refresh(layout=False)

    def action_move_on(self) -> None:
        """Enter: on to the next field."""
        self.screen.focus_next()
