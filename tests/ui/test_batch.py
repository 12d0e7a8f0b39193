"""The Batch screen by keyboard at 80x24: open a file (path completed), review the columns,
rate on the sandbox, filter and sort, pick another rate for an order, paste rows, write the
results, stop a run, and find an unfinished batch again."""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import inspect
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tests.batch.conftest import WMS_EXPORT
from tests.batch.test_off_loop import guard
from tests.textual_probes import notifications
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import FreightApp, make_app
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import batch as batch_screen
from tui.screens.batch import BatchScreen
from tui.screens.batch_mapping import BatchMappingScreen
from tui.screens.batch_order import BatchOrderScreen
from tui.screens.batch_paste import BatchPasteScreen
from tui.screens.batch_results import BatchResultsDialog
from tui.session import Session

NOON_MONDAY = datetime(2026, 11, 23, 17, 0, tzinfo=UTC)


@pytest.fixture
def monday(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch judges ship dates on the sandbox's Monday, whatever today is."""
    monkeypatch.setattr(batch_screen, "now", lambda: NOON_MONDAY)


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


@pytest.fixture
def session(sandbox: SandboxApp, monday: None) -> Session:
    return Session.for_testing(
        "http://sandbox.test", DEMO_TOKEN, transport=httpx.ASGITransport(app=sandbox)
    )


@pytest.fixture
def wms(tmp_path: Path) -> Path:
    copy = tmp_path / "orders" / "wms-export.csv"
    copy.parent.mkdir()
    copy.write_bytes(WMS_EXPORT.read_bytes())
    return copy


def two_orders(tmp_path: Path, prefix: str) -> Path:
    """`two.csv`: orders PREFIX1 (a pallet to Atlanta) and PREFIX2 (a crate to Dallas)."""
    path = tmp_path / "two.csv"
    path.write_text(
        "Order,Zip,Weight,Length,Width,Height,Unit Type\n"
        f"{prefix}1,30303,800,48,40,48,Pallet\n{prefix}2,75207,500,48,40,48,Crate\n",
        encoding="utf-8",
    )
    return path


def batch_of(app: FreightApp) -> BatchScreen:
    screen = app.screen
    assert isinstance(screen, BatchScreen), screen
    return screen


async def open_file(pilot: Pilot[Any], path: Path, *, review: bool = True) -> BatchScreen:
    """alt+4, type the path, Enter; use the columns as guessed when they are shown."""
    app = pilot.app
    assert isinstance(app, FreightApp)
    await pilot.press("alt+4")
    await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="the batch screen")
    screen = batch_of(app)
    field = screen.path_input
    field.value = ""
    field.focus()
    await pilot.press(*str(path))
    await pilot.press("enter")
    if review:
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: screen.current_batch is not None, what="the orders")
    await pilot.pause()
    return screen


async def rate(pilot: Pilot[Any], screen: BatchScreen) -> None:
    await pilot.press("r")

    def finished() -> bool:
        worker = screen.runs.rating_worker
        return worker is not None and worker.is_finished

    await wait_for(pilot, finished, seconds=60, what="rating to end")
    await settle(pilot)


async def test_a_whole_batch_by_keyboard_at_80x24(session: Session, wms: Path) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        text = screen_text(app)
        assert "120 orders · 113 pending · 7 invalid" in text
        assert "wms-export.csv · 197 rows · comma, utf-8 BOM" in text
        await rate(pilot, screen)
        text = screen_text(app)
        assert "120 orders · 113 rated · 7 invalid" in text
        batch = screen.current_batch
        assert batch is not None
        [(currency, total)] = batch.totals().items()
        assert f"total {total:,.2f} {currency}" in text
        assert "SO-104200 rated" in text
        # the highlighted order's problem is said under the table
        screen.table.move_cursor_to_key("SO-104212")
        await pilot.pause()
        assert "row 24, Zip: is blank on the order's first row" in screen_text(app)
        # Enter: the order's own rates; pick the dearest instead of the rule's
        screen.table.move_cursor_to_key("SO-104201")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchOrderScreen), what="the order")
        assert "Order SO-104201 · rated" in screen_text(app)
        state = batch.state("SO-104201")
        ok_totals = sorted(r.total for r in state.rates if r.ok)
        assert len(ok_totals) >= 2
        watched = guard(batch.store.store)  # type: ignore[attr-defined]
        await pilot.press("down", "enter")  # the next cheapest, by hand
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="back")
        await wait_for(pilot, lambda: batch.state("SO-104201").chosen_by == "hand")
        assert watched.calls
        assert watched.on_loop == []  # the choice saved off the loop
        state = batch.state("SO-104201")
        assert state.chosen_by == "hand"
        assert state.choice is not None
        assert state.choice.total == ok_totals[1]
        assert f"{ok_totals[1]:,.2f}" in screen_text(app)


async def test_filter_and_sort_the_review(session: Session, wms: Path) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await pilot.press("slash", *"invalid")
        await pilot.pause()
        assert screen.table.row_count == 7
        assert "7 orders · 7 invalid (filter: 120 in all)" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("escape")
        await pilot.pause()
        assert screen.table.row_count == 120
        await pilot.press("s")  # by status: invalid orders come after pending ones
        await pilot.pause()
        assert screen.table.row_at(0).status == "invalid" or screen.table.row_at(119).status in (
            "invalid",
            "pending",
        )


@pytest.fixture
def tuesday(wms: Path) -> Path:
    """Another export with the same headers."""
    other = wms.with_name("tuesday.csv")
    other.write_bytes(wms.read_bytes())
    return other


async def test_the_columns_saved_are_used_again_without_a_review(
    session: Session, wms: Path, tuesday: Path
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_file(pilot, wms)
    other = tuesday
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, other, review=False)
        assert "columns 'wms-export'" in screen_text(app)
        assert screen.current_batch is not None


async def test_changing_a_column_in_the_review(session: Session, tmp_path: Path) -> None:
    path = tmp_path / "o.csv"
    path.write_text(
        "Order,Zip,Heft,Dims,Unit Type\nA1,30303,800,48x40x48,Pallet\n", encoding="utf-8"
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.path_input.focus()
        await pilot.press(*str(path), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen))
        review = app.screen
        assert isinstance(review, BatchMappingScreen)
        review.table.move_cursor_to_key("weight")
        await pilot.press("enter")  # the columns to choose from
        await pilot.pause()
        assert "Heft  (800)" in screen_text(app)
        await pilot.press("down", "down", "down", "enter")  # (none), Order, Zip, Heft
        await pilot.pause()
        assert review.mapping.columns["weight"] == "Heft"
        await pilot.press("u")  # kilograms
        assert review.mapping.weight_unit == "kg"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.current_batch is not None)
        batch = screen.current_batch
        assert batch is not None
        order = batch.order("A1")
        assert order is not None
        assert order.valid
        assert order.weight_lb == Decimal("1763.7")  # 800 kg


async def test_pasted_rows_are_read(session: Session) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.table.focus()
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchPasteScreen))
        app.screen.query_one(TextArea).insert(
            "Order\tZip\tWeight\tLength\tWidth\tHeight\tUnit Type\n"
            "P1\t30303\t800\t48\t40\t48\tPallet\nP2\t75207\t400\t48\t40\t48\tCrate\n"
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.current_batch is not None)
        await pilot.pause()
        assert "2 orders · 2 pending" in screen_text(app)
        assert "pasted rows · 2 rows · tab" in screen_text(app)


async def test_the_path_completes_with_tab(
    session: Session, wms: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (wms.parent / "notes.pdf").write_bytes(b"%PDF-")
    monkeypatch.chdir(wms.parent.parent)  # a short path, drawn whole in the field
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        field = batch_of(app).path_input
        field.focus()
        await pilot.press(*"orders/w")
        await wait_for(
            pilot,
            lambda: "orders/wms-export.csv" in screen_text(app),
            what="the suggestion drawn in the field",
        )
        assert field.value == "orders/w"
        await pilot.press("tab")
        assert field.value == "orders/wms-export.csv"
        await pilot.press("tab")  # nothing more to complete: on to the next field
        assert not field.has_focus


async def test_results_are_written_beside_the_file(session: Session, wms: Path) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        await pilot.press("e")  # asked where: beside the file, which the user can write in
        written = wms.with_name("wms-export-results.csv")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchResultsDialog), what="asked")
        await pilot.press("enter")
        await wait_for(pilot, written.exists, what="the results")
        batch = screen.current_batch
        assert batch is not None
        set_aside = sum(len(o.rows) for o in batch.orders if not o.valid)
    rows = list(csv.reader(io.StringIO(written.read_bytes().decode("utf-8-sig"), newline="")))
    assert rows[0][-13:-11] == ["Status", "Carrier"]
    statuses = [row[-13] for row in rows[1:]]
    assert statuses.count("invalid") == set_aside  # the 7 bad rows and their orders' others
    assert statuses.count("rated") == 197 - set_aside
    assert rows[23][-1].startswith("row 24, Zip:")


class HoldAfter(httpx.AsyncBaseTransport):
    """Answers the first ``free`` rate requests, then holds every later one until released
    (so a test can stop a run while requests are in flight, on any machine)."""

    def __init__(self, app: SandboxApp, free: int) -> None:
        self.inner = httpx.ASGITransport(app=app)
        self.free = free
        self.released = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/rates":
            if self.free <= 0:
                await self.released.wait()
            self.free -= 1
        return await self.inner.handle_async_request(request)


async def test_esc_stops_rating_and_the_unfinished_batch_is_offered_again(
    sandbox: SandboxApp, monday: None, tmp_path: Path
) -> None:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"C{n:02d},30303,{500 + n},48,40,48,Pallet" for n in range(40)]
    path = tmp_path / "many.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    hold = HoldAfter(sandbox, free=5)
    session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=hold)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        batch = screen.current_batch
        assert batch is not None
        await pilot.press("r")
        await wait_for(pilot, lambda: batch.counts().get("rated") == 5, what="five rated")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not screen.runs.is_rating, what="the stop")
        stopped = "Stopped: 5 rated and kept; r goes on."
        await wait_for(pilot, lambda: stopped in screen_text(app), what="the stop shown")
        assert batch.counts() == {"rated": 5, "pending": 35}
    hold.released.set()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        await wait_for(pilot, lambda: screen.path_input.value == str(path), what="the offer")
        assert "Unfinished batch of" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current_batch is not None)
        again = screen.current_batch
        assert again is not None
        assert again.counts() == {"rated": 5, "pending": 35}


async def test_f12_and_alt_4_reach_the_batch_and_f2_goes_back(session: Session) -> None:
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "F12 batch" in screen_text(app)
        await pilot.press("f12")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="batch")
        await pilot.press("f2")
        await wait_for(pilot, lambda: not isinstance(app.screen, BatchScreen), what="quote")
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="batch again")


async def test_book_and_print_the_batch(
    session: Session, wms: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fake_lp import install_fake_lp
    from tui.screens.batch_confirm import BatchConfirmScreen

    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen), what="confirm")
        assert "Book 113 orders for " in screen_text(app)
        assert "on DEMO (profile demo)" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.runs.is_booking, what="booking to start")
        await wait_for(
            pilot, lambda: not screen.runs.is_booking, seconds=120, what="booking to end"
        )
        await settle(pilot)
        batch = screen.current_batch
        assert batch is not None
        assert batch.counts() == {"booked": 113, "invalid": 7}
        assert "120 orders · 113 booked · 7 invalid" in screen_text(app)
        assert "Booked 113 of 113" in screen_text(app)
        await pilot.press("p")
        await wait_for(pilot, lambda: len(lp.calls()) == 1, what="one print job")
        await pilot.press("b")
        await pilot.pause()
        assert not isinstance(app.screen, BatchConfirmScreen)  # nothing left to book
    pdfs = [arg for arg in lp.calls()[0].argv if arg.endswith(".pdf")]
    assert len(pdfs) >= 113  # every order's BOL (and its PDF labels) in the one job
    assert all(Path(p).name.startswith("SO-") for p in pdfs)


async def test_production_books_only_once_the_count_and_totals_are_typed(
    sandbox: SandboxApp, monday: None, tmp_path: Path
) -> None:
    from tui.screens.batch_confirm import BatchConfirmScreen

    session = Session.for_testing(
        "http://sandbox.test",
        DEMO_TOKEN,
        transport=httpx.ASGITransport(app=sandbox),
        environment="PRODUCTION",
    )
    path = two_orders(tmp_path, "T")
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        [(_currency, total)] = batch.totals().items()
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen), what="confirm")
        await pilot.press("3", "enter", *f"{total}", "enter")
        await pilot.pause()
        assert "Type the number of orders: 2." in screen_text(app)
        assert isinstance(app.screen, BatchConfirmScreen)
        confirm = app.screen
        confirm.query_one("#count", Input).value = "2"
        confirm.query_one("#total-0", Input).focus()  # the first currency's total
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, BatchConfirmScreen))
        await wait_for(pilot, lambda: batch.counts().get("booked") == 2, seconds=60)


async def test_the_next_start_says_a_batch_is_unfinished(session: Session, wms: Path) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(
            pilot,
            lambda: any("Unfinished batch" in str(n.message) for n in notifications(app)),
            what="the notice",
        )
        notice = next(str(n.message) for n in notifications(app) if "Unfinished" in str(n.message))
        assert (
            notice
            == "Unfinished batch wms-export.csv: 7 invalid, 113 rated. F12 (or alt+4) goes on."
        )


async def test_the_column_review_says_how_the_orders_read_and_names_the_mapping(
    session: Session, wms: Path, tuesday: Path
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.path_input.focus()
        await pilot.press(*str(wms), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen))
        review = app.screen
        assert isinstance(review, BatchMappingScreen)
        await wait_for(pilot, lambda: "set aside" in screen_text(app), what="the preview")
        text = screen_text(app)
        assert "120 orders: 113 ready · 7 set aside (first: row 24, Zip:" in text
        assert "⏎ Change" in text
        assert "saved as “wms-export”" in text
        review.table.move_cursor_to_key("dest_zip")
        await pilot.press("enter", "enter")  # (none: dest_zip is not in the file)
        await wait_for(pilot, lambda: "113 ready" not in screen_text(app), what="a new preview")
        await wait_for(pilot, lambda: "0 ready" in screen_text(app), what="every order set aside")
        await pilot.press("enter")
        await pilot.press(*["down"] * 8, "enter")  # Zip again
        await wait_for(pilot, lambda: "113 ready" in screen_text(app))
        await pilot.press("n", "ctrl+u", *"Dock 3 export", "enter")
        await wait_for(pilot, lambda: "saved as “Dock 3 export”" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.current_batch is not None)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, tuesday, review=False)
        assert "columns 'Dock 3 export'" in screen_text(app)


async def test_an_order_set_aside_says_why_in_its_row(session: Session, wms: Path) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_file(pilot, wms)
        line = next(row for row in screen_text(app).splitlines() if "SO-104212" in row)
        assert "invalid row 24, Zip" in line  # (the whole reason under the table)


async def test_an_orders_rates_in_the_rates_table_and_rated_again(
    session: Session, wms: Path
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        before = batch.state("SO-104200")
        screen.table.move_cursor_to_key("SO-104200")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchOrderScreen))
        order_screen = app.screen
        assert isinstance(order_screen, BatchOrderScreen)
        text = screen_text(app)
        assert "sorted by total ▲" in text
        assert "$ " in text  # the cheapest marked
        assert "not offered" in text  # the carriers that cannot take it, and why
        assert "Chosen by the rule: " in text
        await pilot.press("d")  # sorted by days: the rates table's own keys
        await pilot.pause()
        assert "sorted by days ▲" in screen_text(app)
        await pilot.press("r")
        await wait_for(
            pilot, lambda: order_screen.state.quote_id != before.quote_id, what="new rates"
        )
        assert batch.state("SO-104200").quote_id == order_screen.state.quote_id
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


async def test_rows_pasted_into_the_path_field_are_read_and_offered_again(
    session: Session,
) -> None:
    from textual import events

    rows = (
        "Order\tZip\tWeight\tLength\tWidth\tHeight\tUnit Type\n"
        "P1\t30303\t800\t48\t40\t48\tPallet\nP2\t75207\t400\t48\t40\t48\tCrate\n"
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.path_input.post_message(events.Paste(rows))
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen))
        assert screen.path_input.value == ""  # not typed into the path
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.current_batch is not None)
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        assert batch.counts() == {"rated": 2}
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        await wait_for(pilot, lambda: "batch-pasted" in screen.path_input.value, what="offer")
        assert "pasted rows: " in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current_batch is not None)
        again = screen.current_batch
        assert again is not None
        assert again.counts() == {"rated": 2}  # the same batch, as it was


async def test_an_unknown_booking_none_of_whose_candidates_is_it_is_booked_again(
    sandbox: SandboxApp, monday: None, tmp_path: Path
) -> None:
    from tests.ui.booking_flow import CountingTransport
    from tui.screens.batch_confirm import BatchConfirmScreen
    from tui.screens.book_check import BookingCheckScreen

    transport = CountingTransport(httpx.ASGITransport(app=sandbox))
    session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=transport)
    path = tmp_path / "one.csv"
    path.write_text(
        "Order,Zip,Weight,Length,Width,Height,Unit Type\nU1,30303,800,48,40,48,Pallet\n",
        encoding="utf-8",
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        # The service takes the booking and no usable answer comes back: it never got there.
        transport.replace["/book"] = [httpx.Response(502, json={"message": "bad gateway"})]
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: batch.state("U1").status == "unknown", 60, "unknown")
        await wait_for(pilot, lambda: not screen.runs.is_booking)
        first = batch.state("U1").reference
        assert "booking outcome unknown" in batch.state("U1").error_text
        watched = guard(session.store())  # the ledger read and written off the event loop
        screen.table.move_cursor_to_key("U1")
        await pilot.press("enter")  # the booking check: a search, and what it found
        await wait_for(pilot, lambda: isinstance(app.screen, BookingCheckScreen))
        check = app.screen
        assert isinstance(check, BookingCheckScreen)
        await wait_for(pilot, lambda: check.outcome is not None, what="the search")
        assert "No shipment found for" in screen_text(app)
        await pilot.press("b")  # none of these is mine: book it again
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        assert watched.calls
        assert watched.on_loop == []  # a lock another process holds never freezes the screen
        assert "Book 1 order for " in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: batch.state("U1").status == "booked", 60, "booked")
        state = batch.state("U1")
        assert state.reference != first
        assert any("booked again" in note for note in state.notes)
        assert transport.count("/book") == 2


async def test_file_text_is_shown_as_text_never_markup(session: Session, tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text(
        "Order,Consignee,City,State,Zip,Weight,Length,Width,Height,Unit Type\n"
        "[bold]X[/],[@click=app.quit]Co,Dal\x1b]52;c;SGk=\x07las,TX,75207,800,48,40,48,Pallet\n"
        "[red]Y,Plain Co,Atlanta,GA,30303,-5,48,40,48,Pallet\n",
        encoding="utf-8",
    )
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_file(pilot, path)
        await rate(pilot, screen)
        screen.table.move_cursor_to_key("[red]Y")
        await pilot.pause()
        shown = screen_text(app)
        assert "[bold]X[/]" in shown
        assert "[red]Y" in shown
        assert "Dallas TX 75207" in shown
        assert "\x1b" not in shown
        screen.table.move_cursor_to_key("[bold]X[/]")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchOrderScreen))
        assert "Order [bold]X[/] · rated" in screen_text(app)
        assert app.return_code is None  # [@click=app.quit] did nothing


async def test_a_hostile_servers_rates_and_bookings_are_shown_as_text(tmp_path: Path) -> None:
    from tests.hostile_server import MARKUP, HostileServer
    from tests.ui.test_hostile_server_ui import assert_painted_safely, hostile_session
    from tui.screens.batch_confirm import BatchConfirmScreen

    server = HostileServer()
    session = hostile_session(server, tmp_path / "data")
    path = two_orders(tmp_path, "H")
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_file(pilot, path)
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        assert batch.counts() == {"rated": 2}
        text = assert_painted_safely(app)
        assert "Markup Freight[@" in text  # the carrier's name, as the characters it is
        screen.table.move_cursor_to_key("H1")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchOrderScreen))
        text = assert_painted_safely(app)
        assert MARKUP.split("]")[0] in text  # "[@click=app.pwned()" drawn, no link made
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        assert_painted_safely(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: batch.counts().get("booked") == 2, 60, "booked")
        await wait_for(pilot, lambda: not screen.runs.is_booking)
        await settle(pilot)
        assert_painted_safely(app)
    assert server.requests["POST /book"] == 2


async def test_production_confirmation_takes_any_currency_the_server_names(
    session: Session,
) -> None:
    from tui.screens.batch_confirm import BatchConfirmScreen

    totals = {"U.S.$ [b]": Decimal("12.50"), "CAD": Decimal("7")}
    answers: list[bool | None] = []
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(BatchConfirmScreen(2, totals, "PRODUCTION", "acme"), answers.append)
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        text = screen_text(app)
        assert "12.50 U.S.$ [b]" in text  # (sorted: CAD first)
        assert "Type them, then Enter books · Esc goes back, nothing sent" in text
        await pilot.press("2", "enter", "7", "enter", *"12.50", "enter")
        await wait_for(pilot, lambda: answers == [True], what="the confirmation")


async def test_c_changes_the_rules_and_the_orders_are_chosen_again(
    session: Session, wms: Path
) -> None:
    from tui.screens.batch_rules import BatchRulesScreen

    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        cheapest = batch.totals()
        by_hand = batch.pick(
            "SO-104200", max(batch.state("SO-104200").rates, key=lambda r: r.total).id
        )
        watched = guard(batch.store.store)  # type: ignore[attr-defined]
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchRulesScreen))
        await pilot.press("ctrl+u", *"fastest", "enter", "enter", *"HGFL", "enter", "enter")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the review")
        await wait_for(pilot, lambda: "Chosen again by" in screen_text(app), what="the rules")
        assert watched.calls
        assert watched.on_loop == []  # the rules saved off the loop
        assert batch.rules.kind == "fastest"
        assert batch.rules.exclude == ("HGFL",)
        assert "Chosen again by fastest, exclude HGFL: " in screen_text(app)
        assert "cheapest" not in screen_text(app).splitlines()[2]  # the info line's rule
        chosen = [batch.state(o.key).choice for o in batch.orders if o.valid]
        assert all(c is None or c.carrier_code != "HGFL" for c in chosen[1:])
        assert batch.state("SO-104200").chosen == by_hand.chosen  # by hand: kept
        assert batch.totals() != cheapest
        # a rule written wrong is said under the field, and nothing changes
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchRulesScreen))
        await pilot.press("ctrl+u", *"slowest", "ctrl+s")
        await pilot.pause()
        assert "use cheapest, fastest, or cheapest-within-N" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert batch.rules.kind == "fastest"


def test_the_rules_dialog_reads_and_writes_every_rule() -> None:
    from tui.batch.rules import RuleError, Rules
    from tui.screens.batch_rules import parse_rules, rules_text

    rules = parse_rules(
        {"rule": "cheapest-within-3", "prefer": "LKIF, Bluecrest", "exclude": " HGFL ",
         "max-total": "1,500 usd"}
    )  # fmt: skip
    assert rules == Rules("within", 3, ("LKIF", "Bluecrest"), ("HGFL",), Decimal(1500), "USD")
    assert parse_rules(rules_text(rules)) == rules
    assert parse_rules({}) == Rules()
    with pytest.raises(RuleError, match=r"^an amount like 1500"):
        parse_rules({"max-total": "lots"})


class BrowserApp(FreightApp):
    """The app as `freight serve` runs it, keeping what it would hand to the browser."""

    CSS_PATH = [str(Path(inspect.getfile(FreightApp)).parent / p) for p in FreightApp.CSS_PATH]
    delivered: list[tuple[Path, str | None]]

    @property
    def delivers_files(self) -> bool:
        return True

    def file_saved(self, path: Path, *more: Path, mime_type: str | None = None) -> str:
        self.delivered.append((path, mime_type))
        return f"The browser was given {path.name}."


async def test_in_a_browser_the_batch_paperwork_arrives_as_one_zip(
    session: Session, tmp_path: Path
) -> None:
    import zipfile

    from tui.screens.batch_confirm import BatchConfirmScreen

    sample = Path(batch_screen.__file__).parents[1] / "batch" / "samples" / "demo-orders.csv"
    lines = sample.read_text(encoding="utf-8-sig").splitlines()
    orders = tmp_path / "two" / "two-orders.csv"
    orders.parent.mkdir()
    orders.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")  # DEMO-1001 (2), 1002
    app = BrowserApp(session)
    app.delivered = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, orders)
        await rate(pilot, screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen), what="confirm")
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(app.delivered), seconds=60, what="the bundle")
    [(bundle, mime_type)] = app.delivered
    assert mime_type == "application/zip"
    assert bundle.name == "batch-two-orders.zip"
    folder = bundle.with_suffix("")
    with zipfile.ZipFile(bundle) as archive:
        names = sorted(archive.namelist())
        assert names == sorted(p.name for p in folder.iterdir())  # the folder, whole
        assert "DEMO-1001-bol.pdf" in names, names
        assert any(n.startswith("DEMO-1002") for n in names), names
        first = next(n for n in names if n.endswith(".pdf"))
        assert archive.read(first) == (folder / first).read_bytes()


async def test_the_demo_offers_its_sample_orders_and_enter_opens_them(session: Session) -> None:
    from tui.batch import sample_path

    app = make_app(session)  # a demo session
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen), what="batch screen")
        screen = batch_of(app)
        await wait_for(pilot, lambda: screen.path_input.value == str(sample_path()))
        offer = "The demo's sample orders (10, two set aside): Enter opens them."
        assert offer in screen_text(app)
        await pilot.press(*"/no/such/orders.csv", "enter")  # typed over the offer
        await wait_for(pilot, lambda: "cannot read /no/such/orders.csv" in screen_text(app))
        assert offer not in screen_text(app)  # no longer what Enter does
        screen.path_input.value = str(sample_path())
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.current_batch is not None, what="the orders")
        batch = screen.current_batch
        assert batch is not None
        assert len(batch.orders) == 10
        assert sum(not order.valid for order in batch.orders) == 2


async def test_columns_used_once_are_not_kept_for_the_next_file(
    session: Session, wms: Path, tuesday: Path
) -> None:
    """Issue 37: a mapping changed for one file was saved and read the next file with the same
    headers its way, silently. `o` uses it for this file only; ctrl+s keeps it."""
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.path_input.focus()
        await pilot.press(*str(wms), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        assert "Use once" in screen_text(app)
        await pilot.press("u", "o")  # kilograms, for this file only
        await wait_for(pilot, lambda: screen.current_batch is not None, what="the orders")
        batch = screen.current_batch
        assert batch is not None
        assert batch.mapping.weight_unit == "kg"
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.path_input.focus()
        await pilot.press(*str(tuesday), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        review = app.screen
        assert isinstance(review, BatchMappingScreen)
        assert review.mapping.weight_unit == "lb"  # guessed afresh, not the one-off kg


def _with_total(path: Path) -> None:
    """A footer row under the orders, as a report's export writes it."""
    path.write_bytes(path.read_bytes() + b"Total,,,,,,,,,,,,,400\r\n")


async def test_kept_columns_unlike_the_guess_and_total_rows_are_told(
    session: Session, wms: Path, tuesday: Path
) -> None:
    """Issue 37: saved columns that read otherwise than the guess say so when they are used
    again, units first; a Total row under the orders is set aside with a notice."""
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = batch_of(app)
        screen.path_input.focus()
        await pilot.press(*str(wms), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen), what="review")
        await pilot.press("u", "ctrl+s")  # kilograms, kept
        await wait_for(pilot, lambda: screen.current_batch is not None, what="the orders")
    _with_total(tuesday)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_file(pilot, tuesday, review=False)
        assert "1 rows set aside" in screen_text(app)

        def told() -> str:
            return " ".join(str(n.message) for n in notifications(app))

        await wait_for(pilot, lambda: "not the guess" in told(), what="the notice")
        assert "row 199 set aside: 'Total' starts a total or summary row" in told()
        assert "(saved) are not the guess: weight unit kg, not lb" in told()
