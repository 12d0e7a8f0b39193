"""Today's local state moved into the store: the booking ledger (``bookings.jsonl``), the
batches (``batches.sqlite3``), saved column mappings (``batch-mappings.json``) and the
profiles' address books. Run on a new SQLite store by itself, or by ``freight store import``
into a shared one. Nothing already in the store is changed: a second import adds nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tui.ledger import FILE_NAME as LEDGER_FILE
from tui.ledger import BookingLedger
from tui.store.core import Store, Tally, ledger_environment, now_text
from tui.store.named import import_addresses

BATCHES_FILE: Final = "batches.sqlite3"
MAPPINGS_FILE: Final = "batch-mappings.json"


@dataclass(frozen=True)
class Imported(Tally):
    """How many records an import added (0 everywhere: there was nothing new); its text is
    ``3 bookings, 1 batches, 12 orders, 0 mappings, 0 addresses``."""

    bookings: int = 0
    batches: int = 0
    orders: int = 0
    mappings: int = 0
    addresses: int = 0


def local_state(data_dir: Path) -> bool:
    """Whether the data dir holds state kept the old way (worth importing)."""
    return any((data_dir / name).exists() for name in (LEDGER_FILE, BATCHES_FILE, MAPPINGS_FILE))


def import_local(
    store: Store,
    data_dir: Path,
    environments: Mapping[str, str] | None = None,
    address_books: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> Imported:
    """Add the data dir's old state to ``store`` (what it holds already is kept as it is).
    ``environments``: each profile's environment (the ledger file did not record it)."""
    envs = dict(environments or {})
    bookings = _bookings(store, data_dir / LEDGER_FILE, envs)
    batches, orders = _batches(store, data_dir / BATCHES_FILE)
    mappings = import_mappings(store, data_dir / MAPPINGS_FILE)
    addresses = sum(
        import_addresses(store, profile, book) for profile, book in (address_books or {}).items()
    )
    return Imported(bookings, batches, orders, mappings, addresses)


def _bookings(store: Store, path: Path, envs: Mapping[str, str]) -> int:
    if not path.exists():
        return 0
    added = 0
    with store.engine.write() as tx:
        for record in BookingLedger(path).bookings():
            lane = record.lane.to_data() if record.lane is not None else None
            rows = tx.run(
                "INSERT INTO bookings (reference, account, environment, order_number, station,"
                " profile, quote_id, rate_id, sent_at, updated, outcome, shipment_id,"
                " pro_number, bol_number, note, pickup_date, pickup_note, search_for, lane)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING reference",
                (
                    record.reference,
                    record.profile,
                    envs.get(record.profile) or ledger_environment(record.profile, "sandbox"),
                    record.order_number,
                    record.station or "imported",
                    record.profile,
                    record.quote_id,
                    record.rate_id,
                    now_text(record.sent_at or record.time),
                    now_text(record.time),
                    record.outcome,
                    record.shipment_id,
                    record.pro_number,
                    record.bol_number,
                    record.note,
                    record.pickup_date,
                    record.pickup_note,
                    record.search_for,
                    json.dumps(lane) if lane else None,
                ),
            )
            added += len(rows)
    return added


def _batches(store: Store, path: Path) -> tuple[int, int]:
    if not path.exists():
        return 0, 0
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        batches = source.execute(
            "SELECT id, profile, source, created, updated, settings FROM batches ORDER BY id"
        ).fetchall()
        orders = source.execute(
            "SELECT batch_id, key, status, state, updated FROM orders ORDER BY rowid"
        ).fetchall()
    finally:
        source.close()
    added_batches = added_orders = 0
    with store.engine.write() as tx:
        ids: dict[int, int] = {}
        for old_id, profile, where, created, updated, settings in batches:
            made = tx.run(
                "INSERT INTO batches (profile, source, created, updated, settings)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (profile, source) DO NOTHING RETURNING id",
                (profile, where, created, updated, settings),
            )
            added_batches += len(made)
            found = tx.run(
                "SELECT id FROM batches WHERE profile = ? AND source = ?", (profile, where)
            )
            ids[int(old_id)] = int(found[0][0])
        for old_id, key, status, state, updated in orders:
            try:
                position = int(json.loads(state).get("position", 0))
            except (ValueError, TypeError, AttributeError):
                position = 0  # kept as it is: reading it later says it is unreadable
            made = tx.run(
                "INSERT INTO orders (batch_id, key, status, state, updated, position)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (batch_id, key) DO NOTHING"
                " RETURNING key",
                (ids[int(old_id)], key, status, state, updated, position),
            )
            added_orders += len(made)
    return added_batches, added_orders


def import_mappings(store: Store, path: Path) -> int:
    """Add the saved mappings of a ``batch-mappings.json`` the store does not hold by name."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    profiles = data.get("profiles") if isinstance(data, dict) else None
    added = 0
    for profile, saved in (profiles or {}).items():
        if not isinstance(saved, dict):
            continue
        for name, mapping in saved.items():
            if isinstance(mapping, dict) and store.add_named("mappings", profile, name, mapping):
                added += 1
    return added
