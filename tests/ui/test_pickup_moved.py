"""The pickup the service gives: booked over Thanksgiving, the service moves the day and says
so; the confirmation warns before anything is sent, the result screen and the ledger show the
day the service gave and its message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.booking_flow import choose_rate, deterministic_sandbox, ltl_request, open_rates
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import make_app
from tui.sandbox import SandboxConfig
from tui.screens.book import BookScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.result import ResultScreen
from tui.session import Session

THANKSGIVING_EVE = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)  # Wednesday 15:00 in Chicago


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig, monkeypatch: pytest.MonkeyPatch) -> SandboxConfig:
    fixed = deterministic_sandbox(sandbox_config, monkeypatch)  # numbered quote ids
    return replace(fixed, now=lambda: THANKSGIVING_EVE)


@pytest.fixture(autouse=True)
def the_day_before_thanksgiving(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.book.today", lambda: THANKSGIVING_EVE.date())


def flat(text: str) -> str:
    return " ".join(text.split())


async def _to_the_form(pilot: Pilot[Any]) -> BookScreen:
    """Rates for Fri 2026-11-27 (the day after Thanksgiving), the cheapest LTL rate's form."""
    request = ltl_request().model_copy(update={"pickup_date": date(2026, 11, 27)})
    rates = await open_rates(pilot, request)
    await choose_rate(pilot, rates, "ltl")
    book = pilot.app.screen
    assert isinstance(book, BookScreen)
    book.query_one("#pickup-date", Input).value = "2026-11-27"
    await pilot.pause()
    return book


async def _booked(pilot: Pilot[Any]) -> None:
    await _to_the_form(pilot)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, BookConfirmScreen), what="confirm")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="the result")
    pilot.app.screen.query_one("#result-folder", Input).value = "~/Downloads/freight"
    await wait_for(pilot, lambda: "~/Downloads" in screen_text(pilot.app), what="the folder")


async def test_a_pickup_the_service_moves_off_the_holiday_weekend_shows_where_it_went(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _to_the_form(pilot)
        assert "the day after Thanksgiving: many carriers are closed" in flat(screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, BookConfirmScreen), what="confirm")
        confirm = flat(screen_text(app))
        assert "Pickup Fri 2026-11-27 08:00–16:00" in confirm
        assert "⚠ the day after Thanksgiving: many carriers close" in confirm
        await pilot.press("enter")
        await settle(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the result")
        shown = flat(screen_text(app))
        assert "Pickup Mon 2026-11-30" in shown
        assert "moved from Fri 11-27" in shown
        assert (
            "2026-11-27 is the day after Thanksgiving: pickup moved to the next business day, "
            "2026-11-30" in shown
        )
    [record] = ui_session.ledger().bookings()
    assert record.outcome == "booked"
    assert record.pickup_date == "2026-11-30"
    assert record.pickup_note is not None
    assert "day after Thanksgiving" in record.pickup_note


def test_the_moved_pickup_result_snapshot(
    ui_session: Session, snap_compare: Callable[..., bool]
) -> None:
    assert snap_compare(make_app(ui_session), terminal_size=(80, 24), run_before=_booked)
