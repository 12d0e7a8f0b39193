"""Where a batch's state is kept as it goes, so a kill -9 or a dropped SSH session loses nothing.

``BatchStore`` is the small interface the engine needs; ``SharedBatchStore`` keeps it in the
one store (``tui.store``: SQLite in the data dir, or a PostgreSQL database several stations
share). A batch is named by its profile and its source (the order file's full path), so
reading the file again after fixing it finds the orders already rated or booked. Several
stations may work on one batch at once: each claims orders under a lease (``claim``).
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tui.batch.model import BOOKED_OR_MAYBE, OrderState, to_rate_statuses
from tui.store import open_store, station_name
from tui.store.core import holder as this_process

if TYPE_CHECKING:
    from tui.store import Store
    from tui.store.engine import Listener


@dataclass(frozen=True)
class BatchInfo:
    """One batch: whose, from which file, when, and the settings it was run with."""

    id: int
    profile: str
    source: str
    created: datetime
    updated: datetime
    settings: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    """Orders by status."""

    @property
    def unfinished(self) -> bool:
        """Orders rated and not booked, or a booking not settled: worth offering to resume."""
        return any(self.counts.get(s, 0) for s in ("rated", "booking", "unknown", "failed"))


class BatchStore(Protocol):
    """What the batch engine asks of the place its state is kept."""

    station: str
    """This process's station name (shown with its claims and bookings)."""

    @property
    def fresh(self) -> bool:
        """The store was made by this process (new, or lost and made again): what it does
        not know may still have been booked."""
        ...

    def open(self, profile: str, source: str) -> BatchInfo:
        """The batch of this profile and source, made when there is none."""
        ...

    def batches(self, profile: str | None = None) -> list[BatchInfo]:
        """Every batch (of one profile), the latest first."""
        ...

    def orders(self, batch_id: int, keys: Collection[str] | None = None) -> dict[str, OrderState]:
        """Each order's state by its key (of ``keys``, when given)."""
        ...

    def keys(self, batch_id: int) -> list[str]:
        """The keys of the orders kept for the batch (their states not read)."""
        ...

    def save(self, batch_id: int, states: Iterable[OrderState]) -> list[str]:
        """Keep these states (durably, before returning), none over another station's: an
        order this station last saw in another status than the store keeps now is not
        written. The keys of those (read them again: their truth is the store's)."""
        ...

    def set_settings(self, batch_id: int, settings: dict[str, Any]) -> None:
        """Keep the settings the batch runs with (mapping, rules)."""
        ...

    def booked_elsewhere(self, profile: str, key: str, batch_id: int) -> list[BatchInfo]:
        """Other batches of the profile where an order of this key is (or may be) booked."""
        ...

    def booked_in_others(
        self, profile: str, batch_id: int, keys: Collection[str]
    ) -> dict[str, tuple[OrderState, str]]:
        """Of ``keys``, the orders booked in another batch of the profile: each one's state
        there and that batch's source."""
        ...

    def claim(self, batch_id: int, keys: Sequence[str], *, booked: bool = False) -> list[str]:
        """Of ``keys``, the orders this station now holds under a lease (none another live
        station holds; none booked already, unless ``booked``: to fetch owed paperwork)."""
        ...

    def claim_to_rate(self, batch_id: int, keys: Sequence[str], rerate: bool) -> list[str]:
        """Of ``keys``, the orders this station now holds under a lease to rate: those a
        rating run asks for (``to_rate_statuses``) no other live station holds."""
        ...

    def renew(self, batch_id: int) -> None:
        """Keep this station's claims on the batch for another lease."""
        ...

    def release(self, batch_id: int, keys: Sequence[str] | None = None) -> None:
        """Let go of this station's claims on the batch (of ``keys``)."""
        ...

    def stations(self, batch_id: int) -> dict[str, dict[str, int]]:
        """Per station, the orders of the batch it claimed or booked, by status."""
        ...

    def statuses(self, batch_id: int, *, besides: str | None = None) -> dict[str, tuple[str, str]]:
        """Each order's status and when it last changed, of the orders a station (other than
        ``besides``) claimed or booked."""
        ...

    def listen(self, batch_id: int) -> Listener | None:
        """The batch's changes by any station as they happen (None: poll ``orders``)."""
        ...

    def close(self) -> None:
        """Let go of the store."""
        ...


class SharedBatchStore:
    """``BatchStore`` in the one store (``tui.store``)."""

    def __init__(
        self,
        store: Store,
        station: str | None = None,
        holder: str | None = None,
        *,
        owned: bool = True,
    ) -> None:

        self.store = store
        self._owned = owned
        """``close`` lets go of the store (False: its owner, the session, does)."""
        self.station = station or station_name()
        self.holder = holder or this_process()
        """Who holds a claim: this process (host and pid), which may die without a word."""
        self._seen: dict[int, dict[str, str]] = {}
        """Per batch, each order's status as this station last read or wrote it ('': none
        kept): what a save may write over (another station's newer state it never does)."""

    @classmethod
    def in_dir(cls, data_dir: Path) -> SharedBatchStore:
        """The configured store (SQLite in ``data_dir`` by default). Raises StoreError."""

        return cls(open_store(data_dir))

    @property
    def fresh(self) -> bool:
        return self.store.fresh

    def open(self, profile: str, source: str) -> BatchInfo:
        return _info(self.store.open_batch(profile, source))

    def batches(self, profile: str | None = None) -> list[BatchInfo]:
        return [_info(row) for row in self.store.batches(profile)]

    def orders(self, batch_id: int, keys: Collection[str] | None = None) -> dict[str, OrderState]:
        rows = self.store.orders(batch_id, keys)
        seen = self._seen.setdefault(batch_id, {})
        seen.update(dict.fromkeys(keys or (), ""))
        seen.update((row.key, sys.intern(row.status)) for row in rows)
        return {row.key: OrderState.from_json({**row.state, "key": row.key}) for row in rows}

    def keys(self, batch_id: int) -> list[str]:
        return self.store.order_keys(batch_id)

    def save(self, batch_id: int, states: Iterable[OrderState]) -> list[str]:
        rows = [(s.key, s.status, s.to_json(), s.position) for s in states]
        seen = self._seen.setdefault(batch_id, {})
        over = {key: seen[key] for key, *_ in rows if key in seen}  # orders never read: as is
        stale = self.store.save_orders(batch_id, rows, over=over)
        seen.update((key, sys.intern(status)) for key, status, *_ in rows if key not in stale)
        return stale

    def set_settings(self, batch_id: int, settings: dict[str, Any]) -> None:
        self.store.set_settings(batch_id, settings)

    def booked_elsewhere(self, profile: str, key: str, batch_id: int) -> list[BatchInfo]:
        ids = set(self.store.booked_elsewhere(profile, key, batch_id, BOOKED_OR_MAYBE))
        return [b for b in self.batches(profile) if b.id in ids]

    def booked_in_others(
        self, profile: str, batch_id: int, keys: Collection[str]
    ) -> dict[str, tuple[OrderState, str]]:
        return {
            key: (OrderState.from_json({**state, "key": key}), source)
            for key, (state, source) in self.store.booked_in_others(profile, batch_id, keys).items()
        }

    def claim(self, batch_id: int, keys: Sequence[str], *, booked: bool = False) -> list[str]:
        return self.store.claim(batch_id, self.station, keys, by=self.holder, booked=booked)

    def claim_to_rate(self, batch_id: int, keys: Sequence[str], rerate: bool) -> list[str]:
        rating = to_rate_statuses(rerate)
        return self.store.claim(batch_id, self.station, keys, by=self.holder, statuses=rating)

    def renew(self, batch_id: int) -> None:
        self.store.renew(batch_id, by=self.holder)

    def release(self, batch_id: int, keys: Sequence[str] | None = None) -> None:
        self.store.release(batch_id, keys, by=self.holder)

    def stations(self, batch_id: int) -> dict[str, dict[str, int]]:
        return self.store.stations(batch_id)

    def statuses(self, batch_id: int, *, besides: str | None = None) -> dict[str, tuple[str, str]]:
        return self.store.statuses(batch_id, besides=besides)

    def listen(self, batch_id: int) -> Listener | None:
        return self.store.listen(batch_id)

    def close(self) -> None:
        if self._owned:
            self.store.close()


def _info(row: Any) -> BatchInfo:
    return BatchInfo(
        id=row.id,
        profile=row.profile,
        source=row.source,
        created=row.created,
        updated=row.updated,
        settings=row.settings,
        counts=row.counts,
    )
