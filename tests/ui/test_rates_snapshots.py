"""SVG snapshots of the rates screen at 80x24 and 120x40 (fixed sandbox clock and quote ids)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.booking_flow import deterministic_sandbox, ltl_request, open_rates
from tests.ui.screen import screen_text
from tui.api.models import RateRequest
from tui.app import make_app
from tui.domain.locations import LocationType
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


def crowded_request() -> RateRequest:
    """A residential delivery with four more accessorials: eight charges on every offer."""
    return ltl_request().model_copy(
        update={
            "dest_type": LocationType.RESIDENTIAL,
            "charges": [
                "liftgate delivery",
                "arrival schedule",
                "arrival notice",
                "inside delivery",
            ],
        }
    )


async def _crowded(pilot: Pilot[Any]) -> None:
    await open_rates(pilot, crowded_request())


def test_rates_crowded_snapshot(ui_session: Session, snap_compare: Callable[..., bool]) -> None:
    """80x24 with eight charges and four carriers not offering: the total, four offers and the
    reasons (whole, wrapped) all in view."""
    assert snap_compare(make_app(ui_session), terminal_size=(80, 24), run_before=_crowded)


async def test_at_80x24_the_total_three_offers_and_whole_reasons_are_in_view(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot, crowded_request())
        assert screen.quote is not None
        offered = sorted((r for r in screen.quote.rates if r.is_ok), key=lambda r: r.total)
        cheapest = offered[0]
        assert len(cheapest.charges) >= 8
        text = screen_text(app)
        assert f"Total {cheapest.total:,.2f}" in " ".join(text.split())
        assert sum(f"{rate.total:,.2f}" in text for rate in offered[:3]) == 3
        more = next(line for line in text.splitlines() if " more: " in line)
        folded = sum((c.amount for c in cheapest.charges[-2:]), Decimal(0))
        assert f"{folded:,.2f}" in more  # the folded charges' sum: the lines still add up
        assert "…" not in text
        assert "Liftgate at delivery (residential)" in text  # the reason is the end's type
