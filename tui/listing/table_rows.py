"""The rows of a keyed table: kept in arrival order, shown through a filter (which rows show)
and a sort (in which order). A column's sort values are read once and kept, and so is the
order they give, so sorting again or filtering costs a pass over compact lists of row numbers,
not a call per row; a row that arrives or changes takes its place by bisection. Shown reversed
for a descending sort. No UI: the table widget draws them."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import is_, is_not, itemgetter, not_
from typing import Any, Generic, TypeVar

RowT = TypeVar("RowT")

SortValue = Callable[[Any], Any]


FEW = 16
"""A filter that lets through fewer than one row in this many has its rows sorted, not read
through the sort's order."""

SortOrders = tuple[list[Any], list[int], list[int]]
"""A column's sort value of each row, and the row numbers ascending, ties in arrival order,
and in the order that shown reversed is descending, ties in arrival order too."""


def sort_orders(rows: Sequence[Any], numbers: Sequence[int], value: SortValue) -> SortOrders:
    """A column's values and orders for ``TableRows.prime``, from ``snapshot()``."""
    values = list(map(value, rows))
    ascending = sorted_numbers(numbers, values)
    return values, ascending, sorted_numbers(ascending[::-1], values)


def none_last(value: Any) -> tuple[bool, Any]:
    """Make None sort after every value without comparing None to a value."""
    return (value is None, value if value is not None else 0)


def _none_count(values: Sequence[Any]) -> int:
    """How many of ``values`` are None (by identity: ``list.count`` compares each value,
    slowly for tuples)."""
    return bytes(map(is_, values, repeat(None))).count(1)


def sorted_numbers(numbers: Sequence[int], values: Sequence[Any]) -> list[int]:
    """``numbers`` in order of their values (ties kept in the order given, None last).

    Tuples are sorted a part at a time, the last first, each pass stable: Python sorts a
    list of one type (text, numbers) much faster than one of tuples or of mixed types. The
    passes over every row are C-level (``map``, ``compress``), not a Python step per row."""
    present: list[int] = list(numbers)
    absent: list[int] = []
    if _none_count(values):
        held = list(map(is_not, map(values.__getitem__, present), repeat(None)))
        absent = list(compress(present, map(not_, held)))
        present = list(compress(present, held))
    sample = values[present[0]] if present else None
    if isinstance(sample, tuple):
        whole = not absent
        for part in reversed(range(len(sample))):
            parts: list[Any] = (
                list(map(itemgetter(part), values))
                if whole
                else [value[part] if value is not None else None for value in values]
            )
            kinds = set(parts)
            kinds.discard(None)
            missing = _none_count(parts)
            if not kinds or (len(kinds) == 1 and missing == len(absent)):
                continue  # (one value for every row: nothing to sort by)
            if missing > len(absent):  # (values with no such part: last)
                parts = [none_last(value) for value in parts]
            present.sort(key=parts.__getitem__)
    else:
        present.sort(key=values.__getitem__)
    return present + absent


class TableRows(Generic[RowT]):
    """Rows by key: every row in arrival order, those the filter lets through in the order of
    the sort (ascending; `reverse` shows them the other way)."""

    def __init__(self, row_key: Callable[[RowT], str]) -> None:
        self.row_key = row_key
        self._all: list[RowT] = []
        """Every row, in arrival order (a row's number is its place here)."""
        self._numbers: list[int] = []
        """0..n-1: the row numbers, the same int objects everywhere (found by identity)."""
        self._by_key: dict[str, int] = {}
        self._mask: bytearray | None = None
        """Per row number, whether the filter lets it through (None: every row)."""
        self._shown: list[int] = []
        """The row numbers shown, in storage order: arrival, or ascending by the sort."""
        self._values: dict[str, list[Any]] = {}
        """Per column sorted by before, its sort value of each row (by row number)."""
        self._value_of: dict[str, SortValue] = {}
        self._orders: dict[tuple[str, bool], list[int]] = {}
        """Per column and direction, every row number in its order, while no row has changed
        since (the one shown is kept up to date as rows arrive). Stored ascending; for a
        descending sort with ties in the other order, so that shown reversed the ties are in
        arrival order both ways."""
        self.sort_column: str | None = None
        self.reverse = False
        self.version = 0
        """Counts the changes of rows (a new row, a changed one, all at once): orders read
        from a copy of the rows elsewhere are taken only if it has not moved since."""

    def __len__(self) -> int:
        return len(self._shown)

    def __contains__(self, key: object) -> bool:
        """Whether the row is shown (a row the filter hides is not)."""
        number = self._by_key.get(key) if isinstance(key, str) else None
        return number is not None and (self._mask is None or bool(self._mask[number]))

    @property
    def sorted(self) -> bool:
        return self.sort_column is not None

    @property
    def mask(self) -> bytearray | None:
        """The filter: a byte per row, by number, set for those shown (None: every row)."""
        return self._mask

    @property
    def total(self) -> int:
        """Every row, shown or not."""
        return len(self._all)

    def get(self, key: str) -> RowT | None:
        """The row of ``key`` if it is shown."""
        return self._all[self._by_key[key]] if key in self else None

    def at(self, index: int) -> RowT:
        """The row at display position `index`."""
        if self.reverse:
            return self._all[self._shown[len(self._shown) - 1 - index]]
        return self._all[self._shown[index]]

    def first(self, count: int) -> list[RowT]:
        """The first ``count`` rows in storage order (a sample)."""
        return [self._all[number] for number in self._shown[:count]]

    def shown(self) -> list[RowT]:
        """Every row shown, in display order (a copy)."""
        rows = self._all
        order = reversed(self._shown) if self.reverse else self._shown
        return [rows[number] for number in order]

    def clear(self) -> None:
        """Drop every row and the filter (the sort order is kept)."""
        self.version += 1
        self._all = []
        self._numbers = []
        self._by_key = {}
        self._mask = None
        self._shown = []
        self._values = {column: [] for column in self._value_of}
        self._orders = {}

    # ------------------------------------------------------------------ rows

    def add(self, row: RowT) -> int | None:
        """Add a row not seen before (shown) and return its display position; a row whose
        key was seen replaces that one where it is, shown or not (None)."""
        key = self.row_key(row)
        number = self._by_key.get(key)
        self.version += 1
        if number is not None:
            self._replace(number, row)
            return None
        number = len(self._all)
        self._all.append(row)
        self._numbers.append(number)
        self._by_key[key] = number
        if self._mask is not None:
            self._mask.append(1)
        for column, values in self._values.items():
            values.append(self._value_of[column](row))
        self._changed_order(number, was_in=False)
        position = self._place(number)
        return len(self._shown) - 1 - position if self.reverse else position

    def _replace(self, number: int, row: RowT) -> None:
        self._all[number] = row
        changed: set[str] = set()
        for column, values in self._values.items():
            value = self._value_of[column](row)
            if value != values[number]:
                changed.add(column)
            values[number] = value
        # (the orders of columns whose value did not change stay as they are: a rating
        # run changes a row's status and total, not where it goes)
        shown = self._shown_order
        self._orders = {k: o for k, o in self._orders.items() if k[0] not in changed or k == shown}
        if self.sort_column in changed:
            self._changed_order(number, was_in=True)
            if self._mask is None or self._mask[number]:
                self._shown.remove(number)
                self._place(number)

    def show_row(self, key: str, shown: bool) -> None:
        """Let one row through the filter, or hold it back."""
        number = self._by_key[key]
        if self._mask is None:
            if shown:
                return
            self._mask = bytearray(b"\x01") * len(self._all)
        if bool(self._mask[number]) == shown:
            return
        self._mask[number] = shown
        if shown:
            self._place(number)
        else:
            self._shown.remove(number)

    @property
    def _shown_order(self) -> tuple[str, bool] | None:
        """The key of the order shown (None: arrival order)."""
        return None if self.sort_column is None else (self.sort_column, self.reverse)

    def _sort_key(self, number: int) -> Any:
        if self.sort_column is None:
            return number
        value = self._values[self.sort_column][number]
        tie = -number if self.reverse else number  # (shown reversed: ties in arrival order)
        return (value is None, value if value is not None else 0, tie)

    def _place(self, number: int) -> int:
        """Put a shown row's number in its place; its storage position."""
        shown = self._shown
        if self.sort_column is None and (not shown or shown[-1] < number):
            shown.append(number)
            return len(shown) - 1
        position = bisect_right(shown, self._sort_key(number), key=self._sort_key)
        shown.insert(position, number)
        return position

    def _changed_order(self, number: int, *, was_in: bool) -> None:
        """A row arrived or its sort value changed: the sorted column's order takes it in its
        place; a new row's other orders are made again when next asked for (a changed row's
        were dropped by ``_replace`` where its value changed)."""
        shown = self._shown_order
        order = self._orders.get(shown) if shown is not None else None
        if not was_in:
            self._orders = {}
        if order is None or shown is None:
            return
        if was_in:
            order.remove(number)
        order.insert(bisect_right(order, self._sort_key(number), key=self._sort_key), number)
        self._orders[shown] = order

    def replace_all(self, rows: list[RowT]) -> None:
        """Every row at once, in this arrival order (a row seen twice: its last), sorted by
        the sort in force: one sort, not a bisection per row."""
        key_of = self.row_key
        by_key = {key_of(row): row for row in rows}
        if len(by_key) != len(rows):  # a key twice: its last row, where it came first
            rows = list(by_key.values())
        sort_value = self._value_of.get(self.sort_column or "")
        self.clear()
        self._all = list(rows)
        self._numbers = list(range(len(rows)))
        self._by_key = dict(zip(by_key, self._numbers, strict=True))
        self._values = {}  # (read again for the column sorted by, when it is asked for)
        if self.sort_column is not None and sort_value is not None:
            self._value_of = {self.sort_column: sort_value}
            self._shown = list(self._order(self.sort_column, self.reverse))
        else:
            self._value_of = {}
            self._shown = list(self._numbers)

    # ------------------------------------------------------------ sort, filter

    def _order(self, column: str, reverse: bool) -> list[int]:
        """Every row number in the column's order (made once, kept while no row changes):
        ascending with ties in arrival order, or (``reverse``) with ties the other way."""
        order = self._orders.get((column, reverse))
        if order is None:
            values = self._values.get(column)
            if values is None:  # (``map``: a C-level pass when the value is, an attrgetter)
                values = self._values[column] = list(map(self._value_of[column], self._all))
            if reverse:  # ties the other way: the ascending order turned, sorted stably
                ascending = self._orders.get((column, False))
                given = ascending[::-1] if ascending is not None else self._numbers[::-1]
            else:
                given = self._numbers
            order = self._orders[(column, reverse)] = sorted_numbers(given, values)
        return order

    def snapshot(self) -> tuple[int, list[RowT], list[int]]:
        """The version, every row in arrival order and their numbers (copies: to read sort
        values from on a thread)."""
        return self.version, list(self._all), list(self._numbers)

    def prime(self, version: int, column: str, value: SortValue, orders: SortOrders) -> bool:
        """Take a column's sort values and orders read from ``snapshot()`` elsewhere, if
        no row has changed since (``version``), so its first sort finds them ready. False
        when rows have changed (orders read meanwhile would be out of date too)."""
        if version != self.version:
            return False
        if self._value_of.setdefault(column, value) is not value:
            return True  # (sorted by another reading of the column since: that one counts)
        values, ascending, descending = orders
        self._values.setdefault(column, values)
        self._orders.setdefault((column, False), ascending)
        self._orders.setdefault((column, True), descending)
        return True

    def sort(self, column_key: str | None, value: SortValue | None, reverse: bool) -> None:
        """Sort by `value` of each row (the column `column_key`), ties in arrival order;
        `column_key` None restores arrival order."""
        if column_key is None or value is None:
            self.sort_column = None
            self.reverse = False
            self._shown = self._through_filter(self._numbers)
            return
        if column_key == self.sort_column and reverse == self.reverse:
            return
        if self._value_of.get(column_key) is not value:
            self._values.pop(column_key, None)
            self._orders.pop((column_key, False), None)
            self._orders.pop((column_key, True), None)
            self._value_of[column_key] = value
        self.sort_column = column_key
        self.reverse = reverse
        self._shown = self._through_filter(self._order(column_key, reverse))

    def filter(self, mask: bytearray | None) -> None:
        """Show only the rows whose number is set in ``mask`` (one byte per row, in arrival
        order; None shows every row), in the order of the sort in force."""
        if mask is not None and len(mask) != len(self._all):
            raise ValueError("a filter needs one byte per row")
        self._mask = None if mask is None else bytearray(mask)
        column = self.sort_column
        order = self._numbers if column is None else self._order(column, self.reverse)
        if column is not None and mask is not None and mask.count(1) * FEW < len(mask):
            # Few rows let through: sorting them costs less than reading the mask at
            # every row of the order (random places, at 100,000 rows 11 ms). Given in
            # arrival order (turned for a descending sort), a stable sort puts the ties as
            # the order has them.
            shown = list(compress(self._numbers, mask))
            given = shown[::-1] if self.reverse else shown
            self._shown = sorted_numbers(given, self._values[column])
            return
        self._shown = self._through_filter(order)

    def _through_filter(self, order: list[int]) -> list[int]:
        mask = self._mask
        if mask is None:
            return list(order)
        if order is self._numbers or order == self._numbers:
            # (a sort in arrival order, as by position: the mask's own order, read at
            # once; the comparison stops at the first row out of place)
            return list(compress(self._numbers, mask))
        return list(compress(order, map(mask.__getitem__, order)))

    def display_index(self, key: str) -> int:
        """Where a shown row is (ValueError for one not shown)."""
        position = self._shown.index(self._by_key[key])
        return len(self._shown) - 1 - position if self.reverse else position
