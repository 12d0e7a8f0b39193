"""``freight batch status FILE --watch``: each station's progress on a batch, read from the
store every few seconds (several stations may be booking it), until no order is left."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tui.batch.engine import Batch

_LEFT = ("rated", "booking")
"""Statuses of orders a booking run still has to do (unknown ones wait for a person)."""


def progress_line(batch: Batch, moment: datetime) -> str:
    """``10:27:40 · pack-1 12 booked · pack-2 9 booked, 1 booking · 21 of 40 booked``."""
    from tui.domain.safe_text import plain

    keys = [order.key for order in batch.orders]
    batch.reload(keys)
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
    """Print the progress line every ``every`` seconds (polling the store) until no order is
    left to book."""
    every = max(every, 0.2)
    print(file=out)
    while True:
        line = await asyncio.to_thread(progress_line, batch, datetime.now().astimezone())
        print(line, file=out, flush=True)
        if not left(batch):
            return
        await asyncio.sleep(every)
