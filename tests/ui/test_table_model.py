"""The virtual table's UI-free parts: its keyed rows (arrival order, or kept sorted as pages
arrive), its column layout (measured widths, narrow screens drop low priorities), and its
cursor and scrolling."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from tui.listing import table_rows
from tui.listing.table_column import Column
from tui.listing.table_cursor import TableCursor, scroll_top
from tui.listing.table_layout import ColumnLayout
from tui.listing.table_rows import TableRows, sort_orders, sorted_numbers

Row = tuple[str, int | None]


def _rows(*rows: Row) -> TableRows[Row]:
    store: TableRows[Row] = TableRows(lambda row: row[0])
    for row in rows:
        store.add(row)
    return store


def _weight(row: Row) -> int | None:
    return row[1]


def test_rows_keep_arrival_order_and_replace_a_key_seen_before() -> None:
    store = _rows(("a", 3), ("b", 1))
    assert store.add(("a", 9)) is None
    assert store.shown() == [("a", 9), ("b", 1)]
    assert "b" in store
    assert store.get("c") is None


def test_sorted_rows_take_their_place_as_they_arrive_with_none_last() -> None:
    store = _rows(("a", 3), ("b", None), ("c", 1))
    store.sort("weight", _weight, reverse=False)
    assert [row[0] for row in store.shown()] == ["c", "a", "b"]
    assert store.add(("d", 2)) == 1
    assert [row[0] for row in store.shown()] == ["c", "d", "a", "b"]
    store.sort("weight", _weight, reverse=True)
    assert [row[0] for row in store.shown()] == ["b", "a", "d", "c"]
    assert store.display_index("c") == 3
    store.sort(None, None, reverse=False)
    assert [row[0] for row in store.shown()] == ["a", "b", "c", "d"]


def test_a_cleared_sorted_table_keeps_its_sort() -> None:
    store = _rows(("a", 3))
    store.sort("weight", _weight, reverse=False)
    store.clear()
    store.add(("x", 5))
    store.add(("y", 4))
    assert [row[0] for row in store.shown()] == ["y", "x"]


def test_narrow_layouts_drop_the_lowest_priority_and_spare_width_goes_to_flex() -> None:
    columns: list[Column[Row]] = [
        Column("key", "Key", lambda row: row[0], width=6, priority=3),
        Column("weight", "Weight", lambda row: str(row[1]), priority=1),
        Column("note", "Note", lambda row: "", width=10, priority=2, flex=True),
    ]
    layout = ColumnLayout(columns)
    assert layout.measure([("a", 123456789012)])
    assert not layout.measure([("b", 1)])
    assert [(c.key, w) for c, w in layout.fit(40)] == [("key", 6), ("weight", 12), ("note", 20)]
    layout.invalidate()
    assert [(c.key, w) for c, w in layout.fit(17)] == [("key", 6), ("note", 10)]


def test_rows_set_at_once_are_sorted_by_the_sort_in_force_and_keep_it_as_more_arrive() -> None:
    store = _rows(("z", 0))
    store.sort("weight", _weight, reverse=True)
    store.clear()
    store.replace_all([("a", 3), ("b", None), ("c", 1), ("a", 2), ("e", 3)])
    # a key twice: its last row, where it came first; ties in arrival order; None last
    assert store.shown() == [("b", None), ("e", 3), ("a", 2), ("c", 1)]
    assert store.add(("d", 2)) == 3  # into its place: after a (it came later), both ways
    store.sort("weight", _weight, reverse=False)  # the same column: the other direction
    assert [row[0] for row in store.shown()] == ["c", "a", "d", "e", "b"]
    assert store.display_index("e") == 3


def test_ties_stay_in_arrival_order_both_ways_through_filters_and_new_rows() -> None:
    store = _rows(("a", 2), ("b", 1), ("c", 2), ("d", None), ("e", 1), ("f", 2))
    store.sort("weight", _weight, reverse=True)
    assert [row[0] for row in store.shown()] == ["d", "a", "c", "f", "b", "e"]
    store.sort("weight", _weight, reverse=False)
    assert [row[0] for row in store.shown()] == ["b", "e", "a", "c", "f", "d"]
    store.sort("weight", _weight, reverse=True)
    store.filter(bytearray([1, 1, 0, 1, 1, 1]))
    assert [row[0] for row in store.shown()] == ["d", "a", "f", "b", "e"]
    assert store.add(("g", 1)) == 5  # the last of the 1s, shown descending
    assert store.add(("c", 1)) is None  # held back by the filter, its value changed
    store.filter(None)
    assert [row[0] for row in store.shown()] == ["d", "a", "f", "b", "c", "e", "g"]
    assert store.display_index("c") == 4
    store.sort("weight", _weight, reverse=False)
    assert [row[0] for row in store.shown()] == ["b", "c", "e", "g", "a", "f", "d"]


def test_tuple_sort_values_with_a_part_missing_sort_it_last_and_all_missing_not_at_all() -> None:
    values = [("USD", None), ("CAD", 2.0), ("USD", 1.0), ("CAD", None), ("USD", 1.0)]
    assert sorted_numbers(range(5), values) == [1, 3, 2, 4, 0]
    assert sorted_numbers([4, 3, 2, 1, 0], [("", None)] * 5) == [4, 3, 2, 1, 0]


def test_the_cursor_moves_by_rows_and_pages_and_stays_on_rows_there_are() -> None:
    cursor = TableCursor(_rows(*((f"r{n}", n) for n in range(10))))
    assert (cursor.key, cursor.value) == ("r0", ("r0", 0))
    assert cursor.target("up", page=4) == -1
    assert cursor.clamped(cursor.target("up", page=4)) == 0
    cursor.index = 3
    assert [cursor.target(move, page=4) for move in ("down", "page_down", "page_up")] == [4, 7, -1]
    assert (cursor.target("first", page=4), cursor.target("last", page=4)) == (0, 9)
    assert cursor.clamped(42) == 9
    assert cursor.remaining() == 6
    empty: TableCursor[Row] = TableCursor(_rows())
    assert (empty.key, empty.value, empty.clamped(5)) == (None, None, 0)


def test_the_cursor_keeps_its_row_when_rows_go_in_above_it_or_the_rows_are_sorted() -> None:
    store = _rows(("a", 5), ("b", 1), ("c", 9))
    cursor = TableCursor(store)
    cursor.index = 2  # "c"
    store.sort("weight", _weight, reverse=False)
    cursor.follow("c")
    assert (cursor.index, cursor.key) == (2, "c")
    display = store.add(("d", 0))
    assert display == 0
    cursor.row_added(display, "c")
    assert cursor.key == "c"
    store.sort(None, None, reverse=False)
    cursor.follow("c")
    assert cursor.key == "c"
    cursor.row_added(0, "c")  # arrival order: rows go in at the end, nothing moves
    assert cursor.key == "c"


def test_the_view_moves_the_least_to_show_the_cursor_or_centres_it() -> None:
    assert scroll_top(10, page=5, lines=100, cursor=12) == 10  # in view: no move
    assert scroll_top(10, page=5, lines=100, cursor=3) == 3
    assert scroll_top(10, page=5, lines=100, cursor=20) == 16
    assert scroll_top(10, page=5, lines=100, cursor=40, center=True) == 38
    assert scroll_top(10, page=5, lines=100, cursor=99, center=True) == 95  # never past the end
    assert scroll_top(0, page=5, lines=3, cursor=2) == 0


def test_a_filter_shows_some_rows_in_the_sort_in_force_and_keeps_the_others() -> None:
    store = _rows(("a", 3), ("b", None), ("c", 1), ("d", 2))
    store.sort("weight", _weight, reverse=False)
    store.filter(bytearray([1, 1, 0, 1]))  # a byte per row, in the order they came
    assert store.shown() == [("d", 2), ("a", 3), ("b", None)]
    assert ("c" in store, store.get("c"), store.total) == (False, None, 4)
    assert store.display_index("a") == 1
    store.sort(None, None, reverse=False)
    assert [row[0] for row in store.shown()] == ["a", "b", "d"]
    store.add(("c", 0))  # a row the filter holds back, changed: still held back
    store.add(("e", 0))  # a new row: shown
    assert [row[0] for row in store.shown()] == ["a", "b", "d", "e"]
    store.show_row("c", True)
    store.show_row("a", False)
    assert [row[0] for row in store.shown()] == ["b", "c", "d", "e"]
    store.filter(None)
    assert len(store) == 5


def _counted_weight(read: list[str]) -> Callable[[Row], int | None]:
    """The weight of a row, its key noted in ``read`` each time it is read."""

    def weight(row: Row) -> int | None:
        read.append(row[0])
        return row[1]

    return weight


def test_a_columns_values_are_read_once_and_kept_through_sorts_and_filters() -> None:
    read: list[str] = []
    weight = _counted_weight(read)
    store = _rows(("a", 3), ("b", 1), ("c", 2))
    store.sort("weight", weight, reverse=False)
    store.sort("key", lambda row: row[0], reverse=False)
    store.filter(bytearray([1, 0, 1]))
    store.sort("weight", weight, reverse=True)
    assert [row[0] for row in store.shown()] == ["a", "c"]
    assert sorted(read) == ["a", "b", "c"]
    store.add(("d", 0))  # a new row's value is read once, as it comes
    store.add(("b", 9))  # a changed row's too, and it moves to its place
    store.filter(None)
    assert [row[0] for row in store.shown()] == ["b", "a", "c", "d"]
    assert sorted(read) == ["a", "b", "b", "c", "d"]


def test_sorted_numbers_sort_tuples_a_part_at_a_time_with_none_last() -> None:
    values = [("USD", 3.0), None, ("CAD", 5.0), ("USD", 1.0), ("USD", 1.0), ("", None)]
    assert sorted_numbers(range(6), values) == [5, 2, 3, 4, 0, 1]
    assert sorted_numbers([0, 1, 2, 3], ["b", None, "a", "b"]) == [2, 0, 3, 1]


def test_orders_read_elsewhere_are_taken_while_no_row_changed_and_not_read_again() -> None:
    read: list[str] = []
    weight = _counted_weight(read)
    store = _rows(("a", 2), ("b", 1), ("c", 2))
    version, rows, numbers = store.snapshot()
    orders = sort_orders(rows, numbers, weight)
    stale = store.snapshot()
    assert store.prime(version, "weight", weight, orders)
    read.clear()
    store.sort("weight", weight, reverse=True)
    assert [row[0] for row in store.shown()] == ["a", "c", "b"]
    store.sort("weight", weight, reverse=False)
    assert [row[0] for row in store.shown()] == ["b", "a", "c"]
    assert read == []  # both orders were ready
    store.add(("d", 0))
    assert not store.prime(stale[0], "key", lambda row: row[0], orders)  # a row came since
    store.sort("key", lambda row: row[0], reverse=True)
    assert [row[0] for row in store.shown()] == ["d", "c", "b", "a"]


def _count_sorts(monkeypatch: Any) -> list[int]:
    """How many row numbers each sort the rows make is given, as they make them."""
    made: list[int] = []
    sort = table_rows.sorted_numbers

    def counted(numbers: Sequence[int], values: Sequence[Any]) -> list[int]:
        made.append(len(numbers))
        return sort(numbers, values)

    monkeypatch.setattr(table_rows, "sorted_numbers", counted)
    return made


def test_a_changed_row_keeps_the_orders_of_columns_whose_value_it_kept(monkeypatch: Any) -> None:
    made = _count_sorts(monkeypatch)
    Order = tuple[str, str, int]  # key, where it goes, its total
    store: TableRows[Order] = TableRows(lambda row: row[0])
    for row in [("a", "Reno", 5), ("b", "Boise", 5), ("c", "Reno", 1), ("d", "Ogden", 3)]:
        store.add(row)
    where, total = itemgetter(1), itemgetter(2)
    for reverse in (False, True):
        store.sort("where", where, reverse=reverse)
        store.sort("total", total, reverse=reverse)
    assert len(made) == 4
    store.add(("c", "Reno", 4))  # its total changed, not where it goes: placed, no sort
    assert [row[0] for row in store.shown()] == ["a", "b", "c", "d"]  # total, descending
    store.sort("where", where, reverse=False)  # kept: not made again
    assert [row[0] for row in store.shown()] == ["b", "d", "a", "c"]
    assert len(made) == 4
    store.add(("a", "Tulsa", 5))  # where it goes changed: placed, that column's other order
    assert [row[0] for row in store.shown()] == ["b", "d", "c", "a"]  # dropped
    store.sort("total", total, reverse=False)  # (ties in arrival order both ways)
    assert [row[0] for row in store.shown()] == ["d", "c", "a", "b"]
    store.sort("where", where, reverse=True)
    assert [row[0] for row in store.shown()] == ["a", "c", "d", "b"]
    assert len(made) == 6  # total up (its total changed), where down (where it goes did)


def test_a_filter_letting_few_rows_through_sorts_them_as_the_full_order_has_them(
    monkeypatch: Any,
) -> None:
    sorted_counts = _count_sorts(monkeypatch)
    rows = [(f"r{n:03d}", (n * 7) % 5 if n % 11 else None) for n in range(400)]
    store = _rows(*rows)
    for reverse in (False, True):
        store.filter(None)
        store.sort("weight", _weight, reverse=reverse)
        every = store.shown()
        for step in (3, 37, 101):  # many through (read through the order), and few
            mask = bytearray(n % step == 1 for n in range(400))
            sorted_counts.clear()
            store.filter(mask)
            through = [row for row in every if mask[int(row[0][1:])]]  # as shown unfiltered
            assert store.shown() == through
            assert sorted_counts == ([] if step == 3 else [len(through)])
