"""The Day screen at 80x24 on the sandbox: what was booked for the day per carrier, manifests
written (and never over the old ones unasked), the day's paperwork printed as one PDF job and
one raw ZPL job (a fake lp), the close, and a booking after it shown as a late addition; and
the messages of manifests, print and close fit the 80-column status line whole, with long
printer names and folders shortened."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Input

from tests.booking.conftest import booking_of, lane_of
from tests.fake_lp import install_fake_lp
from tests.ui.screen import Notices, screen_text, settle, wait_for
from tui.api.models import RateItem, RateRequest
from tui.app import FreightApp, make_app
from tui.config.settings import AppConfig, PrinterSettings
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import day as day_screen
from tui.screens.day import DayScreen
from tui.screens.day_dialogs import CarrierClose, ManifestsDialog
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.yes_no import YesNoDialog
from tui.session import Session
from tui.store.days import last_close

NOON_MONDAY = datetime(2026, 11, 23, 17, 0, tzinfo=UTC)
TUESDAY = date(2026, 11, 24)


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


def session_on(
    sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch, printers: PrinterSettings
) -> Session:
    """A session on ``sandbox`` with ``printers``, the Day screen's today Tuesday."""
    monkeypatch.setattr(day_screen, "today", lambda: TUESDAY)
    return Session.for_testing(
        "http://sandbox.test",
        DEMO_TOKEN,
        transport=httpx.ASGITransport(app=sandbox),
        config=AppConfig(printers=printers),
    )


@pytest.fixture
def session(sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch) -> Session:
    printers = PrinterSettings(document_printer="office", label_printer="zebra")
    return session_on(sandbox, monkeypatch, printers)


async def book(session: Session, dest: str, company: str) -> str:
    """Book the cheapest LTL rate of a pallet to ``dest`` for Tuesday; its PRO."""
    client = await session.client()
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=1, package="pallet")
    request = RateRequest(
        origin_postal_code="60607", dest_postal_code=dest, items=[item], pickup_date=TUESDAY
    )
    quote = await client.get_rates(request)
    rate = min((r for r in quote.rates if r.is_ok and r.mode == "ltl"), key=lambda r: r.total)
    outcome = await session.booking_engine(client).book(
        booking_of(quote, rate, destCompany=company), lane=lane_of(request, rate)
    )
    assert outcome.status == "booked", outcome
    assert outcome.pro_number
    return outcome.pro_number


def pages(path: Path) -> int:
    """The page count of a PDF, as pypdf reads it."""
    from tui.day.pdf_merge import page_count

    return page_count(path.read_bytes())


async def open_day(pilot: Pilot[Any]) -> DayScreen:
    app = pilot.app
    assert isinstance(app, FreightApp)
    await pilot.press("alt+5")
    await wait_for(pilot, lambda: isinstance(app.screen, DayScreen), what="the day screen")
    screen = app.screen
    assert isinstance(screen, DayScreen)
    await wait_for(pilot, lambda: screen.facts_state == "known", what="the service's records")
    await settle(pilot)
    return screen


async def confirm(pilot: Pilot[Any], key: str) -> None:
    """``key`` asks, and the answer is yes: for ``c`` on a carrier, all carriers (``a``)."""
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, YesNoDialog), what="confirm")
    await pilot.press("a" if isinstance(pilot.app.screen, CarrierClose) else "y")


async def test_the_day_manifests_print_close_and_a_late_addition(
    session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        peach = await book(session, "30303", "Peach Retail")
        lone = await book(session, "75207", "Lone Star DC")
        screen = await open_day(pilot)
        text = screen_text(app)
        assert "Pickups Tue 2026-11-24 · 2 shipments" in text
        assert peach in text
        assert lone in text
        assert "Peach Retail" in text
        peach_line = next(line for line in text.splitlines() if peach in line)
        assert "unconfirmed" in peach_line  # the sandbox has not confirmed the pickup yet
        assert "2 need a hand" in text
        assert max(len(line.rstrip()) for line in text.splitlines()) <= 80

        # Manifests: written to the folder typed; a second time only after a second Enter.
        folder = tmp_path / "manifests"
        folder.mkdir()
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ManifestsDialog), what="dialog")
        app.screen.query_one("#manifests-folder", Input).value = str(folder)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(list(folder.iterdir())) >= 2, what="manifests")
        await settle(pilot)
        written = sorted(folder.iterdir())
        assert {path.suffix for path in written} == {".csv", ".pdf"}
        csv_text = "".join(p.read_text("utf-8") for p in written if p.suffix == ".csv")
        assert peach in csv_text
        assert lone in csv_text
        assert "Wrote" in screen_text(app)
        before = {path: path.read_bytes() for path in written}
        for path in written:
            path.write_bytes(b"kept")  # the user's own copy: not replaced unasked
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ManifestsDialog), what="dialog")
        app.screen.query_one("#manifests-folder", Input).value = str(folder)
        await pilot.press("enter")
        await settle(pilot)
        assert "Already there: manifest-2026-11-24-" in screen_text(app)
        assert all(path.read_bytes() == b"kept" for path in written)
        await pilot.press("escape")
        await settle(pilot)
        assert all(path.read_bytes() == b"kept" for path in written)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ManifestsDialog), what="dialog")
        app.screen.query_one("#manifests-folder", Input).value = str(folder)
        await pilot.press("enter", "enter")  # asked, then replaced
        await wait_for(
            pilot, lambda: all(p.read_bytes() == before[p] for p in written), what="replaced"
        )

        # Print: every BOL in one PDF job, every ZPL label in one raw job.
        await confirm(pilot, "p")
        await wait_for(pilot, lambda: len(lp.calls()) == 2, seconds=30, what="two print jobs")
        await wait_for(pilot, lambda: "Printed" in screen_text(app), what="printed")
        pdf, zpl = sorted(lp.calls(), key=lambda call: call.argv[1])
        assert pdf.argv[:2] == ["-d", "office"]
        assert pdf.head.startswith("%PDF")
        assert pdf.argv[-1].endswith("bols-2026-11-24.pdf")
        assert zpl.argv[:4] == ["-d", "zebra", "-o", "raw"]
        assert zpl.head.startswith("^XA")
        assert pages(Path(pdf.argv[-1])) == 2  # both BOLs, one PDF
        assert "2 BOLs to office" in screen_text(app)

        # The close records who, when and what was printed here.
        await confirm(pilot, "c")
        await wait_for(pilot, lambda: "closed" in screen_text(app), what="closed")
        ledger = session.ledger()
        close = last_close(ledger.store, TUESDAY, ledger.environment)
        assert close is not None
        assert any(name.startswith("bols-2026-11-24.pdf") for name in close.printed)
        assert any(name.startswith("manifest-2026-11-24-") for name in close.printed)
        await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
        assert "closed" in screen_text(app)

        # A booking after the close is a late addition: flagged.
        late = await book(session, "30303", "Late Goods")
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
        await wait_for(pilot, lambda: late in screen_text(app), what="the late booking")
        text = screen_text(app)
        late_line = next(line for line in text.splitlines() if late in line)
        assert "late" in late_line
        assert "3 need a hand" in text

        # Enter opens the highlighted shipment; Esc comes back to the day.
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ShipmentDetailScreen), what="the shipment"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the day")


OFFICE = "Warehouse-2nd-floor-HP-LaserJet-Enterprise-M507-duplex"
ZEBRA = "Zebra-ZT410-shipping-dock-door-7-left-side"


@pytest.fixture
def long_names(sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch) -> Session:
    """Printers with long names, and a long station name."""
    monkeypatch.setenv("FREIGHT_STATION", "receiving-and-shipping-desk-by-the-north-door")
    return session_on(
        sandbox, monkeypatch, PrinterSettings(document_printer=OFFICE, label_printer=ZEBRA)
    )


def status(screen: DayScreen) -> str:
    return str(screen.query_one("#day-status").render())


async def said(pilot: Pilot[Any], screen: DayScreen, start: str) -> str:
    """The status line once it starts with ``start``, checked to fit the screen."""
    await wait_for(pilot, lambda: status(screen).startswith(start), seconds=30, what=start)
    line = status(screen)
    assert cell_len(line) <= 78  # 80 columns less the status line's padding
    assert line in screen_text(screen.app)  # whole on the screen, on one line
    return line


@pytest.mark.slow  # two bookings on the sandbox, then the screen: 5-15 s
async def test_print_and_close_messages_fit_80_columns_and_say_what_was_done(
    long_names: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = long_names
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    app = make_app(session)
    notices = Notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await book(session, "30303", "Peach Retail")
        await book(session, "75207", "Lone Star DC")
        screen = await open_day(pilot)

        folder = tmp_path / "a-long-way-down-to-the-folder-of" / "the-day-s-manifests"
        folder.mkdir(parents=True)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ManifestsDialog), what="dialog")
        app.screen.query_one("#manifests-folder", Input).value = str(folder)
        await pilot.press("enter")
        line = await said(pilot, screen, "Wrote")
        carriers = len(screen.shown.carriers) if screen.shown else 0
        assert line.startswith(f"Wrote {carriers} manifest")
        assert f"({2 * carriers} files: CSV and PDF) to " in line
        assert "…" in line  # the folder, shortened in its middle
        assert line.endswith("/the-day-s-manifests")

        await confirm(pilot, "p")
        await wait_for(pilot, lambda: len(lp.calls()) == 2, seconds=30, what="two print jobs")
        line = await said(pilot, screen, "Printed")
        assert line.startswith("Printed 2 BOLs to Warehouse")
        assert ", 2 label files to Zebra-ZT" in line
        await wait_for(pilot, lambda: bool(notices.said), what="the whole message")
        whole = notices.said[-1][1]
        assert f"Printed 2 BOLs to {OFFICE}, 2 label files to {ZEBRA}; files in " in whole
        assert whole.endswith("day-2026-11-24")

        await confirm(pilot, "c")
        line = await said(pilot, screen, "Closed")
        manifests = f"{carriers} manifest{'s' * (carriers != 1)}"
        assert line == f"Closed Tue Nov 24: 2 shipments; {manifests}; printed 2 BOLs, 2 label files"
        await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
        await settle(pilot)
        assert await said(pilot, screen, "Closed Tue Nov 24: 2 shipments; ")


class Down(httpx.AsyncBaseTransport):
    """A service that cannot be reached."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)


async def test_without_the_service_the_store_part_shows_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.benchmarks.bench_day_keys import fill_day

    monkeypatch.setattr(day_screen, "today", lambda: TUESDAY)
    session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=Down())
    ledger = session.ledger()
    fill_day(session.data_dir, ledger.environment, TUESDAY, 3, 0)
    lane = '{"carrier": "[@click=app.quit]Evil[/] \\u001b[2J", "pickup_date": "2026-11-24"}'
    with ledger.store.engine.write() as tx:  # a carrier's name is the service's text
        tx.run("UPDATE bookings SET lane = ? WHERE reference = 'bench-000001'", (lane,))
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+5")
        await wait_for(pilot, lambda: isinstance(app.screen, DayScreen), what="the day screen")
        screen = app.screen
        assert isinstance(screen, DayScreen)
        await wait_for(pilot, lambda: screen.table.row_count == 6, what="the store's part")
        await wait_for(pilot, lambda: screen.facts_state == "offline", seconds=60, what="offline")
        await settle(pilot)
        text = screen_text(app)
        assert "Pickups Tue 2026-11-24 · 3 shipments" in text
        assert "[@click=app.quit]Evil[/]" in text  # as plain text, the escape left out
        assert "\x1b" not in text
        assert "3410000000" in text
        assert "No answer from the service: the store's part only (r tries again)" in text
        lines = [line for line in text.splitlines() if "341000000" in line]
        assert len(lines) == 3
        assert all(line.rstrip(" ┃").endswith("?") for line in lines)  # the service's flags
        await pilot.press("m")  # no manifests from half a day
        await settle(pilot)
        assert not isinstance(app.screen, ManifestsDialog)
        assert "the service's part is missing" in screen_text(app)
