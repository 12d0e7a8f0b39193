"""SVG snapshots of the Batch screen at 80x24 and 120x40: the warehouse export rated on a
sandbox with a fixed clock, the column review, and one order's rates."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from tests.batch.conftest import WMS_EXPORT
from tests.ui.screen import settle, wait_for
from tests.ui.test_batch import NOON_MONDAY, open_file, rate
from tui.app import make_app
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import batch as batch_screen
from tui.screens.batch import BatchScreen
from tui.screens.batch_mapping import BatchMappingScreen
from tui.screens.batch_order import BatchOrderScreen
from tui.session import Session

SIZES = [(80, 24), (120, 40)]


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


@pytest.fixture
def session(sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setattr(batch_screen, "now", lambda: NOON_MONDAY)
    return Session.for_testing(
        "http://sandbox.test", DEMO_TOKEN, transport=httpx.ASGITransport(app=sandbox)
    )


@pytest.fixture
def wms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The export in the working folder, typed as its name: the same screen on every run."""
    (tmp_path / "wms-export.csv").write_bytes(WMS_EXPORT.read_bytes())
    monkeypatch.chdir(tmp_path)
    return Path("wms-export.csv")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_batch_rated_snapshot(
    snap_compare: Callable[..., bool], session: Session, wms: Path, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        screen.table.move_cursor_to_key("SO-104212")  # an invalid order: its reason below
        await settle(pilot)

    assert snap_compare(make_app(session), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_batch_columns_snapshot(
    snap_compare: Callable[..., bool], session: Session, wms: Path, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        await pilot.press("alt+4")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchScreen))
        screen = app.screen
        assert isinstance(screen, BatchScreen)
        screen.path_input.focus()
        await pilot.press(*str(wms), "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchMappingScreen))
        await settle(pilot)

    assert snap_compare(make_app(session), terminal_size=size, run_before=run_before)


def test_batch_order_snapshot(
    snap_compare: Callable[..., bool], session: Session, wms: Path
) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        screen.table.move_cursor_to_key("SO-104201")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, BatchOrderScreen))
        await settle(pilot)

    assert snap_compare(make_app(session), terminal_size=(80, 24), run_before=run_before)
