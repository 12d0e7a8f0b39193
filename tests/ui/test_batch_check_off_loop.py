"""Enter on an order whose booking's outcome is unknown: the ledger is read (the booking
check) and written (booked again) in worker threads, never on the app's event loop, where a
lock another process holds on the store would freeze the screen."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.batch.test_off_loop import guard
from tests.ui.booking_flow import CountingTransport
from tests.ui.screen import wait_for
from tests.ui.test_batch import monday, open_file, rate, sandbox
from tui.app import make_app
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.app import SandboxApp
from tui.screens.batch_confirm import BatchConfirmScreen
from tui.screens.book_check import BookingCheckScreen
from tui.session import Session

__all__ = ["monday", "sandbox"]  # the fixtures this module uses


@pytest.mark.slow
async def test_checking_an_unknown_booking_keeps_the_store_off_the_loop(
    sandbox: SandboxApp, monday: None, tmp_path: Path
) -> None:
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
        transport.replace["/book"] = [httpx.Response(502, json={"message": "bad gateway"})]
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: batch.state("U1").status == "unknown", 60, "unknown")
        await wait_for(pilot, lambda: not screen.runs.is_booking)
        watched = guard(session.store())
        screen.table.move_cursor_to_key("U1")
        await pilot.press("enter")  # the ledger's record of its booking: read off the loop
        await wait_for(pilot, lambda: isinstance(app.screen, BookingCheckScreen))
        check = app.screen
        assert isinstance(check, BookingCheckScreen)
        await wait_for(pilot, lambda: check.outcome is not None, what="the search")
        await pilot.press("b")  # booked again: the ledger settled, the order saved
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen))
        assert batch.state("U1").status == "rated"
        assert watched.calls
        assert watched.on_loop == []
