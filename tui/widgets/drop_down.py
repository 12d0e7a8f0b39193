"""A one-line drop-down: the chosen option and ▼, its list opened below it on demand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.style import Style
from textual.widget import Widget
from textual.widgets.option_list import Option

from tui.theme_colours import theme_colour
from tui.widgets import WidgetMessage
from tui.widgets.plain import OptionList


def next_match(labels: Sequence[str], start: int, character: str) -> int | None:
    """The index of the first label after `start` (wrapping round) that starts with
    `character`, ignoring case; None when no label does."""
    wanted = character.casefold()
    count = len(labels)
    for step in range(1, count + 1):
        index = (start + step) % count
        if labels[index].casefold().startswith(wanted):
            return index
    return None


class DropDownList(OptionList):
    """The open list of a `DropDown`, laid over the screen right below it."""

    DEFAULT_CSS = """
    DropDownList {
        overlay: screen;
        constrain: none inside;
        offset: 0 1;
        height: auto;
        max-height: 12;
        border: tall $border;
        background: $surface;
        padding: 0;
        scrollbar-size-vertical: 1;
        display: none;
    }
    DropDownList > .option-list--option {
        padding: 0 1;
    }
    /* In an ANSI theme (16 colours) $surface is transparent and a tall border's half blocks
       take the colours beneath: over a table the list lost its edge and showed the table's
       rows through. There it is drawn opaque, on the terminal's own background, in lines. */
    DropDownList:ansi {
        background: ansi_default;
        border: round $border;
    }
    """

    class Outside(Message):
        """A click outside the open list."""

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # The list captures the mouse while open: a press anywhere else closes it.
        width, height = self.outer_size
        if not (0 <= event.x < width and 0 <= event.y < height):
            event.stop()
            self.post_message(self.Outside())


class DropDown(Widget, can_focus=True):
    """A drop-down of fixed options, drawn as one widget: `Dock        ▼`.

    Enter, space, ↓ or a click opens the list below it (Enter or a click picks, Esc closes);
    a letter picks the next option that starts with it, or moves to it in the open list.
    Posts `Changed` when the value changes. (Textual's `Select` is five widgets and a hidden
    list; the quote form shows three drop-downs in its first frame.)
    """

    DEFAULT_CSS = """
    DropDown {
        width: 14;
        height: 1;
        background: $surface;
        color: $foreground;
        pointer: pointer;
    }
    DropDown:focus {
        background: $primary;
        color: $text;
        text-style: bold;
    }
    """
    ARROW_COLOURS = ("foreground-muted", "text")
    """The arrow's theme colour, then focused: the theme's muted tier, checked at 3:1
    (tui.readable); on the focused background the text colour that reads."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter,space,down",
            "open",
            "Choose",
            id="drop_down.open",
            tooltip="Open the list",
            show=False,
        ),
        Binding(
            "escape",
            "close",
            "Close",
            id="drop_down.close",
            tooltip="Close the list, keeping the choice",
            show=False,
        ),
    ]

    value: reactive[str] = reactive("", init=False, layout=False)
    """The chosen option's value."""

    @dataclass
    class Changed(WidgetMessage["DropDown"]):
        """The value changed (by the user or by setting `value`)."""

        value: str

    def __init__(
        self,
        options: Sequence[tuple[str, str]],
        value: str,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.options: tuple[tuple[str, str], ...] = tuple(options)
        """(label, value) of each option, in the order shown."""
        self.labels = [label for label, _value in self.options]
        self.set_reactive(DropDown.value, self._known(value))
        self._list: DropDownList | None = None

    def _known(self, value: str) -> str:
        values = [option for _label, option in self.options]
        return value if value in values else values[0]

    def validate_value(self, value: str) -> str:
        return self._known(value)

    def watch_value(self, value: str) -> None:
        self.post_message(self.Changed(self, value))

    @property
    def label(self) -> str:
        """The chosen option's label."""
        return self.labels[self.index]

    @property
    def index(self) -> int:
        """The chosen option's position."""
        return [value for _label, value in self.options].index(self.value)

    @property
    def expanded(self) -> bool:
        """True while the list is open."""
        return self._list is not None and self._list.display

    def render(self) -> Content:
        arrow = " ▼ "
        room = max(0, self.size.width - len(arrow))
        label = self.label
        while cell_len(label) > room:
            label = label[:-1]
        return Content.assemble(
            label + " " * (room - cell_len(label)),
            (arrow, Style(foreground=theme_colour(self, self.ARROW_COLOURS[self.has_focus]))),
        )

    def choose(self, index: int) -> None:
        """Make the option at `index` the value."""
        self.value = self.options[index][1]

    async def action_open(self) -> None:
        if self._list is None:
            self._list = DropDownList(*(Option(label) for label in self.labels))
            # Borders 2, option padding 2, a scrollbar when the list is longer than it.
            extra = 4 + (len(self.labels) > 10)
            self._list.styles.width = max(
                self.size.width, *(cell_len(label) + extra for label in self.labels)
            )
            await self.mount(self._list)
        self._list.highlighted = self.index
        self._list.display = True
        self._list.focus()
        self._list.capture_mouse()

    def action_close(self) -> None:
        if not self.expanded:
            raise SkipAction
        self._close()

    def _close(self) -> None:
        if self._list is not None and self._list.display:
            self._hide()
            if self._list.has_focus:
                self.focus()

    def _hide(self) -> None:
        if self._list is not None:
            self._list.display = False
            self._list.release_mouse()

    @on(DropDownList.Outside)
    def _clicked_outside(self, event: DropDownList.Outside) -> None:
        event.stop()
        self._close()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index)
        self._close()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.call_after_refresh(self._close_unless_focused)

    def _close_unless_focused(self) -> None:
        if self._list is not None and self._list.display and not self._list.has_focus:
            self._hide()

    async def on_click(self, event: events.Click) -> None:
        if event.widget is self:
            event.stop()
            await self.action_open()

    def on_key(self, event: events.Key) -> None:
        character = event.character
        if character is None or not character.isalnum() or not event.is_printable:
            return
        options = self._list if self.expanded else None
        start = self.index if options is None else (options.highlighted or 0)
        index = next_match(self.labels, start, character)
        if index is None:
            return
        event.stop()
        event.prevent_default()
        if options is None:
            self.choose(index)
        else:
            options.highlighted = index
