"""SVG snapshots of the "Booking outcome unknown" dialog after a lost answer (80x24, 120x40)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from tests.ui.booking_flow import (
    CountingTransport,
    book_it,
    choose_rate,
    deterministic_sandbox,
    open_rates,
)
from tests.ui.screen import wait_for
from tui.app import make_app
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig
from tui.screens.book_check import BookingCheckScreen
from tui.session import Session


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig, monkeypatch: pytest.MonkeyPatch) -> SandboxConfig:
    monkeypatch.setattr("tui.booking.engine.new_reference", lambda: "FRTSNAP000001")
    return deterministic_sandbox(sandbox_config, monkeypatch)


async def _lost_answer(pilot: Pilot[Any]) -> None:
    rates = await open_rates(pilot)
    await choose_rate(pilot, rates, "ltl")
    await book_it(pilot)
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, BookingCheckScreen), what="dialog")
    dialog = app.screen
    assert isinstance(dialog, BookingCheckScreen)
    await wait_for(pilot, lambda: dialog.found is not None, what="search answered")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_outcome_unknown_snapshot(
    sandbox_transport: httpx.AsyncBaseTransport,
    sandbox_base_url: str,
    snap_compare: Callable[..., bool],
    size: tuple[int, int],
) -> None:
    transport = CountingTransport(sandbox_transport)
    transport.fail_after_forward["/book"] = httpx.ReadTimeout("timed out")
    session = Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=transport)
    assert snap_compare(make_app(session), terminal_size=size, run_before=_lost_answer)
