"""SVG snapshots of the booking form and its confirmation at 80x24 and 120x40."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.booking_flow import choose_rate, deterministic_sandbox, ltl_request, open_rates
from tui.app import make_app
from tui.sandbox import SandboxConfig
from tui.session import Session

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig, monkeypatch: pytest.MonkeyPatch) -> SandboxConfig:
    return deterministic_sandbox(sandbox_config, monkeypatch)


async def _book(pilot: Pilot[Any]) -> None:
    rates = await open_rates(pilot)
    await choose_rate(pilot, rates, "ltl")
    await pilot.pause()


async def _book_with_an_error(pilot: Pilot[Any]) -> None:
    await _book(pilot)
    await pilot.press("tab", "tab", "tab")
    await pilot.press("ctrl+u", *"312-555")
    await pilot.pause()


async def _confirm(pilot: Pilot[Any]) -> None:
    """The quote's Ref and PO go to the booking: `yours S-1 · delivery PO PO-77`."""
    quoted = ltl_request().model_copy(
        update={"origin_reference_number": "S-1", "dest_reference_number": "PO-77"}
    )
    rates = await open_rates(pilot, quoted)
    await choose_rate(pilot, rates, "ltl")
    await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.pause()


@SIZES
def test_book_snapshot(
    ui_session: Session, snap_compare: Callable[..., bool], size: tuple[int, int]
) -> None:
    assert snap_compare(make_app(ui_session), terminal_size=size, run_before=_book)


def test_book_invalid_phone_snapshot(
    ui_session: Session, snap_compare: Callable[..., bool]
) -> None:
    assert snap_compare(
        make_app(ui_session), terminal_size=(80, 24), run_before=_book_with_an_error
    )


@SIZES
def test_confirm_snapshot(
    ui_session: Session, snap_compare: Callable[..., bool], size: tuple[int, int]
) -> None:
    assert snap_compare(make_app(ui_session), terminal_size=size, run_before=_confirm)


def test_confirm_production_snapshot(
    sandbox_transport: Any, sandbox_base_url: str, snap_compare: Callable[..., bool]
) -> None:
    session = Session.for_testing(
        sandbox_base_url, "demo.demo-secret", transport=sandbox_transport, environment="PRODUCTION"
    )
    assert snap_compare(make_app(session), terminal_size=(80, 24), run_before=_confirm)
