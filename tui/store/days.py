"""A pickup day's closes (``freight day close``): who closed it, when, what was printed.

A close is the whole day's, or one carrier's (its driver came and took its manifest). A day
or a carrier may be closed again (after a reprint, say); a booking is a late addition when it
was sent after the latest close of the whole day or of its own carrier.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

from tui.store.core import Store, now_text, parse_time


@dataclass(frozen=True)
class DayClose:
    """One close of a pickup day: the whole day's (``carrier`` None) or one carrier's."""

    day: date
    station: str
    closed_at: datetime
    printed: tuple[str, ...]
    carrier: str | None = None


def carrier_key(name: str) -> str:
    """How a carrier's closes are looked up: its name, case left aside."""
    return name.strip().casefold()


@dataclass(frozen=True)
class DayCloses:
    """A day's latest closes: the whole day's, and each closed carrier's."""

    whole: DayClose | None = None
    carriers: Mapping[str, DayClose] = field(default_factory=dict)
    """``carrier_key(name)`` -> that carrier's latest close."""

    def of(self, carrier: str) -> DayClose | None:
        """``carrier``'s own latest close (not the whole day's)."""
        return self.carriers.get(carrier_key(carrier))

    def times(self) -> dict[str, datetime]:
        """Each closed carrier's latest close time, by ``carrier_key``."""
        return {key: close.closed_at for key, close in self.carriers.items()}


def close_day(
    store: Store,
    day: date,
    environment: str,
    station: str,
    printed: tuple[str, ...] = (),
    moment: datetime | None = None,
    carrier: str | None = None,
) -> DayClose:
    """Record a close of ``day`` (of ``carrier`` alone when one is named) now (or at
    ``moment``, aware) and return it."""
    when = now_text(moment)
    with store.engine.write() as tx:
        tx.run(
            "INSERT INTO day_closes (day, environment, station, closed_at, printed, carrier)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (day.isoformat(), environment, station, when, json.dumps(list(printed)), carrier),
        )
    return DayClose(day, station, parse_time(when, "day_closes.closed_at"), printed, carrier)


def _printed(text: object) -> tuple[str, ...]:
    try:
        kinds = json.loads(str(text))
    except ValueError:
        kinds = []
    return tuple(str(kind) for kind in kinds) if isinstance(kinds, list) else ()


def closes_of(store: Store, day: date, environment: str) -> DayCloses:
    """The latest close of ``day`` in an environment, and of each carrier closed on it."""
    rows = store.engine.read(
        "SELECT station, closed_at, printed, carrier FROM day_closes"
        " WHERE day = ? AND environment = ? ORDER BY closed_at DESC, id DESC",
        (day.isoformat(), environment),
    )
    whole: DayClose | None = None
    carriers: dict[str, DayClose] = {}
    for station, closed_at, printed, carrier in rows:
        name = str(carrier) if carrier is not None else None
        if (whole if name is None else carriers.get(carrier_key(name))) is not None:
            continue  # a later one is kept
        close = DayClose(
            day, str(station), parse_time(closed_at, "day_closes.closed_at"), _printed(printed),
            name,
        )  # fmt: skip
        if name is None:
            whole = close
        else:
            carriers[carrier_key(name)] = close
    return DayCloses(whole, carriers)


def last_close(store: Store, day: date, environment: str) -> DayClose | None:
    """The latest close of the whole ``day`` in an environment, if it was closed."""
    return closes_of(store, day, environment).whole
