"""Following a batch other stations book: its changes as they are committed (PostgreSQL
notifies them: LISTEN/NOTIFY on ``freight_batch``), and a read of the store every few seconds
(the fallback, and all there is on SQLite). ``freight batch status --watch`` and the Batch
screen both follow a batch this way."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Final

from tui.domain.safe_text import plain

if TYPE_CHECKING:
    from tui.batch.engine import Batch
    from tui.batch.model import OrderState

QUIET: Final = 0.2
"""At least this many seconds between two looks: bookings notify in bursts."""


async def follow(batch: Batch, every: float, look: Callable[[], Awaitable[bool]]) -> None:
    """Call ``look`` now, at each change of the batch by any station (notified), and at least
    every ``every`` seconds, until it returns False."""
    every = max(every, QUIET)
    # listening before the first look: no change committed after it is missed
    changes = await asyncio.to_thread(batch.store.listen, batch.info.id)
    try:
        while True:
            looked = time.monotonic()
            if not await look():
                return
            if changes is None:
                await asyncio.sleep(every)
                continue
            await asyncio.to_thread(changes.wait, every)
            await asyncio.sleep(max(0.0, looked + QUIET - time.monotonic()))
    finally:
        if changes is not None:
            changes.close()


def stations_text(stations: Mapping[str, Mapping[str, int]]) -> str:
    """``pack-1 12 booked · pack-2 9 booked, 1 booking`` (station names as plain text)."""

    parts = []
    for station, counts in sorted(stations.items()):
        shown = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        parts.append(f"{plain(station, limit=40)} {shown}")
    return " · ".join(parts)


def others_changes(
    batch: Batch, seen: dict[str, str]
) -> tuple[dict[str, dict[str, int]], list[OrderState]]:
    """Each station's counts, and the orders others changed since this process last knew
    them (their new states, to show): at the first look those whose status differs from
    this process's, then those changed since (``seen`` keeps when each last changed); and
    the orders this process knows owing paperwork that another process has saved since
    (one fetching the paperwork of an order this station booked: the order stays this
    station's). Reads the store: run it in a worker thread."""
    store, batch_id = batch.store, batch.info.id
    stations = store.stations(batch_id)
    known, first = batch.states, not seen
    owing = [state.key for state in list(known.values()) if state.owes_paperwork]
    changed = [
        state
        for state in batch.read_states(owing).values()
        if state.status == "booked" and not state.owes_paperwork
    ]
    if not any(name != store.station for name in stations):
        return stations, changed
    moved = []
    for key, (status, updated) in store.statuses(batch_id, besides=store.station).items():
        if key not in known:
            continue
        if (known[key].status != status) if first else (seen.get(key) != updated):
            moved.append(key)
        seen[key] = updated
    paid = {state.key for state in changed}
    moved = [key for key in moved if key not in paid]
    return stations, changed + (list(store.orders(batch_id, moved).values()) if moved else [])
