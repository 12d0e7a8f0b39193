"""The Day screen closes one carrier (its driver came and took its manifest): `c` on a
carrier's shipment or heading asks to close that carrier (`y`) or every carrier (`a`); the
carrier's heading then says when and by which station, its later bookings are late, and
another carrier's later booking is not."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.booking.conftest import booking_of, lane_of
from tests.ui.screen import screen_text, settle, wait_for
from tests.ui.test_day import TUESDAY, open_day, sandbox, session_on  # noqa: F401 (a fixture)
from tui.api.models import RateItem, RateRequest
from tui.app import make_app
from tui.config.settings import PrinterSettings
from tui.sandbox.app import SandboxApp
from tui.screens.day import DayScreen
from tui.screens.day_dialogs import CarrierClose
from tui.session import Session
from tui.store.days import closes_of

HARROWGATE = "Harrowgate Freight Lines"
"""The sandbox's cheapest carrier on these lanes."""


@pytest.fixture
def session(sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch) -> Session:  # noqa: F811
    """A session on the sandbox at the packing station ``pack-1``."""
    monkeypatch.setenv("FREIGHT_STATION", "pack-1")
    return session_on(sandbox, monkeypatch, PrinterSettings())


async def book(session: Session, company: str, *, harrowgate: bool) -> tuple[str, str]:
    """Book a pallet to Atlanta for Tuesday with Harrowgate (HGFL) or the cheapest other
    carrier; its PRO and carrier."""
    client = await session.client()
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=1, package="pallet")
    request = RateRequest(
        origin_postal_code="60607", dest_postal_code="30303", items=[item], pickup_date=TUESDAY
    )
    quote = await client.get_rates(request)
    rates = [r for r in quote.rates if r.is_ok and r.mode == "ltl"]
    rate = min(
        (r for r in rates if (r.carrier_code == "HGFL") == harrowgate), key=lambda r: r.total
    )
    outcome = await session.booking_engine(client).book(
        booking_of(quote, rate, destCompany=company), lane=lane_of(request, rate)
    )
    assert outcome.status == "booked", outcome
    assert outcome.pro_number
    return outcome.pro_number, rate.carrier or ""


def line_of(screen: DayScreen, text: str) -> str:
    return next(line for line in screen_text(screen.app).splitlines() if text in line)


async def read_again(pilot: Pilot[Any], screen: DayScreen) -> None:
    await pilot.press("r")
    await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
    await settle(pilot)


@pytest.mark.slow  # four bookings on the sandbox, then the screen: 8-15 s
async def test_closing_one_carrier_leaves_the_other_open(session: Session) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        peach, _ = await book(session, "Peach Retail", harrowgate=True)
        await book(session, "Other Goods", harrowgate=False)
        screen = await open_day(pilot)
        assert screen.table.move_cursor_to_key(f"carrier:{HARROWGATE}")

        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CarrierClose), what="the question")
        asked = screen_text(app)
        assert "Close Harrowgate Freight Lines for Tue 2026-11-24?" in asked
        assert "y this carrier · a all carriers · n keep open" in asked
        await pilot.press("y")
        said = "Closed Harrowgate Freight Lines on Tue Nov 24: 1 shipment"
        await wait_for(pilot, lambda: said in screen_text(app), what="closed")
        await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
        await settle(pilot)

        ledger = session.ledger()
        closes = closes_of(ledger.store, TUESDAY, ledger.environment)
        assert closes.whole is None  # the day itself stays open
        own = closes.of(HARROWGATE)
        assert own is not None
        assert own.carrier == HARROWGATE
        when = own.closed_at.astimezone().strftime("%H:%M")
        heading = line_of(screen, f"{HARROWGATE} · 1 shipment")
        assert ledger.station == "pack-1"
        assert heading.rstrip(" ┃").endswith(f" · 1 pcs · 500 lb · closed {when} pack-1")
        title = line_of(screen, "Pickups Tue 2026-11-24")
        assert "closed" not in title
        other_heading = next(
            line for line in screen_text(app).splitlines()
            if "· 1 shipment" in line and HARROWGATE not in line
        )  # fmt: skip
        assert "closed" not in other_heading

        # After the close: Harrowgate's new booking is late, the other carrier's is not.
        late, _ = await book(session, "Late Peach", harrowgate=True)
        other, carrier = await book(session, "Other Later", harrowgate=False)
        await read_again(pilot, screen)
        assert "late" in line_of(screen, late)
        assert "late" not in line_of(screen, other)
        assert "late" not in line_of(screen, peach)

        # `a` closes every carrier: the title says the day's close.
        assert screen.table.move_cursor_to_key(f"carrier:{carrier}")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CarrierClose), what="the question")
        await pilot.press("a")
        await wait_for(pilot, lambda: "Closed Tue Nov 24: 4 shipments" in screen_text(app))
        await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
        await settle(pilot)
        assert "closed" in line_of(screen, "Pickups Tue 2026-11-24")
        whole = closes_of(ledger.store, TUESDAY, ledger.environment).whole
        assert whole is not None
        assert whole.carrier is None


async def test_n_keeps_the_carrier_open(session: Session) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await book(session, "Peach Retail", harrowgate=True)
        screen = await open_day(pilot)
        await pilot.press("c")  # the first shipment is highlighted: its carrier is asked
        await wait_for(pilot, lambda: isinstance(app.screen, CarrierClose), what="the question")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the day")
        await settle(pilot)
        ledger = session.ledger()
        closes = closes_of(ledger.store, TUESDAY, ledger.environment)
        assert closes.whole is None
        assert closes.carriers == {}
