"""SQLite storage: schema, indexes, WAL, and one shared connection guarded by a lock."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: bump when the schema changes: an older sandbox database is then set aside and reseeded
SCHEMA_VERSION = "2"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS quotes (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL,
    request TEXT NOT NULL,
    rates TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS shipments (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL,
    created INTEGER NOT NULL,
    status TEXT NOT NULL,
    next_at INTEGER,
    mode TEXT NOT NULL,
    carrier_code TEXT NOT NULL,
    carrier_name TEXT NOT NULL,
    service_type TEXT NOT NULL,
    total_cents INTEGER NOT NULL,
    pro TEXT UNIQUE,
    bol TEXT,
    tracking TEXT,
    tracking_all TEXT,
    reference TEXT,
    quote_id TEXT NOT NULL,
    rate_id TEXT NOT NULL,
    pickup_conf TEXT,
    pickup_at INTEGER,
    delivered_at INTEGER,
    timeline TEXT NOT NULL,
    o_company TEXT, o_address TEXT, o_address2 TEXT, o_city TEXT, o_state TEXT, o_zip TEXT,
    d_company TEXT, d_address TEXT, d_address2 TEXT, d_city TEXT, d_state TEXT, d_zip TEXT,
    items TEXT NOT NULL,
    contacts TEXT NOT NULL,
    details TEXT,
    UNIQUE (quote_id, rate_id)
);
CREATE INDEX IF NOT EXISTS shipments_status ON shipments (status, seq);
CREATE INDEX IF NOT EXISTS shipments_mode ON shipments (mode, seq);
CREATE INDEX IF NOT EXISTS shipments_mode_status ON shipments (mode, status, seq);
CREATE INDEX IF NOT EXISTS shipments_created ON shipments (created);
CREATE INDEX IF NOT EXISTS shipments_due ON shipments (next_at) WHERE next_at IS NOT NULL;
CREATE VIRTUAL TABLE IF NOT EXISTS shipment_text USING fts5(
    body, content='', detail='none', tokenize='unicode61 remove_diacritics 2',
    prefix='1 2 3 4 5 6 7 8'
);
"""

SHIPMENT_COLUMNS = (
    "seq", "id", "account", "created", "status", "next_at", "mode", "carrier_code",
    "carrier_name", "service_type", "total_cents", "pro", "bol", "tracking", "tracking_all",
    "reference", "quote_id", "rate_id", "pickup_conf", "pickup_at", "delivered_at", "timeline",
    "o_company", "o_address", "o_address2", "o_city", "o_state", "o_zip",
    "d_company", "d_address", "d_address2", "d_city", "d_state", "d_zip",
    "items", "contacts", "details",
)  # fmt: skip

INSERT_SHIPMENT = (
    f"INSERT INTO shipments ({', '.join(SHIPMENT_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in SHIPMENT_COLUMNS)})"
)


class Database:
    """One SQLite connection shared by all requests of an app; use ``with db.lock():``."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = self._connect()
        if self._stale_schema():
            assert path is not None
            self.conn.close()
            path.replace(path.with_name(path.name + f".v{self._found_version}.old"))
            for suffix in ("-wal", "-shm"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
            self.conn = self._connect()
        self._lock = threading.RLock()
        self.conn.executescript(SCHEMA)
        self.conn.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,)
        )

    def _connect(self) -> sqlite3.Connection:
        target = str(self.path) if self.path is not None else ":memory:"
        conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 10000")
        if self.path is not None:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA cache_size = -65536")
        return conn

    def _stale_schema(self) -> bool:
        """Whether the file holds a sandbox database of another schema (it is set aside)."""
        self._found_version = SCHEMA_VERSION
        has_meta = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
        ).fetchone()
        if not has_meta:
            return False
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        self._found_version = SCHEMA_VERSION if row is None else str(row[0])
        return self._found_version != SCHEMA_VERSION

    @contextmanager
    def lock(self) -> Iterator[sqlite3.Connection]:
        """Hold the connection for a unit of work."""
        with self._lock:
            yield self.conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Hold the connection inside BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error)."""
        with self._lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def get_meta(self, key: str) -> str | None:
        """Return a metadata value or None."""
        with self.lock() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, conn: sqlite3.Connection, key: str, value: str) -> None:
        """Set a metadata value (inside the caller's transaction)."""
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self.conn.close()
