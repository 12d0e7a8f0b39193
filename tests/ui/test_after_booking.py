"""Pickups and cancels from the Result screen and the shipment's detail, on the sandbox: the
change engine the CLI uses, through the screens' workers; refusals said at the action."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.api.test_changes import START, Clock
from tests.sandbox_fixtures import book_ltl_with_pickup
from tests.ui.screen import screen_text, wait_for
from tui.api.models import Booking, Rate
from tui.app import FreightApp, make_app
from tui.sandbox import SandboxConfig
from tui.screens.result import ResultScreen
from tui.screens.shipment_changes import CancelDialog, PickupDialog
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.session import Session
from tui.store import open_store
from tui.store.changes import ChangeLog


@pytest.fixture
def clock() -> Clock:
    """The sandbox's clock, moved by the test (a Tuesday morning in Atlanta)."""
    return Clock()


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig, clock: Clock) -> SandboxConfig:
    """The usual sandbox on a clock the test holds (the cut-off is a time of day)."""
    return replace(sandbox_config, now=clock, clock_speed=1.0, shipments=0)


async def book(session: Session) -> tuple[Booking, Rate]:
    """A fresh LTL booking with a pickup, Atlanta to New York, made through the client."""
    return await book_ltl_with_pickup(await session.client())


async def on_result(pilot: Pilot[Any], app: FreightApp, session: Session) -> Booking:
    booking, rate = await book(session)
    await app.push_screen(ResultScreen(booking, rate, session.environment))  # as booked
    await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the result")
    return booking


async def status_of(session: Session, shipment_id: str) -> str:
    return (await (await session.client()).get_shipment(shipment_id)).status


async def test_cancel_from_the_result_screen_asks_then_shows_canceled(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        booking = await on_result(pilot, app, ui_session)
        sid = booking.shipment_id or ""
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelDialog), what="the confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: f"{sid}: canceled." in screen_text(app))
        assert f"Canceled · {ui_session.environment}" in screen_text(app)
        assert await status_of(ui_session, sid) == "canceled"
        store = open_store(ui_session.data_dir, "")
        try:
            ledger = ui_session.ledger()
            log = ChangeLog(store, ui_session.profile_name, ledger.environment, "any")
            [record] = log.of_shipment(sid)
        finally:
            store.close()
        assert (record.kind, record.outcome) == ("cancel", "done")


async def test_no_at_the_confirm_cancels_nothing(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        booking = await on_result(pilot, app, ui_session)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelDialog), what="the confirm")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert f"Booked · {ui_session.environment}" in screen_text(app)
        assert await status_of(ui_session, booking.shipment_id or "") != "canceled"


async def test_moving_the_pickup_from_the_result_shows_the_new_day(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        booking = await on_result(pilot, app, ui_session)
        sid = booking.shipment_id or ""
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, PickupDialog), what="the dialog")
        app.screen.query_one("#pickup-day", Input).value = "2026-03-13"
        app.screen.query_one("#pickup-ready", Input).value = "09:00"
        app.screen.query_one("#pickup-close", Input).value = "15:00"
        app.screen.query_one("#pickup-day", Input).focus()
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: f"{sid}: pickup on 2026-03-13, 09:00-15:00" in screen_text(app)
        )
        assert "Fri 2026-03-13 09:00–15:00 · moved" in screen_text(app)
        detail = await (await ui_session.client()).get_shipment(sid)
        assert detail.pickup_date is not None
        assert detail.pickup_date.isoformat() == "2026-03-13"


async def test_a_late_cancel_shows_the_services_refusal_at_the_action(
    ui_session: Session, clock: Clock
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        booking = await on_result(pilot, app, ui_session)
        assert booking.pickup_date is not None
        clock.now = datetime.combine(booking.pickup_date, START.timetz()).replace(minute=1)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelDialog), what="the confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: "cut-off" in screen_text(app), what="the refusal")
        assert f"Booked · {ui_session.environment}" in screen_text(app)
        assert await status_of(ui_session, booking.shipment_id or "") != "canceled"


async def test_the_detail_cancels_its_pickup_and_then_the_shipment(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(100, 30)) as pilot:
        booking, _ = await book(ui_session)
        sid = booking.shipment_id or ""
        app.open_shipment(sid)
        await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen))
        detail = app.screen
        assert isinstance(detail, ShipmentDetailScreen)
        await wait_for(pilot, lambda: detail.detail is not None, what="the detail")
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, PickupDialog), what="the dialog")
        await pilot.press("ctrl+x")
        await wait_for(pilot, lambda: f"{sid}: pickup canceled." in screen_text(app))
        await wait_for(pilot, lambda: detail.detail is not None and not detail.detail.pickup_date)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelDialog), what="the confirm")
        await pilot.press("enter")
        await wait_for(pilot, lambda: f"{sid}: canceled." in screen_text(app))
        await wait_for(
            pilot, lambda: detail.detail is not None and detail.detail.status == "canceled"
        )
        await pilot.press("x")
        assert f"{sid} is canceled." in screen_text(app)
