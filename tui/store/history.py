"""What a store knows of its own history, kept in the store (``store_history``), so that every
process that opens it, the app and every command, on SQLite and PostgreSQL, reads the same.

Events: ``created`` (the tables were made: a new store, or one deleted, emptied or pointed at
by mistake and made again; whatever was booked before is not in it), ``migrated`` (brought
from an older schema version), ``imported`` (another store's or the old files' records came
in) and ``restored`` (``freight store restored``: a backup put back, as its owner said).
None of them is trusted to say the store is complete: a backup restored without a word does
not know it is behind. That is why an order with no ledger row is always looked up on the
service, by its deterministic reference, before its booking is sent (``tui.booking``); the
history says *why* a store is unverified and since when.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

from tui.store.core import now_text, parse_time

if TYPE_CHECKING:
    from tui.store.core import Store
    from tui.store.engine import Transaction

EVENTS: Final = ("created", "migrated", "imported", "restored")
UNVERIFIED: Final = frozenset({"created", "imported", "restored"})
"""Events after which the store cannot prove an order was never sent."""
SEARCH_S: Final = 0.05
"""About what one search for a reference takes at the sandbox's pace (measured, see
docs/booking-ledger.md): the request itself; the account's rate limit sets the floor."""


@dataclass(frozen=True)
class Event:
    """One line of a store's history."""

    event: str
    at: datetime
    station: str
    detail: str


def note(tx: Transaction, event: str, station: str, detail: str = "") -> None:
    """Add one event to the history, in the transaction that did it."""

    if event not in EVENTS:
        raise ValueError(f"no store event {event!r}")
    tx.run(
        "INSERT INTO store_history (event, at, station, detail) VALUES (?, ?, ?, ?)",
        (event, now_text(), station[:80], detail[:500]),
    )


def record(store: Store, event: str, station: str, detail: str = "") -> None:
    """Add one event to the store's history in a transaction of its own."""
    with store.engine.write() as tx:
        note(tx, event, station, detail)


def events(store: Store) -> list[Event]:
    """The store's history, oldest first (empty for a store older than schema version 6
    that was never migrated by a Freight that writes it)."""

    rows = store.engine.read("SELECT event, at, station, detail FROM store_history ORDER BY at, id")
    return [
        Event(str(event), parse_time(at, store.where), str(station), str(detail))
        for event, at, station, detail in rows
    ]


def unverified_since(store: Store) -> Event | None:
    """The latest event after which the store cannot prove an order was never sent (created,
    imported, restored), or None when its history holds none."""
    found = [event for event in events(store) if event.event in UNVERIFIED]
    return found[-1] if found else None


def unbooked_orders(store: Store) -> int:
    """Orders of every batch that have no booking in the ledger and are still to be booked
    (``rated`` or ``pending``): each is looked up on the service before it is sent."""
    rows = store.engine.read(
        "SELECT COUNT(*) FROM orders o WHERE o.status IN ('rated', 'pending', 'booking')"
        " AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.batch_id = o.batch_id"
        " AND b.order_number = o.key)"
    )
    return int(rows[0][0])
