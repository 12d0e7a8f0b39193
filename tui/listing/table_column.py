"""A column of a keyed table: how a row's cell is written, sorted, coloured and sized."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

RowT = TypeVar("RowT")


@dataclass(frozen=True)
class Column(Generic[RowT]):
    """One column: how to show a row's cell, sort by it, and colour it."""

    key: str
    label: str
    text: Callable[[RowT], str]
    sort_key: Callable[[RowT], Any] | None = None
    style: Callable[[RowT], str | None] | None = None
    width: int | None = None
    """Fixed width in cells; None sizes the column from a sample of rows."""
    min_width: int = 3
    max_width: int = 40
    justify: Literal["left", "right"] = "left"
    priority: int = 0
    """Columns with the lowest priority are dropped first when the table is narrow."""
    flex: bool = False
    """Spare width goes to flexible columns."""
