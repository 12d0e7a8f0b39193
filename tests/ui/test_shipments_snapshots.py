"""SVG snapshots of the shipments list, a detail and the totals at 80x24 and 120x40.

The sandbox is seeded with a fixed seed and a fixed clock, so every run draws the same rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from tests.ui.screen import wait_for
from tests.ui.test_shipments_support import app_on, open_shipments
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments_summary import ShipmentsSummaryScreen

FIXED_NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
SIZES = [(80, 24), (120, 40)]


@pytest.fixture(scope="module")
def fixed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("snapshots") / "sandbox.sqlite3"
    create_app(SandboxConfig(db_path=path, shipments=2000, seed=7, now=lambda: FIXED_NOW)).close()
    return path


@pytest.fixture
def sandbox(fixed_db: Path, tmp_path: Path) -> Iterator[SandboxApp]:
    copy = tmp_path / "sandbox.sqlite3"
    copy.write_bytes(fixed_db.read_bytes())
    app = create_app(
        SandboxConfig(db_path=copy, shipments=2000, seed=7, now=lambda: FIXED_NOW, rate_limit=1e4)
    )
    yield app
    app.close()


async def _list(pilot: Pilot[Any]) -> None:
    await open_shipments(pilot, pilot.app)  # type: ignore[arg-type]
    await pilot.press("down", "down", "down")
    await pilot.pause()


async def _detail(pilot: Pilot[Any]) -> None:
    await _list(pilot)
    await pilot.press("enter")
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen))
    screen = app.screen
    assert isinstance(screen, ShipmentDetailScreen)
    await wait_for(pilot, lambda: screen.detail is not None)
    await pilot.pause(0.1)


async def _summary(pilot: Pilot[Any]) -> None:
    await _list(pilot)
    await pilot.press("G")
    await pilot.pause(0.3)
    await wait_for(pilot, lambda: not pilot.app.screen.is_loading)  # type: ignore[attr-defined]
    await pilot.press("t")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ShipmentsSummaryScreen))
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("view", ["list", "detail", "summary"])
def test_shipments_snapshot(
    snap_compare: Callable[..., bool], sandbox: SandboxApp, view: str, size: tuple[int, int]
) -> None:
    run_before = {"list": _list, "detail": _detail, "summary": _summary}[view]
    app = app_on(httpx.ASGITransport(app=sandbox))
    assert snap_compare(app, terminal_size=size, run_before=run_before)
