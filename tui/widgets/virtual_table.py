"""A keyed table on Textual's Line API that paints only the rows on screen."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.textual_internals import update_scrollbars

RowT = TypeVar("RowT")

SAMPLE_ROWS = 100
"""How many rows of a batch are measured to size an automatic column."""


def _none_last(value: Any) -> tuple[bool, Any]:
    """Make None sort after every value without comparing None to a value."""
    return (value is None, value if value is not None else 0)


class VirtualTable(ScrollView, Generic[RowT], can_focus=True):
    """Rows live in a plain list; each paint touches only the visible lines."""

    HELP: ClassVar[str | None] = """\
## Table

Arrows move the cursor, **PgUp/PgDn** a page, **Home**/`g` to the first row,
**End**/`G` to the last loaded row. **Enter** opens the highlighted row.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, id="table.up", tooltip="Previous row"),
        Binding("down,j", "cursor_down", "Down", show=False, id="table.down", tooltip="Next row"),
        Binding(
            "pageup", "page_up", "Page up", show=False, id="table.page_up", tooltip="Previous page"
        ),
        Binding(
            "pagedown",
            "page_down",
            "Page down",
            show=False,
            id="table.page_down",
            tooltip="Next page",
        ),
        Binding("home,g", "first", "First", show=False, id="table.first", tooltip="First row"),
        Binding(
            "end,G", "last", "Last", id="table.last", key_display="G", tooltip="Last loaded row"
        ),
        Binding("enter", "select", "Open", id="table.select", tooltip="Open the highlighted row"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "virtual-table--header",
        "virtual-table--cursor",
        "virtual-table--tail",
    }

    DEFAULT_CSS = """
    VirtualTable {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        background: $surface;
        color: $foreground;
        & > .virtual-table--header { text-style: bold; color: $text-accent; }
        & > .virtual-table--cursor { background: $block-cursor-blurred-background; }
        &:focus > .virtual-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: bold;
        }
        & > .virtual-table--tail { color: $text-muted; text-style: italic; }
    }
    """

    class RowHighlighted(Message):
        """The cursor moved to another row."""

        def __init__(self, table: VirtualTable[Any], index: int, key: str | None, row: Any) -> None:
            super().__init__()
            self.table = table
            self.index = index
            self.key = key
            self.row = row

        @property
        def control(self) -> VirtualTable[Any]:
            return self.table

    class RowSelected(Message):
        """Enter was pressed on a row."""

        def __init__(self, table: VirtualTable[Any], index: int, key: str, row: Any) -> None:
            super().__init__()
            self.table = table
            self.index = index
            self.key = key
            self.row = row

        @property
        def control(self) -> VirtualTable[Any]:
            return self.table

    class NearEnd(Message):
        """The cursor is within `near_end` rows of the last loaded row."""

        def __init__(self, table: VirtualTable[Any], remaining: int) -> None:
            super().__init__()
            self.table = table
            self.remaining = remaining

        @property
        def control(self) -> VirtualTable[Any]:
            return self.table

    def __init__(
        self,
        columns: Sequence[Column[RowT]],
        row_key: Callable[[RowT], str],
        *,
        near_end: int = 20,
        empty_text: str = "nothing to show",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._columns: list[Column[RowT]] = list(columns)
        self._row_key = row_key
        self.near_end = near_end
        self.empty_text = empty_text
        self._rows: list[RowT] = []
        """Rows in storage order: arrival order, or ascending by the sort key."""
        self._sort_keys: list[Any] | None = None
        """Sort key per stored row (parallel to _rows) while a sort is active."""
        self._by_key: dict[str, RowT] = {}
        self._arrival: dict[str, int] = {}
        self._next_arrival = 0
        self._sort_column: str | None = None
        self._reverse = False
        self._auto_widths: dict[str, int] = {}
        self._layout: list[tuple[Column[RowT], int]] = []
        self._layout_width = -1
        self._cursor = 0
        self._tail_text: str | None = None

    # ----------------------------------------------------------------- data

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def columns(self) -> list[Column[RowT]]:
        return list(self._columns)

    @columns.setter
    def columns(self, columns: Sequence[Column[RowT]]) -> None:
        self._columns = list(columns)
        self._auto_widths = {}
        self._measure(self._rows[:SAMPLE_ROWS])
        self._invalidate_layout()

    @property
    def column_keys_shown(self) -> list[str]:
        """Keys of the columns that fit at the current width."""
        return [column.key for column, _ in self._fit_columns()]

    def row_at(self, index: int) -> RowT:
        """The row shown at display position `index`."""
        if self._reverse:
            return self._rows[len(self._rows) - 1 - index]
        return self._rows[index]

    def head(self, count: int) -> list[RowT]:
        """The first `count` rows in display order (costs O(count), not O(rows))."""
        count = min(count, len(self._rows))
        return [self.row_at(index) for index in range(count)]

    def rows(self) -> list[RowT]:
        """All loaded rows in display order (a copy)."""
        return list(reversed(self._rows)) if self._reverse else list(self._rows)

    def get_row(self, key: str) -> RowT | None:
        return self._by_key.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def clear(self) -> None:
        """Drop every row and reset the cursor (the sort order is kept)."""
        self._rows = []
        self._sort_keys = [] if self._sort_column is not None else None
        self._by_key = {}
        self._arrival = {}
        self._next_arrival = 0
        self._cursor = 0
        self._auto_widths = {}
        self._update_virtual_size()
        self.scroll_to(y=0, animate=False, immediate=True)
        self._invalidate_layout()

    def set_rows(self, rows: Iterable[RowT]) -> None:
        """Replace every row."""
        self.clear()
        self.append_rows(rows)

    def append_rows(self, rows: Iterable[RowT]) -> int:
        """Add rows not seen before (keyed); update seen ones in place. Returns rows added.

        Costs O(len(rows)) Python work: new rows go at the end, or into place by bisection
        while a sort is active.
        """
        new_rows = list(rows)
        added = 0
        cursor_key = self.cursor_key
        grew_widths = self._measure(new_rows[:SAMPLE_ROWS])
        for row in new_rows:
            key = self._row_key(row)
            if key in self._by_key:
                self._replace(key, row)
                continue
            self._by_key[key] = row
            self._arrival[key] = self._next_arrival
            self._next_arrival += 1
            added += 1
            if self._sort_keys is None:
                self._rows.append(row)
                continue
            sort_key = self._sort_value(row)
            position = bisect_right(self._sort_keys, sort_key)
            self._sort_keys.insert(position, sort_key)
            self._rows.insert(position, row)
            display = len(self._rows) - 1 - position if self._reverse else position
            if cursor_key is not None and display <= self._cursor:
                self._cursor += 1
        self._update_virtual_size()
        if grew_widths:
            self._invalidate_layout()
        elif self._sort_keys is None and not self._reverse:
            first_new = len(self._rows) - added
            self._refresh_rows(first_new, added + 1)
        else:
            self.refresh()
        return added

    def _replace(self, key: str, row: RowT) -> None:
        old = self._by_key[key]
        self._by_key[key] = row
        if self._sort_keys is not None:
            position = self._rows.index(old)
            del self._rows[position]
            del self._sort_keys[position]
            sort_key = self._sort_value(row)
            position = bisect_right(self._sort_keys, sort_key)
            self._sort_keys.insert(position, sort_key)
            self._rows.insert(position, row)
        else:
            self._rows[self._rows.index(old)] = row
        self.refresh()

    # ---------------------------------------------------------------- sort

    @property
    def sort_column(self) -> str | None:
        return self._sort_column

    @property
    def sort_reverse(self) -> bool:
        return self._reverse

    def sort_by(self, column_key: str | None, reverse: bool | None = None) -> None:
        """Sort loaded rows by a column; the same column again toggles the direction.

        `None` restores arrival order. The cursor stays on the same row.
        """
        cursor_key = self.cursor_key
        if column_key is None:
            self._sort_column = None
            self._reverse = False
            self._sort_keys = None
            self._rows.sort(key=lambda row: self._arrival[self._row_key(row)])
        else:
            if reverse is None:
                reverse = not self._reverse if column_key == self._sort_column else False
            self._sort_column = column_key
            self._reverse = reverse
            decorated = sorted(
                (
                    (self._sort_value(row), self._arrival[self._row_key(row)], row)
                    for row in self._rows
                ),
                key=lambda item: (item[0], item[1]),
            )
            self._sort_keys = [item[0] for item in decorated]
            self._rows = [item[2] for item in decorated]
        if cursor_key is not None:
            self._cursor = self._display_index(cursor_key)
        self.refresh()
        self._scroll_cursor_into_view(center=True)

    def _sort_value(self, row: RowT) -> Any:
        column = self._column(self._sort_column or "")
        getter = column.sort_key or column.text
        return _none_last(getter(row))

    def _column(self, key: str) -> Column[RowT]:
        for column in self._columns:
            if column.key == key:
                return column
        raise KeyError(key)

    def _display_index(self, key: str) -> int:
        row = self._by_key[key]
        position = next(i for i, candidate in enumerate(self._rows) if candidate is row)
        return len(self._rows) - 1 - position if self._reverse else position

    # -------------------------------------------------------------- cursor

    @property
    def cursor_row(self) -> int:
        return self._cursor

    @property
    def cursor_key(self) -> str | None:
        if not self._rows:
            return None
        return self._row_key(self.row_at(self._cursor))

    @property
    def cursor_value(self) -> RowT | None:
        return self.row_at(self._cursor) if self._rows else None

    def move_cursor(self, index: int) -> None:
        """Put the cursor on display row `index` (clamped), repainting only what changed."""
        if not self._rows:
            return
        index = max(0, min(index, len(self._rows) - 1))
        old = self._cursor
        self._cursor = index
        if old != index:
            scrolled = self._scroll_cursor_into_view()
            if not scrolled:
                self._refresh_rows(old, 1)
                self._refresh_rows(index, 1)
            self.post_message(self.RowHighlighted(self, index, self.cursor_key, self.cursor_value))
        remaining = len(self._rows) - 1 - index
        if remaining < self.near_end:
            self.post_message(self.NearEnd(self, remaining))

    def move_cursor_to_key(self, key: str) -> bool:
        if key not in self._by_key:
            return False
        self.move_cursor(self._display_index(key))
        return True

    @property
    def _page_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_cursor_into_view(self, center: bool = False) -> bool:
        """Scroll so the cursor row is visible; True if the view moved."""
        top = round(self.scroll_y)
        page = self._page_rows
        target = top
        if center and not (top <= self._cursor < top + page):
            target = self._cursor - page // 2
        elif self._cursor < top:
            target = self._cursor
        elif self._cursor >= top + page:
            target = self._cursor - page + 1
        target = max(0, min(target, max(0, self._line_count() - page)))
        if target == top:
            return False
        self.scroll_to(y=target, animate=False, immediate=True)
        return True

    def action_cursor_up(self) -> None:
        self.move_cursor(self._cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self._cursor + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self._cursor - self._page_rows)

    def action_page_down(self) -> None:
        self.move_cursor(self._cursor + self._page_rows)

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self._rows) - 1)

    def action_select(self) -> None:
        if self._rows:
            row = self.row_at(self._cursor)
            self.post_message(self.RowSelected(self, self._cursor, self._row_key(row), row))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        index = round(self.scroll_y) + offset.y - 1
        if 0 <= index < len(self._rows):
            self.move_cursor(index)
            if event.chain >= 2:
                self.action_select()

    # ---------------------------------------------------------------- tail

    @property
    def tail_text(self) -> str | None:
        """A line drawn after the last row ("loading more…", an error and its retry key)."""
        return self._tail_text

    @tail_text.setter
    def tail_text(self, text: str | None) -> None:
        if text == self._tail_text:
            return
        self._tail_text = text
        self._refresh_rows(len(self._rows), 1)

    # -------------------------------------------------------------- layout

    def _line_count(self) -> int:
        """Rows plus one line for the tail text (always kept, so setting it moves nothing)."""
        return len(self._rows) + 1

    def _update_virtual_size(self) -> None:
        """Grow the scrollable height without a layout pass (which repaints the whole screen).

        The table's own size never depends on its rows (it is sized by CSS), so only the
        scrollbars need to learn the new height.
        """
        size = Size(self._layout_width_hint(), self._line_count() + 1)
        if size == self.virtual_size:
            return
        if not self.is_mounted:
            self.virtual_size = size
            return
        self.set_reactive(VirtualTable.virtual_size, size)
        update_scrollbars(self, size)

    def _layout_width_hint(self) -> int:
        return max(1, self.scrollable_content_region.width) if self.is_mounted else 1

    def _measure(self, sample: Sequence[RowT]) -> bool:
        """Grow automatic column widths to fit a sample; True if any grew."""
        grew = False
        for column in self._columns:
            if column.width is not None:
                continue
            width = self._auto_widths.get(
                column.key, max(column.min_width, cell_len(column.label) + 2)
            )
            for row in sample:
                width = max(width, cell_len(plain(column.text(row))))
            width = min(width, max(column.max_width, column.min_width))
            if width != self._auto_widths.get(column.key):
                self._auto_widths[column.key] = width
                grew = True
        return grew

    def _width_of(self, column: Column[RowT]) -> int:
        if column.width is not None:
            return column.width
        return self._auto_widths.get(column.key, max(column.min_width, cell_len(column.label) + 2))

    def _invalidate_layout(self) -> None:
        self._layout_width = -1
        self.refresh()

    def _fit_columns(self) -> list[tuple[Column[RowT], int]]:
        """Columns that fit the width (lowest priority dropped first), with their widths."""
        available = max(1, self.scrollable_content_region.width) - 1  # cursor gutter
        if self._layout_width == available and self._layout:
            return self._layout
        shown = list(self._columns)
        widths = {column.key: self._width_of(column) for column in shown}

        def needed() -> int:
            return sum(widths[column.key] for column in shown) + max(0, len(shown) - 1)

        while len(shown) > 1 and needed() > available:
            shown.remove(min(shown, key=lambda column: column.priority))
        spare = available - needed()
        flexible = [column for column in shown if column.flex]
        if spare > 0 and flexible:
            share, extra = divmod(spare, len(flexible))
            for position, column in enumerate(flexible):
                widths[column.key] += share + (1 if position < extra else 0)
        self._layout = [(column, widths[column.key]) for column in shown]
        self._layout_width = available
        return self._layout

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()
        self._invalidate_layout()
        self._scroll_cursor_into_view()

    # ------------------------------------------------------------- painting

    def _refresh_rows(self, first_index: int, count: int) -> None:
        """Repaint the screen lines showing display rows first_index.. (if visible)."""
        top = round(self.scroll_y)
        page = self._page_rows
        start = max(first_index, top)
        end = min(first_index + count, top + page)
        if start >= end:
            return
        width = self.scrollable_content_region.width
        self.refresh(Region(0, start - top + 1, width, end - start))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            return self._header_strip(width, base)
        index = round(self.scroll_y) + y - 1
        if index < len(self._rows):
            return self._row_strip(index, width, base)
        if index == len(self._rows) and (self._tail_text is not None or not self._rows):
            text = self._tail_text if self._tail_text is not None else self.empty_text
            style = base + self.get_component_rich_style("virtual-table--tail")
            return Strip([Segment(" " + plain(text), style)]).adjust_cell_length(width, base)
        return Strip.blank(width, base)

    def _header_strip(self, width: int, base: Style) -> Strip:
        style = base + self.get_component_rich_style("virtual-table--header")
        segments = [Segment(" ", style)]
        for position, (column, column_width) in enumerate(self._fit_columns()):
            label = column.label
            if column.key == self._sort_column:
                label += " ▼" if self._reverse else " ▲"
            if position:
                segments.append(Segment(" ", style))
            segments.append(Segment(_fit(label, column_width, column.justify), style))
        return Strip(segments).simplify().adjust_cell_length(width, base)

    def _row_strip(self, index: int, width: int, base: Style) -> Strip:
        row = self.row_at(index)
        is_cursor = index == self._cursor
        cursor_style = self.get_component_rich_style("virtual-table--cursor") if is_cursor else None
        line_style = base + cursor_style if cursor_style is not None else base
        segments = [Segment("▸" if is_cursor else " ", line_style)]
        for position, (column, column_width) in enumerate(self._fit_columns()):
            if position:
                segments.append(Segment(" ", line_style))
            cell_style = line_style
            if column.style is not None and cursor_style is None:
                # (the cursor line keeps the cursor's colours: a theme's cell colour may not
                # read on its background; the cell's words say the same)
                extra = column.style(row)
                if extra:
                    cell_style = base + Style.parse(extra)
            segments.append(
                Segment(_fit(plain(column.text(row)), column_width, column.justify), cell_style)
            )
        return Strip(segments).simplify().adjust_cell_length(width, line_style)


def _fit(text: str, width: int, justify: Literal["left", "right"]) -> str:
    """Pad or cut text to exactly `width` cells, marking a cut with an ellipsis."""
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, max(0, width - 1)) + "…" if width > 0 else ""
    padding = " " * (width - length)
    return padding + text if justify == "right" else text + padding
