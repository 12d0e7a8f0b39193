"""Where a batch's state is kept as it goes, so a kill -9 or a dropped SSH session loses nothing.

``BatchStore`` is the small interface the engine needs; ``SqliteBatchStore`` keeps it in one
SQLite file in the data dir (WAL, every change committed and synced before the next request
goes out). A database shared by several shipping stations can serve the same interface later.
A batch is named by its profile and its source (the order file's full path), so reading the
file again after fixing it finds the orders already rated or booked.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

from tui.batch.model import BOOKED_OR_MAYBE, OrderState

FILE_NAME: Final = "batches.sqlite3"
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS batches (
    id INTEGER PRIMARY KEY,
    profile TEXT NOT NULL,
    source TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    UNIQUE (profile, source)
);
CREATE TABLE IF NOT EXISTS orders (
    batch_id INTEGER NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    status TEXT NOT NULL,
    state TEXT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (batch_id, key)
);
CREATE INDEX IF NOT EXISTS orders_by_key ON orders (key, status);
"""


class BatchBusyError(Exception):
    """Another Freight is working on this batch (rating or booking it) right now."""


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

    def open(self, profile: str, source: str) -> BatchInfo:
        """The batch of this profile and source, made when there is none."""
        ...

    def batches(self, profile: str | None = None) -> list[BatchInfo]:
        """Every batch (of one profile), the latest first."""
        ...

    def orders(self, batch_id: int) -> dict[str, OrderState]:
        """Each order's state by its key."""
        ...

    def save(self, batch_id: int, states: Iterable[OrderState]) -> None:
        """Keep these states (durably, before returning)."""
        ...

    def set_settings(self, batch_id: int, settings: dict[str, Any]) -> None:
        """Keep the settings the batch runs with (mapping, rules)."""
        ...

    def booked_elsewhere(self, profile: str, key: str, batch_id: int) -> list[BatchInfo]:
        """Other batches of the profile where an order of this key is (or may be) booked."""
        ...

    def claim(self, batch_id: int) -> Any:
        """A context manager holding the batch for this process (raises BatchBusyError)."""
        ...

    def close(self) -> None:
        """Let go of the store."""
        ...


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return datetime.now(UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class SqliteBatchStore:
    """``BatchStore`` in one SQLite file (``batches.sqlite3`` in the data dir)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fresh = not path.exists()
        # One connection, used by one task at a time (a screen opens a batch in a thread and
        # rates it on the event loop).
        self._conn = sqlite3.connect(
            path, timeout=30, isolation_level=None, check_same_thread=False
        )
        if fresh:
            os.chmod(path, 0o600)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.executescript(_SCHEMA)

    @classmethod
    def in_dir(cls, data_dir: Path) -> SqliteBatchStore:
        """The store of a data dir."""
        return cls(data_dir / FILE_NAME)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def open(self, profile: str, source: str) -> BatchInfo:
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT id FROM batches WHERE profile = ? AND source = ?", (profile, source)
            ).fetchone()
            if row is None:
                now = _now()
                conn.execute(
                    "INSERT INTO batches (profile, source, created, updated) VALUES (?, ?, ?, ?)",
                    (profile, source, now, now),
                )
        found = next((b for b in self.batches(profile) if b.source == source), None)
        assert found is not None
        return found

    def batches(self, profile: str | None = None) -> list[BatchInfo]:
        query = "SELECT id, profile, source, created, updated, settings FROM batches"
        args: tuple[str, ...] = ()
        if profile is not None:
            query += " WHERE profile = ?"
            args = (profile,)
        rows = self._conn.execute(query + " ORDER BY updated DESC, id DESC", args).fetchall()
        counts: dict[int, Counter[str]] = {}
        for batch_id, status, number in self._conn.execute(
            "SELECT batch_id, status, COUNT(*) FROM orders GROUP BY batch_id, status"
        ):
            counts.setdefault(batch_id, Counter())[status] = number
        out = []
        for batch_id, owner, source, created, updated, settings in rows:
            try:
                kept = json.loads(settings)
            except ValueError:
                kept = {}
            out.append(
                BatchInfo(
                    id=batch_id,
                    profile=owner,
                    source=source,
                    created=_time(created),
                    updated=_time(updated),
                    settings=kept if isinstance(kept, dict) else {},
                    counts=dict(counts.get(batch_id, Counter())),
                )
            )
        return out

    def orders(self, batch_id: int) -> dict[str, OrderState]:
        out: dict[str, OrderState] = {}
        for key, state in self._conn.execute(
            "SELECT key, state FROM orders WHERE batch_id = ? ORDER BY rowid", (batch_id,)
        ):
            try:
                data = json.loads(state)
            except ValueError:
                continue
            if isinstance(data, dict):
                out[key] = OrderState.from_json({**data, "key": key})
        return out

    def save(self, batch_id: int, states: Iterable[OrderState]) -> None:
        now = _now()
        rows = [
            (batch_id, s.key, s.status, json.dumps(s.to_json(), ensure_ascii=False), now)
            for s in states
        ]
        if not rows:
            return
        with self._transaction() as conn:
            conn.executemany(
                "INSERT INTO orders (batch_id, key, status, state, updated) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (batch_id, key) DO UPDATE SET status = excluded.status,"
                " state = excluded.state, updated = excluded.updated",
                rows,
            )
            conn.execute("UPDATE batches SET updated = ? WHERE id = ?", (now, batch_id))

    def set_settings(self, batch_id: int, settings: dict[str, Any]) -> None:
        with self._transaction() as conn:
            conn.execute(
                "UPDATE batches SET settings = ?, updated = ? WHERE id = ?",
                (json.dumps(settings, ensure_ascii=False, default=str), _now(), batch_id),
            )

    def booked_elsewhere(self, profile: str, key: str, batch_id: int) -> list[BatchInfo]:
        marks = ",".join("?" for _ in BOOKED_OR_MAYBE)
        ids = {
            row[0]
            for row in self._conn.execute(
                f"SELECT o.batch_id FROM orders o JOIN batches b ON b.id = o.batch_id"
                f" WHERE o.key = ? AND b.profile = ? AND o.batch_id != ? AND o.status IN ({marks})",
                (key, profile, batch_id, *sorted(BOOKED_OR_MAYBE)),
            )
        }
        return [b for b in self.batches(profile) if b.id in ids]

    @contextmanager
    def claim(self, batch_id: int) -> Iterator[None]:
        """Hold the batch for this process with a lock file beside the database."""
        lock_path = self.path.parent / f"batch-{batch_id}.lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BatchBusyError(
                    "another Freight is rating or booking this batch right now; "
                    "wait for it to finish"
                ) from None
            yield
        finally:
            os.close(fd)

    def close(self) -> None:
        self._conn.close()
