"""A keyed table on Textual's Line API that paints only the rows on screen."""

from __future__ import annotations

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
from textual.worker import get_current_worker

from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.listing.table_cursor import Move, TableCursor, scroll_top
from tui.listing.table_layout import ColumnLayout
from tui.listing.table_rows import TableRows, sort_orders
from tui.textual_internals import update_scrollbars

RowT = TypeVar("RowT")

SAMPLE_ROWS = 100
"""How many rows of a batch are measured to size an automatic column."""


# -- Which lines of a virtual table are on screen, and how its rows are painted: a header
# line, then one line per row (the cursor's marked), then the tail line.


class TableViewport:
    """The scrolling of a table whose first line is its header and whose rows are one line
    each, followed by one tail line (always kept, so setting it moves nothing)."""

    def __init__(self, table: ScrollView, row_count: Callable[[], int]) -> None:
        self.table = table
        self.row_count = row_count

    @property
    def page_rows(self) -> int:
        """Rows in view (the header takes a line)."""
        return max(1, self.table.scrollable_content_region.height - 1)

    @property
    def row_width(self) -> int:
        """The columns' width: the table's but the cursor's gutter."""
        return max(1, self.table.scrollable_content_region.width) - 1

    def line_count(self) -> int:
        """Rows plus one line for the tail text."""
        return self.row_count() + 1

    def show(self, cursor: int, center: bool = False) -> bool:
        """Scroll so display row `cursor` is visible; True if the view moved."""
        table = self.table
        top = round(table.scroll_y)
        target = scroll_top(top, self.page_rows, self.line_count(), cursor, center=center)
        if target == top:
            return False
        table.scroll_to(y=target, animate=False, immediate=True)
        return True

    def update_size(self) -> None:
        """Grow the scrollable height without a layout pass (which repaints the whole screen).

        The table's own size never depends on its rows (it is sized by CSS), so only the
        scrollbars need to learn the new height.
        """
        table = self.table
        width = max(1, table.scrollable_content_region.width) if table.is_mounted else 1
        size = Size(width, self.line_count() + 1)
        if size == table.virtual_size:
            return
        if not table.is_mounted:
            table.virtual_size = size
            return
        table.set_reactive(type(table).virtual_size, size)
        update_scrollbars(table, size)

    def refresh_rows(self, first_index: int, count: int) -> None:
        """Repaint the screen lines showing display rows first_index.. (if visible)."""
        table = self.table
        top = round(table.scroll_y)
        end = min(first_index + count, top + self.page_rows)
        start = max(first_index, top)
        if start >= end:
            return
        width = table.scrollable_content_region.width
        table.refresh(Region(0, start - top + 1, width, end - start))


def header_strip(
    fitted: Sequence[tuple[Column[Any], int]],
    sort_column: str | None,
    reverse: bool,
    style: Style,
    width: int,
    base: Style,
) -> Strip:
    """The header line: each column's label, the sorted one with its direction."""
    segments = [Segment(" ", style)]
    for position, (column, column_width) in enumerate(fitted):
        label = column.label
        if column.key == sort_column:
            label += " ▼" if reverse else " ▲"
        if position:
            segments.append(Segment(" ", style))
        segments.append(Segment(fit(label, column_width, column.justify), style))
    return Strip(segments).simplify().adjust_cell_length(width, base)


def row_strip(
    row: Any,
    fitted: Sequence[tuple[Column[Any], int]],
    cursor_style: Style | None,
    width: int,
    base: Style,
) -> Strip:
    """A row's line; `cursor_style` when the cursor is on it."""
    line_style = base + cursor_style if cursor_style is not None else base
    segments = [Segment("▸" if cursor_style is not None else " ", line_style)]
    for position, (column, column_width) in enumerate(fitted):
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
            Segment(fit(plain(column.text(row)), column_width, column.justify), cell_style)
        )
    return Strip(segments).simplify().adjust_cell_length(width, line_style)


def fit(text: str, width: int, justify: Literal["left", "right"]) -> str:
    """Pad or cut text to exactly `width` cells, marking a cut with an ellipsis."""
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, max(0, width - 1)) + "…" if width > 0 else ""
    padding = " " * (width - length)
    return padding + text if justify == "right" else text + padding


class VirtualTable(ScrollView, Generic[RowT], can_focus=True):
    """Rows live in a plain list; each paint touches only the visible lines."""

    HELP: ClassVar[str | None] = """\
## Table

Arrows move the cursor, **PgUp/PgDn** a page, **Home**/`g` to the first row,
**End**/`G` to the last loaded row. **Enter** opens the highlighted row.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move('up')", "Up", show=False, id="table.up", tooltip="Previous row"),
        Binding("down,j", "move('down')", "Down", show=False, id="table.down", tooltip="Next row"),
        Binding(
            "pageup",
            "move('page_up')",
            "Page up",
            show=False,
            id="table.page_up",
            tooltip="Previous page",
        ),
        Binding(
            "pagedown",
            "move('page_down')",
            "Page down",
            show=False,
            id="table.page_down",
            tooltip="Next page",
        ),
        Binding(
            "home,g", "move('first')", "First", show=False, id="table.first", tooltip="First row"
        ),
        Binding(
            "end,G",
            "move('last')",
            "Last",
            id="table.last",
            key_display="G",
            tooltip="Last loaded row",
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

    class RowMessage(Message):
        """Something happened on a row: its display position, key and value."""

        def __init__(self, table: VirtualTable[Any], index: int, key: str | None, row: Any) -> None:
            super().__init__()
            self.table = table
            self.index = index
            self.key = key
            self.row = row

        @property
        def control(self) -> VirtualTable[Any]:
            return self.table

    class RowHighlighted(RowMessage):
        """The cursor moved to another row."""

    class RowSelected(RowMessage):
        """Enter was pressed on a row."""

        key: str

        def __init__(self, table: VirtualTable[Any], index: int, key: str, row: Any) -> None:
            super().__init__(table, index, key, row)

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
        self._shape: ColumnLayout[RowT] = ColumnLayout(columns)
        self._row_key = row_key
        self.near_end = near_end
        self.empty_text = empty_text
        self._rows: TableRows[RowT] = TableRows(row_key)
        self._cursor = TableCursor(self._rows)
        self._tail_text: str | None = None
        self._view = TableViewport(self, lambda: len(self._rows))

    # ----------------------------------------------------------------- data

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def columns(self) -> list[Column[RowT]]:
        return list(self._shape.columns)

    @columns.setter
    def columns(self, columns: Sequence[Column[RowT]]) -> None:
        self._shape.reset(columns)
        self._shape.measure(self._rows.first(SAMPLE_ROWS))
        self._invalidate_layout()

    @property
    def column_keys_shown(self) -> list[str]:
        """Keys of the columns that fit at the current width."""
        return [column.key for column, _ in self._shape.fit(self._view.row_width)]

    def row_at(self, index: int) -> RowT:
        """The row shown at display position `index`."""
        return self._rows.at(index)

    def head(self, count: int) -> list[RowT]:
        """The first `count` rows in display order (costs O(count), not O(rows))."""
        count = min(count, len(self._rows))
        return [self._rows.at(index) for index in range(count)]

    def rows(self) -> list[RowT]:
        """All loaded rows in display order (a copy)."""
        return self._rows.shown()

    def get_row(self, key: str) -> RowT | None:
        return self._rows.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._rows

    def clear(self) -> None:
        """Drop every row and reset the cursor (the sort order is kept)."""
        self._rows.clear()
        self._cursor.index = 0
        self._shape.reset()
        self._view.update_size()
        self.scroll_to(y=0, animate=False, immediate=True)
        self._invalidate_layout()

    def set_rows(self, rows: Iterable[RowT]) -> None:
        """Replace every row (sorted once by the sort in force). The scrollbars go from the
        old height to the new one with no empty table between (a scrollbar hidden and shown
        again lays the whole screen out: a new search's rows would cost a layout pass)."""
        new_rows = list(rows)
        self._rows.replace_all(new_rows)
        self._cursor.index = 0
        self._shape.reset()
        self._shape.measure(new_rows[:SAMPLE_ROWS])
        self._view.update_size()
        self.scroll_to(y=0, animate=False, immediate=True)
        self._invalidate_layout()

    def filter_rows(self, mask: bytearray | None) -> None:
        """Show only the rows set in ``mask`` (a byte per row, in the order they came; None:
        every row), in the sort in force: the cursor stays on its row if it is still shown,
        else it goes to the first. The rows are kept: the next filter costs no reload."""
        key = self.cursor_key
        self._rows.filter(mask)
        self._cursor.index = 0
        self._shape.reset()
        self._shape.measure(self._rows.first(SAMPLE_ROWS))
        self._view.update_size()
        self.scroll_to(y=0, animate=False, immediate=True)
        self._invalidate_layout()
        if key is not None:
            self.move_cursor_to_key(key)

    @property
    def shown_mask(self) -> bytearray | None:
        """The filter in force: a byte per row, in the order they came (None: every row).
        Read it, do not change it."""
        return self._rows.mask

    def show_row(self, key: str, shown: bool) -> None:
        """Let one row through the filter of `filter_rows`, or hold it back."""
        cursor_key = self.cursor_key
        self._rows.show_row(key, shown)
        if cursor_key is not None and cursor_key in self._rows:
            self._cursor.follow(cursor_key)
        self._cursor.index = self._cursor.clamped(self._cursor.index)
        self._view.update_size()
        self.refresh()

    def append_rows(self, rows: Iterable[RowT]) -> int:
        """Add rows not seen before (keyed); update seen ones in place. Returns rows added.

        Costs O(len(rows)) Python work: new rows go at the end, or into place by bisection
        while a sort is active.
        """
        new_rows = list(rows)
        added = 0
        cursor_key = self.cursor_key
        grew_widths = self._shape.measure(new_rows[:SAMPLE_ROWS])
        store = self._rows
        for row in new_rows:
            display = store.add(row)
            if display is None:
                self.refresh()  # a row seen before, replaced in place
                continue
            added += 1
            self._cursor.row_added(display, cursor_key)
        self._view.update_size()
        if grew_widths:
            self._invalidate_layout()
        elif not store.sorted and not store.reverse:
            first_new = len(store) - added
            self._view.refresh_rows(first_new, added + 1)
        else:
            self.refresh()
        return added

    # ---------------------------------------------------------------- sort

    @property
    def sort_column(self) -> str | None:
        return self._rows.sort_column

    @property
    def sort_reverse(self) -> bool:
        return self._rows.reverse

    def sort_by(self, column_key: str | None, reverse: bool | None = None) -> None:
        """Sort loaded rows by a column; the same column again toggles the direction.

        `None` restores arrival order. The cursor stays on the same row.
        """
        cursor_key = self.cursor_key
        store = self._rows
        if column_key is None:
            store.sort(None, None, False)
        else:
            if reverse is None:
                reverse = not store.reverse if column_key == store.sort_column else False
            column = next((c for c in self._shape.columns if c.key == column_key), None)
            if column is None:
                raise KeyError(column_key)
            store.sort(column_key, column.sort_key or column.text, reverse)
        self._cursor.follow(cursor_key)
        self.refresh()
        self._view.show(self._cursor.index, center=True)

    def prime_sorts(self, column_keys: Sequence[str]) -> None:
        """Read these columns' sort values and orders on a thread, in this order, so that a
        first sort by one finds them ready (at 100,000 rows it would read and sort them
        while the key waits). Each is taken only if no row changed meanwhile."""
        version, rows, numbers = self._rows.snapshot()
        store = self._rows
        wanted = [(c.key, c.sort_key or c.text) for c in self._shape.columns]
        columns = sorted(
            ((key, value) for key, value in wanted if key in column_keys),
            key=lambda pair: list(column_keys).index(pair[0]),
        )

        def read() -> None:
            worker = get_current_worker()
            for key, value in columns:
                orders = sort_orders(rows, numbers, value)
                if worker.is_cancelled:
                    return
                if not self.app.call_from_thread(store.prime, version, key, value, orders):
                    return

        self.run_worker(read, thread=True, group="table-sorts", exclusive=True, exit_on_error=False)

    # -------------------------------------------------------------- cursor

    @property
    def cursor_row(self) -> int:
        return self._cursor.index

    @property
    def cursor_key(self) -> str | None:
        return self._cursor.key

    @property
    def cursor_value(self) -> RowT | None:
        """The highlighted row (None when the table is empty)."""
        return self._cursor.value

    def move_cursor(self, index: int) -> None:
        """Put the cursor on display row `index` (clamped), repainting only what changed."""
        if not self._rows:
            return
        cursor = self._cursor
        old, index = cursor.index, cursor.clamped(index)
        cursor.index = index
        if old != index:
            scrolled = self._view.show(index)
            if not scrolled:
                self._view.refresh_rows(old, 1)
                self._view.refresh_rows(index, 1)
            self.post_message(self.RowHighlighted(self, index, cursor.key, cursor.value))
        if cursor.remaining() < self.near_end:
            self.post_message(self.NearEnd(self, cursor.remaining()))

    def move_cursor_to_key(self, key: str) -> bool:
        if key not in self._rows:
            return False
        self.move_cursor(self._rows.display_index(key))
        return True

    def action_move(self, move: Move) -> None:
        """A cursor key: a row or a page up or down, the first row or the last."""
        self.move_cursor(self._cursor.target(move, self._view.page_rows))

    def action_select(self) -> None:
        row, key = self._cursor.value, self._cursor.key
        if row is not None and key is not None:
            self.post_message(self.RowSelected(self, self._cursor.index, key, row))

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
        self._view.refresh_rows(len(self._rows), 1)

    # -------------------------------------------------------------- layout

    def _invalidate_layout(self) -> None:
        self._shape.invalidate()
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._view.update_size()
        self._invalidate_layout()
        self._view.show(self._cursor.index)

    # ------------------------------------------------------------- painting

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        fitted = self._shape.fit(self._view.row_width)
        if y == 0:
            style = base + self.get_component_rich_style("virtual-table--header")
            rows = self._rows
            return header_strip(fitted, rows.sort_column, rows.reverse, style, width, base)
        index = round(self.scroll_y) + y - 1
        if index < len(self._rows):
            cursor = (
                self.get_component_rich_style("virtual-table--cursor")
                if index == self._cursor.index
                else None
            )
            return row_strip(self.row_at(index), fitted, cursor, width, base)
        if index == len(self._rows) and (self._tail_text is not None or not self._rows):
            text = self._tail_text if self._tail_text is not None else self.empty_text
            style = base + self.get_component_rich_style("virtual-table--tail")
            return Strip([Segment(" " + plain(text), style)]).adjust_cell_length(width, base)
        return Strip.blank(width, base)
