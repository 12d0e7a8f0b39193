"""UI fixtures: a session on the real sandbox (ASGI transport); the 2,000-shipment sandbox."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from tests.textual_probes import wait_for_screen
from tests.ui.test_shipments_support import seeded_sandbox
from tui.demo import DEMO_TOKEN
from tui.key_filter import KeyFilter
from tui.sandbox.app import SandboxApp
from tui.session import Session


@pytest.fixture(autouse=True)
def true_colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal with true colour, as snapshots are drawn: the status and header colours are
    the theme's there (a 16-colour terminal gets the ANSI ones; a test asks for it)."""
    monkeypatch.setenv("COLORTERM", "truecolor")


@pytest.fixture
def viewer_in_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The viewer's clock in UTC, as the pictures were drawn: times are shown in local time,
    so a run in another zone (a moved-clock run at UTC+14) would draw other hours and days."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(autouse=True)
def snapshots_in_utc(request: pytest.FixtureRequest) -> None:
    """Every snapshot is drawn with the viewer in UTC (see `viewer_in_utc`)."""
    if "snap_compare" in request.fixturenames:
        request.getfixturevalue("viewer_in_utc")


@pytest.fixture
def ui_session(sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str) -> Session:
    """A DEMO session whose client talks to a fresh sandbox through httpx's ASGI transport."""
    return Session.for_testing(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxApp]:
    """A sandbox on a private copy of the 2,000-shipment database (the shipments tests)."""
    app = seeded_sandbox(tmp_path)
    yield app
    app.close()


@pytest.fixture(autouse=True)
def keys_as_a_person_types(monkeypatch: pytest.MonkeyPatch) -> None:
    """`pilot.press` types like a person: one key at a time, each handed on before the next.

    On screens that open scans the app holds a printable key for a moment (tui.key_filter)
    until it knows the key is no scanner's; a person's next key comes later than that. Tests
    of scanning send their bursts with `tests.ui.scanning.scan`.
    """
    press = Pilot.press

    async def press_one_by_one(self: Pilot[Any], *keys: str) -> None:
        app = self.app
        for key in keys:
            released = app.keys_released if isinstance(app, KeyFilter) else 0
            await press(self, key)
            if not isinstance(app, KeyFilter):
                continue
            while app.holding_keys:
                await self.pause(0.01)
            if app.keys_released != released:
                await self.pause()  # as press does once the key is in
                await wait_for_screen(self)
                await self.pause()

    monkeypatch.setattr(Pilot, "press", press_one_by_one)
