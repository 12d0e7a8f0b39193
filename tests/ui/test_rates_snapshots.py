"""SVG snapshots of the rates screen at 80x24 and 120x40 (fixed sandbox clock and quote ids)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.booking_flow import deterministic_sandbox, open_rates
from tui.app import make_app
from tui.sandbox import SandboxConfig
from tui.session import Session


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig, monkeypatch: pytest.MonkeyPatch) -> SandboxConfig:
    return deterministic_sandbox(sandbox_config, monkeypatch)


async def _rates(pilot: Pilot[Any]) -> None:
    await open_rates(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_rates_snapshot(
    ui_session: Session, snap_compare: Callable[..., bool], size: tuple[int, int]
) -> None:
    assert snap_compare(make_app(ui_session), terminal_size=size, run_before=_rates)
