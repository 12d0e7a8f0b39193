"""Which columns of a keyed table fit a width, and how wide each is: fixed, or measured on a
sample of rows; the lowest priority goes first when narrow, spare width to flexible ones.
No UI: the table widget asks it for the columns to draw."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from rich.cells import cell_len

from tui.domain.safe_text import plain
from tui.listing.table_column import Column

RowT = TypeVar("RowT")


class ColumnLayout(Generic[RowT]):
    """A table's columns with their measured widths and the last fit (kept per width)."""

    def __init__(self, columns: Sequence[Column[RowT]]) -> None:
        self.columns: list[Column[RowT]] = list(columns)
        self._auto_widths: dict[str, int] = {}
        self._fitted: list[tuple[Column[RowT], int]] = []
        self._fitted_width = -1

    def reset(self, columns: Sequence[Column[RowT]] | None = None) -> None:
        """Forget measured widths (new rows; or new `columns`)."""
        if columns is not None:
            self.columns = list(columns)
        self._auto_widths = {}

    def invalidate(self) -> None:
        """Fit again at the next ask (a width or the columns changed)."""
        self._fitted_width = -1

    def measure(self, sample: Sequence[RowT]) -> bool:
        """Grow automatic column widths to fit a sample; True if any grew."""
        grew = False
        for column in self.columns:
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

    def width_of(self, column: Column[RowT]) -> int:
        if column.width is not None:
            return column.width
        return self._auto_widths.get(column.key, max(column.min_width, cell_len(column.label) + 2))

    def fit(self, available: int) -> list[tuple[Column[RowT], int]]:
        """Columns that fit `available` cells (lowest priority dropped first), with widths."""
        if self._fitted_width == available and self._fitted:
            return self._fitted
        shown = list(self.columns)
        widths = {column.key: self.width_of(column) for column in shown}

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
        self._fitted = [(column, widths[column.key]) for column in shown]
        self._fitted_width = available
        return self._fitted
