"""Moving between pickup days: business days only (no carrier picks up on the others)."""

from __future__ import annotations

from datetime import date, timedelta

from tui.domain.pickup_dates import is_business_day


def step_day(day: date, step: int) -> date:
    """The business day ``step`` (±1) from ``day``."""
    moved = day + timedelta(days=step)
    while not is_business_day(moved):
        moved += timedelta(days=step)
    return moved
