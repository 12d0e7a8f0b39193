"""A SQLite store moved into another store (a station joining the shared PostgreSQL, or a
store file kept aside brought back): its bookings, batches and their orders, the paperwork
owed, the address books, mappings, rules and day closes. Nothing the target holds is changed
(a second import adds nothing), and the import is noted in the target's history.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tui.store.core import Store, Tally
from tui.store.engine import StoreError, Transaction
from tui.store.history import note

BOOKING_COLUMNS: Final = (
    "reference", "account", "environment", "order_number", "batch_id", "station", "profile",
    "quote_id", "rate_id", "sent_at", "updated", "outcome", "shipment_id", "pro_number",
    "bol_number", "note", "pickup_date", "pickup_note", "search_for", "lane", "rate", "offers",
    "weights", "delivered_on", "transit_days", "tracked_at",
)  # fmt: skip
NAMED_TABLES: Final = ("address_book", "mappings", "rules")


@dataclass(frozen=True)
class Moved(Tally):
    """How many records an import of a store added."""

    bookings: int = 0
    batches: int = 0
    orders: int = 0
    paperwork: int = 0
    addresses: int = 0
    mappings: int = 0
    rules: int = 0
    day_closes: int = 0


def _read(path: Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Each table of the source store: its column names and rows."""
    if not path.is_file() or path.stat().st_size == 0:
        raise StoreError(f"the store {path} cannot be imported: it is missing or empty")
    try:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as error:
        raise StoreError(f"the store {path} cannot be read: {error}") from None
    try:
        names = {
            str(row[0])
            for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        out: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
        for table in ("batches", "orders", "bookings", "paperwork", *NAMED_TABLES, "day_closes"):
            if table not in names:
                continue
            cursor = source.execute(f"SELECT * FROM {table}")  # a fixed name
            columns = [str(d[0]) for d in cursor.description]
            out[table] = (columns, [tuple(r) for r in cursor.fetchall()])
    except sqlite3.Error as error:
        raise StoreError(
            f"the store {path} cannot be read: {error}; restore it from a backup"
        ) from None
    finally:
        source.close()
    return out


def _rows(
    data: dict[str, tuple[list[str], list[tuple[Any, ...]]]], table: str
) -> list[dict[str, Any]]:
    columns, rows = data.get(table, ([], []))
    return [dict(zip(columns, row, strict=True)) for row in rows]


def import_store(store: Store, path: Path, station: str) -> Moved:
    """Add the SQLite store at ``path`` to ``store``; what was added. Raises StoreError."""

    if Path(store.where) == path:
        raise StoreError(f"the store {path} is the store being imported into")
    data = _read(path)
    with store.engine.write() as tx:
        ids, batches = _batches(tx, _rows(data, "batches"))
        orders = _orders(tx, _rows(data, "orders"), ids)
        bookings = _bookings(tx, _rows(data, "bookings"), ids)
        paperwork = _insert_all(
            tx, "paperwork", ("reference", "kind", "path", "saved_at", "last_error"),
            [row for row in _rows(data, "paperwork") if _known(tx, row["reference"])],
        )  # fmt: skip
        named = [
            _insert_all(tx, table, ("profile", "name", "data"), _rows(data, table))
            for table in NAMED_TABLES
        ]
        closes = _day_closes(tx, _rows(data, "day_closes"))
        addresses, mappings, rules = named
        moved = Moved(bookings, batches, orders, paperwork, addresses, mappings, rules, closes)
        note(tx, "imported", station, f"from {path}: {moved.text}")
    return moved


def _batches(tx: Transaction, rows: Sequence[dict[str, Any]]) -> tuple[dict[int, int], int]:
    ids: dict[int, int] = {}
    added = 0
    for row in rows:
        made = tx.run(
            "INSERT INTO batches (profile, source, created, updated, settings)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (profile, source) DO NOTHING RETURNING id",
            (row["profile"], row["source"], row["created"], row["updated"], row["settings"]),
        )
        added += len(made)
        found = tx.run(
            "SELECT id FROM batches WHERE profile = ? AND source = ?",
            (row["profile"], row["source"]),
        )
        ids[int(row["id"])] = int(found[0][0])
    return ids, added


def _orders(tx: Transaction, rows: Sequence[dict[str, Any]], ids: dict[int, int]) -> int:
    added = 0
    for row in rows:
        batch = ids.get(int(row["batch_id"]))
        if batch is None:
            continue
        made = tx.run(
            "INSERT INTO orders (batch_id, key, status, state, updated, position, station)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (batch_id, key) DO NOTHING RETURNING key",
            (
                batch,
                row["key"],
                row["status"],
                row["state"],
                row["updated"],
                row.get("position") or 0,
                row.get("station"),
            ),
        )
        added += len(made)
    return added


def _bookings(tx: Transaction, rows: Sequence[dict[str, Any]], ids: dict[int, int]) -> int:
    added = 0
    for row in rows:
        values = {name: row[name] for name in BOOKING_COLUMNS if name in row}
        if values.get("batch_id") is not None:
            values["batch_id"] = ids.get(int(values["batch_id"]))
        names = list(values)
        made = tx.run(
            f"INSERT INTO bookings ({', '.join(names)})"
            f" VALUES ({', '.join('?' for _ in names)}) ON CONFLICT DO NOTHING"
            " RETURNING reference",
            [values[name] for name in names],
        )
        added += len(made)
    return added


def _known(tx: Transaction, reference: Any) -> bool:
    """Whether the target holds this booking (paperwork is kept only of a booking it holds)."""
    return bool(tx.run("SELECT 1 FROM bookings WHERE reference = ?", (reference,)))


def _insert_all(
    tx: Transaction, table: str, columns: Sequence[str], rows: Sequence[dict[str, Any]]
) -> int:
    added = 0
    for row in rows:
        made = tx.run(
            f"INSERT INTO {table} ({', '.join(columns)})"
            f" VALUES ({', '.join('?' for _ in columns)}) ON CONFLICT DO NOTHING"
            f" RETURNING {columns[0]}",
            [row.get(name) for name in columns],
        )
        added += len(made)
    return added


def _day_closes(tx: Transaction, rows: Sequence[dict[str, Any]]) -> int:
    added = 0
    for row in rows:
        key = (row["day"], row["environment"], row["station"], row["closed_at"])
        carrier = row.get("carrier")  # a store before version 9 closed whole days only
        if tx.run(
            "SELECT 1 FROM day_closes WHERE day = ? AND environment = ? AND station = ?"
            " AND closed_at = ? AND COALESCE(carrier, '') = ?",
            (*key, carrier or ""),
        ):
            continue
        tx.run(
            "INSERT INTO day_closes (day, environment, station, closed_at, printed, carrier)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (*key, row.get("printed") or "[]", carrier),
        )
        added += 1
    return added
