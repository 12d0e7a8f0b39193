"""One item row drawn as a single line of text (every row of the grid but the one being edited)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from tui.domain.freight_class import format_class
from tui.domain.quote_form import IMPLIED_MARK, ITEM_FIELDS, OVERRIDE_MARK, ItemDraft
from tui.theme_colours import field_palette
from tui.widgets import WidgetMessage

PLACEHOLDERS: dict[str, str] = {
    "quantity": "1",
    "package": "pallet",
    "weight": "lb",
    "length": "L",
    "width": "W",
    "height": "H",
    "freight_class": "",
    "description": "what it is",
}
"""What an empty field shows, dimmed (the class shows the implied one instead)."""

RIGHT_ALIGNED = frozenset({"density", "lb", "cube"})


class Column(NamedTuple):
    """Where one cell of a row sits; `key` is a field, or num, times, mark, density, lb, cube."""

    key: str
    x: int
    width: int


class Derived(NamedTuple):
    """What a row's fields imply, as the grid shows it."""

    mark: str
    density: str
    line_weight: str
    line_cube: str
    class_placeholder: str


def derive(item: ItemDraft) -> Derived:
    """Density, implied class, its mark and the line totals of `item`, as text."""
    density = item.density_pcf()
    implied = item.implied_class()
    if item.class_override() is not None:
        mark = OVERRIDE_MARK
    elif implied is not None and not item.freight_class.strip():
        mark = IMPLIED_MARK
    else:
        mark = ""
    line = item.line()
    return Derived(
        mark=mark,
        density=f"{density:.2f}" if density is not None else "–",
        line_weight=f"{line.line_weight:,.0f}" if line else "–",
        line_cube=f"{line.line_cube_ft3:,.1f}" if line else "–",
        class_placeholder=format_class(implied) if implied is not None else "",
    )


class ItemRow(Widget):
    """A row as one line: no inputs, so adding, removing or moving rows lays out little."""

    DEFAULT_CSS = """
    ItemRow {
        height: 1;
    }
    """
    """The cells' colours are the theme's (`field_palette`), not component classes."""

    class Clicked(WidgetMessage["ItemRow"]):
        """The user clicked field `name` of the row (to edit it)."""

        def __init__(self, row: ItemRow, name: str) -> None:
            super().__init__(row)
            self.name = name

    def __init__(self, item: ItemDraft, columns: Callable[[], Sequence[Column]]) -> None:
        """`columns` says where the grid puts each cell now."""
        super().__init__(classes="item-line")
        self._item = item
        self._columns = columns
        self._number = 0
        self._invalid: frozenset[str] = frozenset()
        self._derived: Derived | None = None

    # -- the row's data --------------------------------------------------------------------

    @property
    def item(self) -> ItemDraft:
        """The row as typed (every field of the draft, shown or not)."""
        return self._item

    @item.setter
    def item(self, item: ItemDraft) -> None:
        if item != self._item:
            self._item = item
            self._derived = None
            self.refresh()

    def set_field(self, name: str, value: str) -> bool:
        """Take one field's new text; False when it already held it."""
        if getattr(self._item, name) == value:
            return False
        changed: dict[str, Any] = {name: value}
        self.item = replace(self._item, **changed)
        return True

    @property
    def derived(self) -> Derived:
        """What the row's fields imply (computed once per change)."""
        if self._derived is None:
            self._derived = derive(self._item)
        return self._derived

    @property
    def number(self) -> int:
        return self._number

    def set_number(self, number: int) -> None:
        if number != self._number:
            self._number = number
            self.refresh()

    @property
    def invalid(self) -> frozenset[str]:
        """The fields shown red."""
        return self._invalid

    def set_invalid(self, names: frozenset[str]) -> None:
        if names != self._invalid:
            self._invalid = names
            self.refresh()

    # -- drawing ---------------------------------------------------------------------------

    def _cell(self, column: Column, styles: dict[str, Style]) -> tuple[str, Style]:
        key = column.key
        item = self._item
        if key in ITEM_FIELDS:
            value: str = getattr(item, key)
            invalid = key in self._invalid
            if value:
                return value, styles["invalid" if invalid else "value"]
            placeholder = (
                self.derived.class_placeholder
                if key == "freight_class"
                else PLACEHOLDERS.get(key, "")
            )
            return placeholder, styles["invalid-placeholder" if invalid else "placeholder"]
        derived = self.derived
        text = {
            "num": f"{self._number:>2}",
            "times": "×",
            "mark": derived.mark,
            "density": derived.density,
            "lb": derived.line_weight,
            "cube": derived.line_cube,
        }.get(key, "")
        muted = key in ("num", "times", "mark")
        return text, styles["muted" if muted else "base"]

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y != 0:
            return Strip.blank(width, base)
        palette = field_palette(self)
        styles = {
            "value": base + palette.value,
            "placeholder": base + palette.placeholder,
            "invalid": base + palette.invalid,
            "invalid-placeholder": base + palette.invalid_placeholder,
            "muted": base + palette.muted,
        }
        styles["base"] = base
        segments: list[Segment] = []
        x = 0
        for column in self._columns():
            if column.x >= width:
                break
            if column.x > x:
                segments.append(Segment(" " * (column.x - x), base))
            cell_width = min(column.width, width - column.x)
            text, style = self._cell(column, styles)
            if column.key in RIGHT_ALIGNED and cell_len(text) < cell_width:
                text = " " * (cell_width - cell_len(text)) + text
            segments.append(Segment(set_cell_size(text, cell_width), style))
            x = column.x + cell_width
        if x < width:
            segments.append(Segment(" " * (width - x), base))
        return Strip(segments, width)

    def on_click(self, event: events.Click) -> None:
        """A click edits the field under the pointer."""
        name = "quantity"
        for column in self._columns():
            if column.x <= event.x and column.key in ITEM_FIELDS:
                name = column.key
        self.post_message(self.Clicked(self, name))
