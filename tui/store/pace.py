"""One pace per account, shared by every process through the store.

The service counts an account's requests together, whichever station sends them. Each
process keeps its own ``Pace`` in front (``tui.batch.pace``); before a request starts, it asks
the store for a slot: ``pace`` keeps one row per (account, environment) with the starts handed
out lately (evenly spaced at a share of ``limit``, never more than ``limit`` within any
second: ``tui.domain.pacing``, the same rule as a run's own pace) and
the end of a pause a 429 asked for, which every station honours. A slot is taken in one short
write transaction (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: ``SELECT … FOR UPDATE``).

Times in the row are seconds since the epoch by the database's clock on PostgreSQL (stations on
several hosts agree on it) and by this host's on SQLite (one host). A caller gets back how long
to wait, never a time of its own clock, so clocks that differ between hosts do not matter.
"""

from __future__ import annotations

import json
import time

from tui.domain.pacing import WINDOW, paced_rate
from tui.store.core import Store
from tui.store.engine import StoreError, Transaction


class StorePace:
    """The slots of one account's requests (the ``SharedSlots`` of ``tui.batch.pace``)."""

    def __init__(self, store: Store, account: str, environment: str, limit: float) -> None:
        self.store = store
        self.account = account
        self.environment = environment
        self.limit = max(1, int(limit))
        self.spacing = 1.0 / paced_rate(self.limit)

    def _now(self, tx: Transaction) -> float:
        if self.store.dialect.name == "postgresql":
            return float(tx.run("SELECT EXTRACT(EPOCH FROM clock_timestamp())")[0][0])
        return time.time()

    def _row(self, tx: Transaction) -> tuple[list[float], float]:
        """The row's starts and pause end, locked for this transaction (made when missing)."""
        lock = " FOR UPDATE" if self.store.dialect.name == "postgresql" else ""
        key = (self.account, self.environment)
        query = f"SELECT starts, paused_until FROM pace WHERE account = ? AND environment = ?{lock}"
        rows = tx.run(query, key)
        if not rows:
            tx.run(
                "INSERT INTO pace (account, environment, starts, paused_until) VALUES "
                "(?, ?, '[]', 0) ON CONFLICT (account, environment) DO NOTHING",
                key,
            )
            rows = tx.run(query, key)
        text, paused = rows[0]
        try:
            starts = [float(s) for s in json.loads(text)]
            return starts, float(paused)
        except (TypeError, ValueError) as error:
            raise StoreError(
                f"the store {self.store.where} holds an unreadable pace for {self.account!r}: "
                f"{error}"
            ) from None

    def reserve(self) -> tuple[float, float]:
        """Take the next free slot: (seconds until it, seconds the account is paused for)."""
        with self.store.engine.write() as tx:
            starts, paused_until = self._row(tx)
            now = self._now(tx)
            start = max(now, paused_until)
            if starts:
                start = max(start, starts[-1] + self.spacing)
            if len(starts) >= self.limit:
                start = max(start, starts[-self.limit] + WINDOW)
            kept = [*[s for s in starts if s > start - WINDOW][-self.limit :], start]
            tx.run(
                "UPDATE pace SET starts = ? WHERE account = ? AND environment = ?",
                (json.dumps(kept), self.account, self.environment),
            )
        return start - now, max(0.0, paused_until - now)

    def paused_for(self) -> float:
        """Seconds the account is still paused for (0: not paused)."""
        with self.store.engine.write() as tx:
            _, paused_until = self._row(tx)
            return max(0.0, paused_until - self._now(tx))

    def pause(self, seconds: float) -> None:
        """A 429: no station starts a request of the account for ``seconds`` from now."""
        with self.store.engine.write() as tx:
            _, paused_until = self._row(tx)
            until = self._now(tx) + seconds
            if until > paused_until:
                tx.run(
                    "UPDATE pace SET paused_until = ? WHERE account = ? AND environment = ?",
                    (until, self.account, self.environment),
                )
