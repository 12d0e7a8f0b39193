"""``freight batch status FILE --watch``: each station's progress on a batch (several stations
may be booking it), until no order is left. On PostgreSQL the store notifies each change as it
is committed (LISTEN/NOTIFY): a line follows at once; the store is read every few seconds too,
and that polling is all there is on SQLite (or when the notifications' connection fails)."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from typing import TYPE_CHECKING, Final, TextIO

if TYPE_CHECKING:
    from tui.batch.engine import Batch

QUIET: Final = 0.2
"""At least this many seconds between two lines: bookings notify in bursts."""
_LEFT = ("rated", "booking")
"""Statuses of orders a booking run still has to do (unknown ones wait for a person)."""


def progress_line(batch: Batch, moment: datetime) -> str:
    """``10:27:40 · pack-1 12 booked · pack-2 9 booked, 1 booking · 21 of 40 booked``."""
    from tui.domain.safe_text import plain

    keys = [order.key for order in batch.orders]
    states = batch.store.orders(batch.info.id, keys)
    batch.states.update(states)
    parts = [moment.strftime("%H:%M:%S")]
    for station, counts in sorted(batch.store.stations(batch.info.id).items()):
        shown = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        parts.append(f"{plain(station, limit=40)} {shown}")
    booked = sum(1 for key in keys if batch.state(key).status == "booked")
    parts.append(f"{booked} of {len(keys)} booked")
    return " · ".join(parts)


def left(batch: Batch) -> int:
    """Orders of the file a booking run still has to do."""
    return sum(1 for order in batch.orders if batch.state(order.key).status in _LEFT)


async def watch(batch: Batch, every: float, out: TextIO) -> None:
    """Print the progress line as the batch changes (notified by PostgreSQL), and every
    ``every`` seconds (polling the store), until no order is left to book."""
    every = max(every, QUIET)
    # listening before the first read: no change committed after it is missed
    changes = await asyncio.to_thread(batch.store.listen, batch.info.id)
    try:
        print(file=out)
        while True:
            shown = time.monotonic()
            line = await asyncio.to_thread(progress_line, batch, datetime.now().astimezone())
            print(line, file=out, flush=True)
            if not left(batch):
                return
            if changes is None:
                await asyncio.sleep(every)
                continue
            await asyncio.to_thread(changes.wait, every)
            await asyncio.sleep(max(0.0, shown + QUIET - time.monotonic()))
    finally:
        if changes is not None:
            changes.close()
