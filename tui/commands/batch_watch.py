"""``freight batch status FILE --watch``: each station's progress on a batch (several stations
may be rating and booking it), and the orders being booked elsewhere, while an order is left
to rate or book: a line as soon as a station's change is committed (PostgreSQL notifies it),
and every few seconds (the only way on SQLite); see ``tui.batch.follow``."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING, Final, TextIO

from tui.batch.follow import follow, stations_text
from tui.domain.safe_text import plain

if TYPE_CHECKING:
    from tui.batch.engine import Batch

_LEFT = ("pending", "rated", "booking")
"""Statuses of orders still to rate or book (another station may be rating them first;
unknown and failed ones wait for a person)."""
NAMED: Final = 3
"""Orders being booked elsewhere a progress line names (the others counted)."""


def progress_line(batch: Batch, moment: datetime) -> str:
    """``10:27:40 · pack-1 12 booked · pack-2 9 booked, 1 booking · booking elsewhere:
    SO-12 · 21 of 40 booked``."""

    keys = [order.key for order in batch.orders]
    batch.reload(keys)
    parts = [moment.strftime("%H:%M:%S")]
    stations = stations_text(batch.store.stations(batch.info.id))
    if stations:
        parts.append(stations)
    elsewhere = _booking_elsewhere(batch)
    if elsewhere:
        named = ", ".join(plain(key, limit=40) for key in elsewhere[:NAMED])
        more = f" (+{len(elsewhere) - NAMED})" if len(elsewhere) > NAMED else ""
        parts.append(f"booking elsewhere: {named}{more}")
    booked = sum(1 for key in keys if batch.state(key).status == "booked")
    parts.append(f"{booked} of {len(keys)} booked")
    return " · ".join(parts)


def _booking_elsewhere(batch: Batch) -> list[str]:
    """The orders of the file another station is booking now, in the file's order."""
    others = batch.store.statuses(batch.info.id, besides=batch.store.station)
    return [
        order.key
        for order in batch.orders
        if order.key in others and others[order.key][0] == "booking"
    ]


def left(batch: Batch) -> int:
    """Orders of the file a booking run still has to do."""
    return sum(1 for order in batch.orders if batch.state(order.key).status in _LEFT)


async def watch(batch: Batch, every: float, out: TextIO) -> None:
    """Print the progress line now, as the batch changes, and every ``every`` seconds, until
    no order is left to rate or book."""

    print(file=out)

    async def look() -> bool:
        line = await asyncio.to_thread(progress_line, batch, datetime.now().astimezone())
        print(line, file=out, flush=True)
        return left(batch) > 0

    await follow(batch, every, look)
