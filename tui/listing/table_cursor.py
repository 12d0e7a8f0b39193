"""The cursor of a keyed table and the scrolling that keeps it in view: which display row it
is on, where a key or a move takes it, and which line a view of some rows starts at. No UI:
the table widget draws what this decides."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from tui.listing.table_rows import TableRows

RowT = TypeVar("RowT")

Move = Literal["up", "down", "page_up", "page_down", "first", "last"]
"""A cursor key's move."""


class TableCursor(Generic[RowT]):
    """The display row the cursor is on, over the table's keyed rows."""

    def __init__(self, rows: TableRows[RowT]) -> None:
        self.rows = rows
        self.index = 0

    @property
    def key(self) -> str | None:
        """The key of the row under the cursor (None with no rows)."""
        row = self.value
        return None if row is None else self.rows.row_key(row)

    @property
    def value(self) -> RowT | None:
        """The row under the cursor (None with no rows)."""
        return self.rows.at(self.index) if self.rows else None

    def clamped(self, index: int) -> int:
        """``index`` as a display row there is (0 with no rows)."""
        return max(0, min(index, len(self.rows) - 1))

    def target(self, move: Move, page: int) -> int:
        """The display row a move takes the cursor to (``page`` rows a page), unclamped."""
        steps = {"up": -1, "down": 1, "page_up": -page, "page_down": page}
        if move == "first":
            return 0
        if move == "last":
            return len(self.rows) - 1
        return self.index + steps[move]

    def remaining(self) -> int:
        """How many rows follow the cursor's."""
        return len(self.rows) - 1 - self.index

    def row_added(self, display: int, kept_key: str | None) -> None:
        """A row went in at ``display``: the cursor stays on its row (``kept_key``'s) when the
        rows are sorted and the new one went in above it."""
        if self.rows.sorted and kept_key is not None and display <= self.index:
            self.index += 1

    def follow(self, key: str | None) -> None:
        """Put the cursor back on ``key``'s row after the rows moved (a sort)."""
        if key is not None:
            self.index = self.rows.display_index(key)


def scroll_top(top: int, page: int, lines: int, cursor: int, *, center: bool = False) -> int:
    """The first line of a view ``page`` lines high over ``lines`` lines, now at ``top``, that
    shows line ``cursor``: the same top when it is in view; otherwise the least move (the
    middle with ``center``)."""
    target = top
    if center and not (top <= cursor < top + page):
        target = cursor - page // 2
    elif cursor < top:
        target = cursor
    elif cursor >= top + page:
        target = cursor - page + 1
    return max(0, min(target, max(0, lines - page)))
