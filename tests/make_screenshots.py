"""Make the SVG screenshots in screenshots/ by driving the real app on a real sandbox.

Run: python tests/make_screenshots.py [--out screenshots] [--only reports]

Each screen is shot at 80x24 (the warehouse SSH size) and 120x40. The sandbox runs in-process
on a fixed clock, so the pictures only change when the app does.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FIXED_NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
SIZES = ((80, 24), (120, 40))

Step = Callable[[Any], Awaitable[None]]


async def _type(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", ".": "full_stop", "-": "minus"}.get(c, c) for c in text])


async def _settle(pilot: Any) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def _fill_quote(pilot: Any) -> None:
    """Destination Atlanta, two pallets of machine parts and a crate with its own class."""
    await pilot.pause()
    await _type(pilot, "30303")
    await pilot.press("tab", "tab", "tab")
    for index, value in enumerate(("2", "pallet", "800", "48", "40", "48", "", "Machine parts")):
        if value:
            await _type(pilot, value)
        if index < 7:
            await pilot.press("tab")
    await pilot.press("enter")
    for index, value in enumerate(("1", "crate", "350", "40", "30", "36", "85", "Spare motor")):
        if value:
            await _type(pilot, value)
        if index < 7:
            await pilot.press("tab")
    await _settle(pilot)


async def _shoot(app: Any, out: Path, name: str, size: tuple[int, int]) -> None:
    filename = f"{name}-{size[0]}x{size[1]}.svg"
    app.save_screenshot(filename=filename, path=str(out))
    print(f"wrote {out / filename}")


async def _batch(pilot: Any, app: Any, out: Path, size: tuple[int, int]) -> None:
    """The demo's sample orders on the Batch screen: the columns, the batch rated, an order."""
    from tui.batch import sample_path
    from tui.screens.batch import BatchScreen
    from tui.screens.batch_mapping import BatchMappingScreen

    os.chdir(sample_path().parent)  # the path typed is the file's name alone
    await pilot.press("alt+4")
    await _settle(pilot)
    screen = app.screen
    assert isinstance(screen, BatchScreen)
    screen.path_input.focus()
    await _type(pilot, "demo-orders.csv")
    await pilot.press("enter")
    while not isinstance(app.screen, BatchMappingScreen):
        await pilot.pause(0.05)
    await _settle(pilot)
    await _shoot(app, out, "batch-columns", size)
    await pilot.press("ctrl+s")
    while screen.current_batch is None:
        await pilot.pause(0.05)
    await pilot.press("r")
    while screen.runs.rating_worker is None or not screen.runs.rating_worker.is_finished:
        await pilot.pause(0.05)
    await _settle(pilot)
    screen.table.move_cursor_to_key("DEMO-1007")  # an order set aside: its reason below
    await _settle(pilot)
    await _shoot(app, out, "batch", size)
    screen.table.move_cursor_to_key("DEMO-1001")
    await pilot.press("enter")
    await _settle(pilot)
    await _shoot(app, out, "batch-order", size)


DAY_ORDERS = (
    ("30303", "Peach Retail", True, 2, 0),
    ("75207", "Lone Star DC", True, 1, 1),
    ("30336", "Fulton Supply", True, 3, 0),
    ("98101", "Rainier Outfitters", False, 1, 1),  # no pickup asked for: flagged
)
"""Bookings for Monday's pickups: destination, consignee, pickup scheduled, pallets, and
which LTL rate (0 the cheapest, 1 the next carrier's)."""


async def _book_day(session: Any) -> None:
    """Book DAY_ORDERS for Monday 2026-11-23 through the sandbox, as the Book screen does."""
    from datetime import date

    from tui.api.models import BookingRequest, RateItem, RateRequest
    from tui.booking import Lane

    client = await session.client()
    engine = session.booking_engine(client)
    monday = date(2026, 11, 23)
    for dest, company, scheduled, pallets, choice in DAY_ORDERS:
        item = RateItem(
            weight=450, length=48, width=40, height=48, quantity=pallets, package="pallet"
        )
        request = RateRequest(
            origin_postal_code="60607", dest_postal_code=dest, items=[item], pickup_date=monday
        )
        quote = await client.get_rates(request)
        rates = sorted(
            (r for r in quote.rates if r.is_ok and r.mode == "ltl"), key=lambda r: r.total
        )
        carriers = list(dict.fromkeys(r.carrier for r in rates))
        rate = next(r for r in rates if r.carrier == carriers[choice])
        booking = BookingRequest.build(
            {
                "id": quote.id,
                "rateId": rate.id,
                "originCompany": "Acme Dock Co",
                "originAddress": "1200 W Lake St",
                "originDockHoursOpen": "08:00",
                "originDockHoursClose": "16:00",
                "destCompany": company,
                "destAddress": "100 Main St",
                "schedulePickup": scheduled,
            }
        )
        lane = Lane("60607", dest, rate.carrier, rate.carrier_code, monday)
        outcome = await engine.book(booking, lane=lane)
        assert outcome.status == "booked", outcome


async def _day(out: Path, size: tuple[int, int]) -> None:
    """The Day screen on Monday's pickups: four bookings, one pickup not asked for."""
    import httpx

    import tui.screens.day
    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.screens.day import DayScreen
    from tui.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        # A data dir of its own: bookings the other pictures made (on another sandbox, whose
        # shipments this one does not know) would be on the day too.
        shared_data = os.environ.get("XDG_DATA_HOME")
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        config = SandboxConfig(
            db_path=Path(tmp) / "sandbox.sqlite3", shipments=40, seed=7, now=lambda: FIXED_NOW
        )
        tui.screens.day.today = FIXED_NOW.date  # Friday: → goes to Monday
        transport = httpx.ASGITransport(app=create_app(config))
        session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=transport)
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot)
            await _book_day(session)
            await pilot.press("alt+5")
            await _settle(pilot)
            await pilot.press("right")
            await _settle(pilot)
            screen = app.screen
            assert isinstance(screen, DayScreen)
            for _ in range(600):
                if screen.facts_state == "known":
                    break
                await pilot.pause(0.05)
            else:
                raise RuntimeError(f"the day's facts stayed {screen.facts_state!r}")
            await _settle(pilot)
            await _shoot(app, out, "day", size)
            await _cancel_on_closed_day(pilot, screen)
            await _shoot(app, out, "day-canceled", size)
        if shared_data is not None:
            os.environ["XDG_DATA_HOME"] = shared_data


async def _cancel_on_closed_day(pilot: Any, screen: Any) -> None:
    """Close Lone Star DC's carrier (its driver came), then cancel Lone Star DC's shipment:
    it stays on its carrier's closed day, flagged canceled, the heading saying the close."""
    from tui.screens.day_dialogs import CarrierClose
    from tui.screens.shipment_changes import CancelDialog

    table = screen.table
    for index in range(table.row_count):
        row = table.row_at(index)
        if row.line is not None and row.line.facts and row.line.facts.consignee == "Lone Star DC":
            table.move_cursor(index)
    await _settle(pilot)
    await pilot.press("c")
    await _until(pilot, lambda: isinstance(pilot.app.screen, CarrierClose))
    await pilot.press("y")
    await _until(pilot, lambda: screen._stored is not None and screen._stored.closes.carriers)
    await _until(pilot, lambda: screen.facts_state == "known" and not screen.reading)
    await _settle(pilot)
    await pilot.press("x")
    await _until(pilot, lambda: isinstance(pilot.app.screen, CancelDialog))
    await pilot.press("y")
    await _until(pilot, lambda: "canceled." in str(screen.query_one("#day-status").render()))
    await _until(pilot, lambda: screen.facts_state == "known" and not screen.reading)
    await _settle(pilot)


async def _until(pilot: Any, condition: Callable[[], bool]) -> None:
    for _ in range(600):
        if condition():
            return
        await pilot.pause(0.05)
    raise RuntimeError("the screen did not get there")


async def _run(out: Path, size: tuple[int, int]) -> None:
    import httpx

    import tui.screens.batch
    import tui.screens.book
    import tui.screens.quote
    import tui.screens.shipments
    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        config = SandboxConfig(
            db_path=Path(tmp) / "sandbox.sqlite3", shipments=300, seed=7, now=lambda: FIXED_NOW
        )
        tui.screens.quote.now = lambda: FIXED_NOW  # the quote's pickup day, on the same clock
        tui.screens.batch.now = lambda: FIXED_NOW  # the batch's too
        tui.screens.book.today = FIXED_NOW.date  # the booking's check of the pickup day
        tui.screens.shipments.today = FIXED_NOW.date  # the export's default name
        transport = httpx.ASGITransport(app=create_app(config))
        session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=transport)
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            await _fill_quote(pilot)
            await _shoot(app, out, "quote", size)
            await pilot.press("ctrl+r")
            await _settle(pilot)
            await _shoot(app, out, "rates", size)
            await pilot.press("enter")
            await _settle(pilot)
            await _shoot(app, out, "book", size)
            await pilot.press("ctrl+s")
            await _settle(pilot)
            await _shoot(app, out, "book-confirm", size)
            await pilot.press("enter")
            await _settle(pilot)
            await _shoot(app, out, "result", size)
            await pilot.press("f4")
            await _settle(pilot)
            await _shoot(app, out, "shipments", size)
            await pilot.press("enter")
            await _settle(pilot)
            await _shoot(app, out, "shipment-detail", size)
            await pilot.press("f1")
            await _settle(pilot)
            await _shoot(app, out, "help", size)
            await pilot.press("escape")
            await _batch(pilot, app, out, size)

        signed_out = Session(
            environment="SANDBOX",
            profile=session.profile,
            config=session.config,
            data_dir=session.data_dir,
            connect=None,
        )
        app = make_app(signed_out)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot)
            await _shoot(app, out, "sign-in", size)


async def _reports(out: Path, size: tuple[int, int]) -> None:
    """The Reports screen over a few weeks of bookings (three carriers, USD and CAD): the
    weekly line and bars of this month, on the same fixed clock."""
    import httpx

    sys.path.insert(0, str(Path(__file__).parents[1]))  # run as a script: tests importable
    import tui.screens.reports
    from tests.reports.fill import fill, sample_bookings
    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.screens.reports import ReportsScreen
    from tui.session import Session
    from tui.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        config = SandboxConfig(
            db_path=Path(tmp) / "sandbox.sqlite3", shipments=10, seed=7, now=lambda: FIXED_NOW
        )
        tui.screens.reports.today = FIXED_NOW.date
        transport = httpx.ASGITransport(app=create_app(config))
        session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=transport)
        store = open_store(session.data_dir, "")
        try:
            november = datetime(2026, 11, 2, 14, tzinfo=UTC)
            fill(store, sample_bookings(november, days=19))
            fill(store, sample_bookings(datetime(2026, 10, 1, 14, tzinfo=UTC), 30, "OCT"))
        finally:
            store.close()
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot)
            await pilot.press("alt+6")
            await _settle(pilot)
            await pilot.press("3")
            screen = app.screen
            assert isinstance(screen, ReportsScreen)
            while screen.wanted not in screen.reads:
                await pilot.pause(0.05)
            await _settle(pilot)
            await _shoot(app, out, "reports", size)


async def _audit(out: Path, size: tuple[int, int]) -> None:
    """The Reports screen's Audit view: the sandbox's November shipments booked in the store
    at their quoted price; those billed above it, on the same fixed clock."""
    import httpx

    sys.path.insert(0, str(Path(__file__).parents[1]))  # run as a script: tests importable
    import tui.screens.reports
    from tests.reports.test_audit import put_booked
    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.screens.reports_audit import AuditPanel
    from tui.session import Session
    from tui.store import ledger_environment, open_store

    with tempfile.TemporaryDirectory() as tmp:
        config = SandboxConfig(
            db_path=Path(tmp) / "sandbox.sqlite3", shipments=400, seed=7, now=lambda: FIXED_NOW
        )
        tui.screens.reports.today = FIXED_NOW.date
        sandbox = create_app(config)
        with sandbox.db.lock() as conn:
            rows = list(conn.execute("SELECT * FROM shipments WHERE pickup_at IS NOT NULL"))
        transport = httpx.ASGITransport(app=sandbox)
        session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=transport)
        store = open_store(session.data_dir, "")
        try:
            days = {r["id"]: datetime.fromtimestamp(r["pickup_at"], UTC).date() for r in rows}
            put_booked(
                store,
                [(r["id"], r["pro"] or "", r["carrier_name"], f"{r['total_cents'] / 100:.2f}",
                  "USD", str(days[r["id"]])) for r in rows if days[r["id"]].month == 11],
                environment=ledger_environment(session.profile_name, session.environment),
            )  # fmt: skip
        finally:
            store.close()
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            await _settle(pilot)
            await pilot.press("alt+6")
            await _settle(pilot)
            await pilot.press("5")
            panel = app.screen.query_one(AuditPanel)
            await _until(pilot, lambda: panel.report is not None)
            await _settle(pilot)
            await _shoot(app, out, "reports-audit", size)
        sandbox.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "screenshots")
    parser.add_argument(
        "--only",
        choices=("day", "reports", "audit"),
        help="shoot only this screen (the others are left as they are)",
    )
    options = parser.parse_args()
    out: Path = options.out.resolve()
    shots = {"day": [_day], "reports": [_reports], "audit": [_audit]}
    runs = shots[options.only] if options.only else [_run, _day, _reports, _audit]
    out.mkdir(parents=True, exist_ok=True)
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    os.environ["FREIGHT_STATION"] = "dock-1"  # the closed day names its station
    # The same colours whatever terminal runs the script (TERM=xterm would draw 16 colours).
    os.environ["COLORTERM"] = "truecolor"
    for size in SIZES:
        # A fresh home per size: the quote draft the last size left would be filled in again.
        with tempfile.TemporaryDirectory() as home:
            for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
                os.environ[name] = str(Path(home) / name.lower())
            for run in runs:
                asyncio.run(run(out, size))


if __name__ == "__main__":
    main()
