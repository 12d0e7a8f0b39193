"""The demo's day is one day to the app and to ``freight day --demo``: a close made in either
is seen by the other, and both show only the demo's bookings (not another environment's or
account's kept in the same store)."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import logging
import sys
from collections.abc import Iterator
from datetime import UTC, date, datetime

import httpx
import pytest

from tests.benchmarks.bench_day_keys import fill_day
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import make_app
from tui.cli import main
from tui.config.paths import data_dir
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import day as day_screen
from tui.screens.day import DayScreen
from tui.screens.day_dialogs import CarrierClose
from tui.session import Session
from tui.store import ledger_environment

NOON_MONDAY = datetime(2026, 11, 23, 17, 0, tzinfo=UTC)
TUESDAY = date(2026, 11, 24)


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=0))
    yield app
    app.close()


async def freight(*args: str) -> tuple[int, str]:
    """``freight *args`` (in a thread: it runs its own loop): its exit status and output."""
    out, err = io.StringIO(), io.StringIO()
    kept = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        status = await asyncio.to_thread(main, list(args))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    finally:
        sys.stdout, sys.stderr = kept
        from tui import logsetup

        logsetup.remove()
        logging.getLogger().setLevel(logging.WARNING)
    return status, out.getvalue() if status == 0 else err.getvalue()


async def test_a_close_made_in_the_app_and_one_made_by_the_command_are_one_days(
    sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = ledger_environment("demo", "sandbox")
    assert demo == "demo"  # the demo's name, whichever profile word the caller had
    fill_day(data_dir(), demo, TUESDAY, 3, 0)  # the demo's
    fill_day(data_dir(), "sandbox", TUESDAY, 2, 100)  # the same store, another environment
    fill_day(data_dir(), demo, TUESDAY, 2, 200, account="acme")  # another account

    def station(name: str) -> None:
        monkeypatch.setenv("FREIGHT_STATION", name)
        monkeypatch.setattr(day_screen, "today", lambda: TUESDAY)

    station("desk-cli")
    status, said = await freight("day", "close", "--demo", "--date", TUESDAY.isoformat())
    assert status == 0, said
    assert "closed by desk-cli" in said

    station("desk-app")
    session = Session.for_testing(
        "http://sandbox.test", DEMO_TOKEN, transport=httpx.ASGITransport(app=sandbox)
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+5")
        await wait_for(pilot, lambda: isinstance(app.screen, DayScreen), what="the day screen")
        screen = app.screen
        assert isinstance(screen, DayScreen)
        await wait_for(pilot, lambda: screen.facts_state == "known", what="the service")
        await settle(pilot)
        text = screen_text(app)
        assert "Pickups Tue 2026-11-24 · 3 shipments" in text  # the demo's only
        assert "by desk-cli" in text  # the command's close
        assert "3410000100" not in text  # the sandbox environment's booking
        assert "3410000200" not in text  # another account's
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CarrierClose), what="confirm")
        await pilot.press("a")  # every carrier: the whole day
        await wait_for(pilot, lambda: "by desk-app" in screen_text(app), what="the app's close")

    station("desk-cli")
    status, said = await freight("day", "--demo", "--date", TUESDAY.isoformat(), "--format", "json")
    assert status == 0, said
    listed = json.loads(said)
    assert sorted(s["proNumber"] for s in listed) == [f"{3410000000 + n}" for n in range(3)]
    status, said = await freight("day", "--demo", "--date", TUESDAY.isoformat())
    assert status == 0, said
    assert "closed by desk-app" in said  # the app's close, seen by the command
