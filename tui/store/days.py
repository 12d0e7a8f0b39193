"""A pickup day's closes (``freight day close``): who closed it, when, what was printed.

A day may be closed again (after a reprint, say); the latest close is the one bookings sent
after it are late additions to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime

from tui.store.core import Store, now_text, parse_time


@dataclass(frozen=True)
class DayClose:
    """One close of a pickup day."""

    day: date
    station: str
    closed_at: datetime
    printed: tuple[str, ...]


def close_day(
    store: Store,
    day: date,
    environment: str,
    station: str,
    printed: tuple[str, ...] = (),
    moment: datetime | None = None,
) -> DayClose:
    """Record a close of ``day`` now (or at ``moment``, aware) and return it."""
    when = now_text(moment)
    with store.engine.write() as tx:
        tx.run(
            "INSERT INTO day_closes (day, environment, station, closed_at, printed)"
            " VALUES (?, ?, ?, ?, ?)",
            (day.isoformat(), environment, station, when, json.dumps(list(printed))),
        )
    return DayClose(day, station, parse_time(when, "day_closes.closed_at"), printed)


def last_close(store: Store, day: date, environment: str) -> DayClose | None:
    """The latest close of ``day`` in an environment, if it was closed."""
    rows = store.engine.read(
        "SELECT station, closed_at, printed FROM day_closes WHERE day = ? AND environment = ?"
        " ORDER BY closed_at DESC, id DESC",
        (day.isoformat(), environment),
    )
    if not rows:
        return None
    station, closed_at, printed = rows[0]
    try:
        kinds = json.loads(printed)
    except ValueError:
        kinds = []
    shown = tuple(str(kind) for kind in kinds) if isinstance(kinds, list) else ()
    return DayClose(day, str(station), parse_time(closed_at, "day_closes.closed_at"), shown)
