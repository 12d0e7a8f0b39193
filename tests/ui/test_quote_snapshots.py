"""SVG snapshots of the quote screen, filled the same way every run, at 80x24 and 120x40."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.test_quote import fill_row, offline_session, type_text
from tui.app import make_app


async def _fill(pilot: Pilot[Any]) -> None:
    """Three rows: implied class, overridden class, and one wrong weight (shown in red)."""
    await pilot.pause()
    await type_text(pilot, "30303")
    await pilot.press("tab", "tab", "tab")
    await fill_row(pilot, "2", "pallet", "800", "48", "40", "48", "", "Machine parts")
    await pilot.press("enter")
    await fill_row(pilot, "1", "crate", "350", "40", "30", "36", "100", "Spare motor")
    await pilot.press("enter")
    await fill_row(pilot, "4", "box", "4O", "24", "16", "12")
    await pilot.press("tab")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_quote_screen_snapshot(snap_compare: Callable[..., bool], size: tuple[int, int]) -> None:
    assert snap_compare(make_app(offline_session()), terminal_size=size, run_before=_fill)
