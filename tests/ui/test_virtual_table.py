"""The virtual table: cursor keys, End to the last row, keyed appends, sorting, paging signal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.actions import parse
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from tests.batch.test_review_index import ROWS, row_of
from tui.listing.table_column import Column
from tui.widgets.batch_review import BatchFilter, BatchReviewTable
from tui.widgets.batch_tables import BatchColumnsTable, BatchOrdersTable
from tui.widgets.day_table import DayTable
from tui.widgets.report_tables import ReportTable
from tui.widgets.virtual_table import VirtualTable


@dataclass(frozen=True)
class Row:
    key: str
    name: str
    amount: int


COLUMNS: list[Column[Row]] = [
    Column("key", "Id", lambda r: r.key, width=6),
    Column("name", "Name", lambda r: r.name, flex=True),
    Column(
        "amount", "Amount", lambda r: str(r.amount), sort_key=lambda r: r.amount, justify="right"
    ),
]


def make_rows(start: int, count: int) -> list[Row]:
    return [
        Row(f"r{i:04d}", f"name {(i * 7) % 13}", (i * 37) % 101)
        for i in range(start, start + count)
    ]


class TableApp(App[None]):
    def __init__(self, rows: list[Row]) -> None:
        super().__init__()
        self.initial = rows
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        yield VirtualTable(COLUMNS, lambda r: r.key, near_end=5, id="table")

    def on_mount(self) -> None:
        table: VirtualTable[Row] = self.query_one(VirtualTable)
        table.set_rows(self.initial)
        table.focus()

    def on_virtual_table_near_end(self, message: VirtualTable.NearEnd) -> None:
        self.messages.append(message)

    def on_virtual_table_row_selected(self, message: VirtualTable.RowSelected) -> None:
        self.messages.append(message)


def table_of(app: App[None]) -> VirtualTable[Any]:
    return app.query_one(VirtualTable)


def screen_text(app: App[None]) -> str:
    table = table_of(app)
    return "\n".join(table.render_line(y).text for y in range(table.size.height))


async def test_end_and_G_go_to_the_last_row_home_and_g_to_the_first() -> None:
    app = TableApp(make_rows(0, 300))
    async with app.run_test(size=(60, 12)) as pilot:
        table = table_of(app)
        await pilot.press("end")
        assert table.cursor_row == 299
        assert "r0299" in screen_text(app)
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_key == "r0299"
        await pilot.press("g")
        assert table.cursor_key == "r0000"
        assert "▸r0000" in screen_text(app)


async def test_cursor_moves_by_row_and_page_and_stays_on_screen() -> None:
    app = TableApp(make_rows(0, 100))
    async with app.run_test(size=(60, 12)) as pilot:
        table = table_of(app)
        await pilot.press("down", "down")
        assert table.cursor_key == "r0002"
        page = table.size.height - 1
        await pilot.press("pagedown")
        assert table.cursor_row == 2 + page
        assert f"▸r{2 + page:04d}" in screen_text(app)
        await pilot.press("pageup", "up", "up", "up")
        assert table.cursor_row == 0


async def test_enter_selects_the_row_under_the_cursor() -> None:
    app = TableApp(make_rows(0, 10))
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        selected = [m for m in app.messages if isinstance(m, VirtualTable.RowSelected)]
        assert [m.key for m in selected] == ["r0001"]


async def test_appending_adds_only_new_keys_and_keeps_the_cursor() -> None:
    app = TableApp(make_rows(0, 50))
    async with app.run_test(size=(60, 12)) as pilot:
        table = table_of(app)
        await pilot.press("down", "down", "down")
        added = table.append_rows(make_rows(40, 30))  # 10 already loaded
        assert added == 20
        assert table.row_count == 70
        assert table.cursor_key == "r0003"
        keys = [row.key for row in table.rows()]
        assert len(keys) == len(set(keys))
        await pilot.press("end")
        assert table.cursor_key == "r0069"


async def test_near_end_is_posted_when_the_cursor_approaches_the_last_row() -> None:
    app = TableApp(make_rows(0, 40))
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.press("down")
        await pilot.pause()
        assert not [m for m in app.messages if isinstance(m, VirtualTable.NearEnd)]
        await pilot.press("end")
        await pilot.pause()
        near = [m for m in app.messages if isinstance(m, VirtualTable.NearEnd)]
        assert near
        assert near[-1].remaining == 0


async def test_sort_toggles_direction_keeps_cursor_row_and_inserts_appends_in_order() -> None:
    app = TableApp(make_rows(0, 60))
    async with app.run_test(size=(60, 12)) as pilot:
        table = table_of(app)
        await pilot.press("down")
        table.sort_by("amount")
        amounts = [row.amount for row in table.rows()]
        assert amounts == sorted(amounts)
        assert table.cursor_key == "r0001"
        assert "Amount ▲" in screen_text(app)
        table.sort_by("amount")
        amounts = [row.amount for row in table.rows()]
        assert amounts == sorted(amounts, reverse=True)
        assert table.cursor_key == "r0001"
        assert "Amount ▼" in screen_text(app)
        table.append_rows(make_rows(60, 40))
        amounts = [row.amount for row in table.rows()]
        assert amounts == sorted(amounts, reverse=True)
        assert table.cursor_key == "r0001"
        table.sort_by(None)
        assert [row.key for row in table.rows()] == [f"r{i:04d}" for i in range(100)]
        await pilot.pause()


async def test_narrow_table_drops_low_priority_columns_and_tail_line_shows() -> None:
    columns: list[Column[Row]] = [
        Column("key", "Id", lambda r: r.key, width=6, priority=10),
        Column("name", "Name", lambda r: r.name, width=30, priority=1),
        Column("amount", "Amount", lambda r: str(r.amount), width=8, priority=5),
    ]

    class Narrow(TableApp):
        def compose(self) -> ComposeResult:
            yield VirtualTable(columns, lambda r: r.key)

    app = Narrow(make_rows(0, 3))
    async with app.run_test(size=(30, 8)) as pilot:
        table = table_of(app)
        assert table.column_keys_shown == ["key", "amount"]
        table.tail_text = "loading more…"
        await pilot.pause()
        assert "loading more…" in screen_text(app)


def test_every_tables_keys_name_an_action_it_has() -> None:
    for table in (VirtualTable, BatchOrdersTable, BatchColumnsTable, DayTable, ReportTable):
        for binding in table.BINDINGS:
            assert isinstance(binding, Binding)
            _, action, _ = parse(binding.action)
            assert hasattr(table, f"action_{action}"), (table.__name__, binding.action)


async def test_a_filter_keeps_the_cursor_on_its_row_while_that_row_is_shown() -> None:
    app = TableApp(make_rows(0, 50))
    async with app.run_test(size=(60, 12)) as pilot:
        table = table_of(app)
        table.move_cursor_to_key("r0010")
        table.filter_rows(bytearray(number % 2 == 0 for number in range(50)))
        await pilot.pause()
        assert (table.row_count, table.cursor_key, table.cursor_row) == (25, "r0010", 5)
        assert "r0011" not in screen_text(app)
        table.filter_rows(bytearray(number % 2 for number in range(50)))
        assert (table.cursor_row, table.cursor_key) == (0, "r0001")
        table.show_row("r0000", True)
        assert (table.cursor_row, table.cursor_key) == (1, "r0001")  # it stays on its row
        table.filter_rows(None)
        assert table.row_count == 50


class ReviewApp(App[None]):
    def compose(self) -> ComposeResult:
        yield BatchReviewTable()


async def test_orders_that_come_to_match_the_review_filter_are_shown() -> None:
    app = ReviewApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(BatchReviewTable)
        table.show({row.key: row for row in ROWS})
        table.filter_by(["rated"])
        assert [row.key for row in table.rows()] == ["A1", "A2"]
        table.changed(row_of("C1", "rated", "3.00"))  # now matches: shown
        table.changed(row_of("A1", "booked", "100.25"))  # shown: stays, its new row
        table.changed(row_of("E1", "pending"))  # new, not matching: held back
        table.changed(row_of("E2", "rated", "1.00"))  # new, matching: shown
        await pilot.pause()
        assert [(row.key, row.status) for row in table.rows()] == [
            ("A1", "booked"),
            ("A2", "rated"),
            ("C1", "rated"),
            ("E2", "rated"),
        ]
        assert table.border_title is not None
        assert str(table.border_title).startswith(
            "4 orders · 1 booked · 3 rated (filter: 9 in all)"
        )
        table.filter_by([])
        assert table.row_count == 9


class PrimedReview(BatchReviewTable):
    PRIME_FROM = 1  # (the sorts made ahead on a thread for any batch)


class ReviewsApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PrimedReview(id="primed")
        yield BatchReviewTable(id="plain")


async def test_review_sorts_made_ahead_match_sorts_made_at_the_key_ties_in_file_order() -> None:
    rows = [
        row_of(f"R{n}", ("rated", "invalid", "pending")[n % 3], total, currency)
        for n, (total, currency) in enumerate(
            [("5.00", "USD"), ("2.00", "CAD"), (None, "USD"), ("5.00", "USD"), ("1.00", "CAD")] * 3
        )
    ]
    app = ReviewsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        primed, plain = (
            app.query_one("#primed", PrimedReview),
            app.query_one("#plain", BatchReviewTable),
        )
        primed.show({row.key: row for row in rows})
        await app.workers.wait_for_complete()
        plain.show({row.key: row for row in rows})
        for _ in range(7):  # each column, up then down
            for table in (primed, plain):
                table.sort_next()
            assert [r.key for r in primed.rows()] == [r.key for r in plain.rows()]
            for table in (primed, plain):
                table.sort_reverse_now()
            assert [r.key for r in primed.rows()] == [r.key for r in plain.rows()]
            if primed.sort_column == "status":  # descending, ties in file order
                assert [r.key for r in primed.rows()][:5] == ["R0", "R3", "R6", "R9", "R12"]
        await pilot.pause()


class FilteredReviewApp(App[None]):
    CSS = "#batch-filter { width: 1fr; }"

    def compose(self) -> ComposeResult:
        yield BatchFilter(id="batch-filter", compact=True)
        yield BatchReviewTable()


async def test_a_letter_in_the_review_filter_lays_nothing_out(monkeypatch: Any) -> None:
    # (Textual's Input lays the whole screen out at each key: its text's width changed)
    layouts: list[Widget] = []
    refresh = Widget.refresh

    def counted(self: Widget, *regions: Any, **options: Any) -> Widget:
        if options.get("layout"):
            layouts.append(self)
        return refresh(self, *regions, **options)

    app = FilteredReviewApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(BatchReviewTable)
        table.show({row.key: row for row in ROWS})
        app.query_one(BatchFilter).focus()
        await pilot.pause()
        monkeypatch.setattr(Widget, "refresh", counted)
        await pilot.press("r", "a", "t")
        await pilot.pause()
        assert [row.key for row in table.rows()] == ["A1", "A2", "C3"]
        assert "C3" in screen_text(app)
        assert layouts == []


async def test_a_filtered_review_sorted_keeps_file_order_for_ties_and_a_changed_row_its_place() -> (
    None
):
    rows = [row_of(f"R{n}", ("rated", "pending", "invalid")[n % 3]) for n in range(12)]
    app = ReviewApp()
    async with app.run_test(size=(80, 12)) as pilot:
        table = app.query_one(BatchReviewTable)
        table.show({row.key: row for row in rows})
        table.filter_by(["r1"])  # R1, R10, R11
        table.sort_next()  # by status: invalid R11, then pending R1 R10 (ties in file order)
        assert [r.key for r in table.rows()] == ["R11", "R1", "R10"]
        table.sort_by("status", reverse=True)
        assert [r.key for r in table.rows()] == ["R1", "R10", "R11"]  # ties in file order
        table.changed(row_of("R1", "invalid"))  # its place among the invalid: file order
        assert [r.key for r in table.rows()] == ["R10", "R1", "R11"]
        table.changed(row_of("R20", "invalid"))  # new, not matching: held back
        table.changed(row_of("R14", "invalid"))  # new, matching: in its place
        assert [r.key for r in table.rows()] == ["R10", "R1", "R11", "R14"]
        table.sort_by("position", reverse=False)  # (every position 0: file order)
        assert [r.key for r in table.rows()] == ["R1", "R10", "R11", "R14"]
        table.filter_by([])
        assert [r.key for r in table.rows()][-4:] == ["R10", "R11", "R20", "R14"]
        await pilot.pause()
