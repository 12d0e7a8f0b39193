"""Which lines of a virtual table are on screen, and how its rows are painted: a header
line, then one line per row (the cursor's marked), then the tail line."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.textual_internals import update_scrollbars


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

    def line_count(self) -> int:
        """Rows plus one line for the tail text."""
        return self.row_count() + 1

    def show(self, cursor: int, center: bool = False) -> bool:
        """Scroll so display row `cursor` is visible; True if the view moved."""
        table = self.table
        top = round(table.scroll_y)
        page = self.page_rows
        target = top
        if center and not (top <= cursor < top + page):
            target = cursor - page // 2
        elif cursor < top:
            target = cursor
        elif cursor >= top + page:
            target = cursor - page + 1
        target = max(0, min(target, max(0, self.line_count() - page)))
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
