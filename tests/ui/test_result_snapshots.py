"""SVG snapshots of the result screen (LTL and parcel) at 80x24 and 120x40."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.booking_flow import book_to_result, deterministic_sandbox, parcel_request
from tests.ui.screen import screen_text, wait_for
from tui.app import make_app
from tui.sandbox import SandboxConfig
from tui.session import Session

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
FOLDER = "~/Downloads/freight"
"""Typed into the folder field so the picture does not show the test's temp directory."""


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig, monkeypatch: pytest.MonkeyPatch) -> SandboxConfig:
    return deterministic_sandbox(sandbox_config, monkeypatch)


async def _on_result(pilot: Pilot[Any]) -> None:
    """Wait for the result screen itself (a busy machine books more slowly than `settle`)."""
    from tui.screens.result import ResultScreen

    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ResultScreen), what="result")


async def _fixed_folder(pilot: Pilot[Any]) -> None:
    pilot.app.screen.query_one("#result-folder", Input).value = FOLDER
    await wait_for(pilot, lambda: FOLDER in screen_text(pilot.app), what="the folder")


async def _ltl(pilot: Pilot[Any]) -> None:
    await book_to_result(pilot)
    await _on_result(pilot)
    await pilot.press("1")
    await wait_for(pilot, lambda: "Copied PRO" in screen_text(pilot.app), what="the copy")
    await _fixed_folder(pilot)


async def _parcel(pilot: Pilot[Any]) -> None:
    await book_to_result(pilot, parcel_request(), mode="parcel")
    await _on_result(pilot)
    await _fixed_folder(pilot)


@SIZES
def test_result_snapshot(
    ui_session: Session, snap_compare: Callable[..., bool], size: tuple[int, int]
) -> None:
    assert snap_compare(make_app(ui_session), terminal_size=size, run_before=_ltl)


def test_result_parcel_snapshot(ui_session: Session, snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(make_app(ui_session), terminal_size=(80, 24), run_before=_parcel)
