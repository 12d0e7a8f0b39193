"""SVG snapshots of the quote screen, filled the same way every run, at 80x24 and 120x40."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.test_quote import fill_row, offline_session, type_text
from tests.ui.test_quote_fields import FRIDAY_AFTERNOON, PLACES
from tui.app import make_app
from tui.forms import zip_places


@pytest.fixture(autouse=True)
def fixed_world(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The same day and the same known ZIPs every run."""
    monkeypatch.setattr("tui.screens.quote.now", lambda: FRIDAY_AFTERNOON)
    zip_places.use_index(dict(PLACES))
    yield
    zip_places.use_index(None)


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


async def _details(pilot: Pilot[Any]) -> None:
    """A hazardous drum, its details dialog open with a wrong class."""
    await pilot.pause()
    await type_text(pilot, "30303")
    await pilot.press("tab", "tab", "tab")
    await fill_row(pilot, "1", "drum", "400", "24", "24", "36", "", "Paint")
    await pilot.press("ctrl+l", "l", "a", "enter", "ctrl+o")
    await type_text(pilot, "149980")
    await pilot.press("tab", "tab", "space", "tab")
    await type_text(pilot, "UN1263")
    await pilot.press("tab")
    await type_text(pilot, "3.1")
    await pilot.press("tab")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_quote_screen_snapshot(snap_compare: Callable[..., bool], size: tuple[int, int]) -> None:
    assert snap_compare(make_app(offline_session()), terminal_size=size, run_before=_fill)


def test_item_details_snapshot(snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(make_app(offline_session()), terminal_size=(80, 24), run_before=_details)
