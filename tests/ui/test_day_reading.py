"""→ to a day not read yet moves at once: the heading names the day and says reading… while
the store is read in the background, and its rows fill in when the read is done."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

import httpx
import pytest

from tests.benchmarks.bench_day_keys import fill_day
from tests.ui.screen import screen_text, wait_for
from tui.app import make_app
from tui.day import facts
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import day as day_screen
from tui.screens.day import DayScreen
from tui.session import Session

NOON_MONDAY = datetime(2026, 11, 23, 17, 0, tzinfo=UTC)
TUESDAY = date(2026, 11, 24)
WEDNESDAY = date(2026, 11, 25)


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=0))
    yield app
    app.close()


async def test_a_day_not_read_yet_says_reading_until_its_rows_come(
    sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(day_screen, "today", lambda: TUESDAY)
    session = Session.for_testing(
        "http://sandbox.test", DEMO_TOKEN, transport=httpx.ASGITransport(app=sandbox)
    )
    fill_day(session.data_dir, session.ledger().environment, TUESDAY, 2, 0)
    fill_day(session.data_dir, session.ledger().environment, WEDNESDAY, 3, 10)
    gate = threading.Event()
    gate.set()
    read = facts.read_stored

    def slow(*args: Any) -> facts.StoredDay:
        assert gate.wait(120), "the store's read was never let through"
        return read(*args)

    monkeypatch.setattr(facts, "read_stored", slow)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+5")
        await wait_for(pilot, lambda: isinstance(app.screen, DayScreen), what="the day screen")
        screen = app.screen
        assert isinstance(screen, DayScreen)
        await wait_for(pilot, lambda: screen.facts_state == "known", what="the service")
        await wait_for(pilot, lambda: not screen.workers, what="the days around read")
        screen._read_before.clear()  # Wednesday not read ahead: the store must be read
        gate.clear()  # the store is slow
        await pilot.press("right")
        await wait_for(
            pilot,
            lambda: "Pickups Wed 2026-11-25 · reading…" in screen_text(app),
            what="the heading at once",
        )
        assert "3410000000" not in screen_text(app)  # Tuesday's rows are gone
        gate.set()
        await wait_for(
            pilot,
            lambda: "Pickups Wed 2026-11-25 · 3 shipments" in screen_text(app),
            what="the rows",
        )
        assert "3410000010" in screen_text(app)
        assert "reading…" not in screen_text(app)
