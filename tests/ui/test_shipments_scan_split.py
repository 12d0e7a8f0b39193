"""A scan with no scanner prefix split in two by one late key (a busy machine): the keys
35 ms apart, one of them 300 ms late. Every character reaches the search field, in order,
as text: the joined text is what the scanner sent, so its Enter opens the shipment; no key
of it runs the list's bindings (`s` sorts, `e` exports, `a` auto-refreshes, `p` prints).

The orders a loaded machine gives them in:
- `queued`: the late key is read before the reader's quiet timer has run (every key posted
  before the app reads one);
- `timed`: after it (the keys before the gap were let go as text first);
- `stalled`: the app stopped reading for the gap, so the keys typed meanwhile are read at
  once, as fast as a scanner's: the tail is no scan of its own (`a79z45qg6` is no code)."""

from __future__ import annotations

from time import monotonic
from typing import Any

import httpx
import pytest
from textual import events
from textual.widgets import Input

from tests.ui.scanning import key_for
from tests.ui.screen import wait_for
from tests.ui.test_shipments_scan import deep_listing, detail_opened
from tests.ui.test_shipments_support import app_on, open_shipments, shipments_screen
from tui.sandbox.app import SandboxApp
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen
from tui.screens.shipments_export import ExportDialog

pytestmark = pytest.mark.slow  # seven scans on the list per order, about 40 s each

PACE = 0.035
"""Seconds between a slowed scanner's keys: too slow for a scan, too fast for a person."""
LATE = 0.300
"""Seconds the one late key comes after the key before it: past the reader's burst gap."""
LATE_AT = (2, 3, 4, 7, 11, -1, 0)
"""Where the late key is: the index of the first key after the gap (-1: the code's last
character; 0: the Enter)."""


def split_keys(code: str, late_at: int, start: float, *, stalled: bool) -> list[events.Key]:
    """The code's keys and Enter, `PACE` apart by arrival from `start`, the one at `late_at`
    `LATE` after the key before it; `stalled`: every key from there on read at once."""
    keys = [key_for(character) for character in code]
    keys.append(events.Key("enter", "\r"))
    at = late_at % len(keys) if late_at < 0 else late_at or len(keys) - 1
    for index, key in enumerate(keys):
        key.time = start + index * PACE
        if index >= at:
            key.time = start + (at - 1) * PACE + LATE
            key.time += (index - at) * (0.001 if stalled else PACE)
    return keys


async def send_split(pilot: Any, keys: list[events.Key], late_at: int, *, timed: bool) -> None:
    """Post the keys; `timed`: the ones after the gap once the reader let the others go."""
    app = pilot.app
    at = late_at % len(keys) if late_at < 0 else late_at or len(keys) - 1
    for key in keys[:at]:
        app.post_message(key)
    if timed:
        await wait_for(pilot, lambda: not app.holding_keys, what="the head let go")
        behind = max(0.0, monotonic() - keys[at].time)
        for key in keys[at:]:  # still `LATE` or more after the head's last key
            key.time += behind
    for key in keys[at:]:
        app.post_message(key)


@pytest.mark.parametrize("order", ["queued", "timed", "stalled"])
async def test_a_scan_split_by_a_late_key_loses_nothing_and_opens_its_shipment(
    sandbox: SandboxApp, order: str
) -> None:
    entry = await deep_listing(sandbox)
    code = entry["id"]
    assert code.startswith("shp_")  # `s` sorts, `p` prints: a key of it run would show
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        search = screen.query_one("#search-input", Input)
        sort = (table.sort_column, table.sort_reverse)
        for late_at in LATE_AT:
            keys = split_keys(code, late_at, monotonic(), stalled=order == "stalled")
            await send_split(pilot, keys, late_at, timed=order == "timed")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, ShipmentDetailScreen) or search.value == code,
                what=f"the whole code ({late_at}): {search.value!r}",
            )
            await detail_opened(pilot, app, entry["id"])
            assert (table.sort_column, table.sort_reverse) == sort, late_at  # no `s` ran
            assert not screen.auto.running, late_at  # no `a` ran
            assert not any(isinstance(s, ExportDialog) for s in app.screen_stack)  # no `e`
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen))
            await wait_for(pilot, lambda: search.value == "", what="the search cleared")
            assert screen.focused is table
