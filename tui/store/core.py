"""The store: batches and their orders, the leases stations hold on them, saved mappings.

One ``Store`` over one ``Engine``; every write is one transaction. The booking ledger's table
is worked by ``tui.store.ledger``.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from tui.config.plain import DEMO_PROFILE
from tui.store.engine import Engine, Listener, StoreError, Transaction
from tui.store.schema import MIGRATIONS, VERSION

LEASE_S: Final = 60.0
"""How long a station's claim on orders lasts unless renewed (it renews every third of it)."""
_MADE_HERE: set[str] = set()
"""The stores whose tables this process made (any connection to them is ``fresh``)."""
BATCH_CHANNEL: Final = "freight_batch"
"""PostgreSQL's notify channel of batches: each transaction that changes an order's status,
or which station holds it, notifies it with the batch's id (its payload) as it commits."""
CLAIMABLE: Final = ("rated", "booking", "unknown")
"""Order statuses a booking run takes (sent ones are settled, never sent again)."""


def now_text(moment: datetime | None = None) -> str:
    """A time as the store keeps it: ISO 8601 in UTC (sorts as text)."""
    return (moment or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="microseconds")


def parse_time(text: Any, where: str) -> datetime:
    """A kept time; an unreadable one is an error, never a guess."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise StoreError(f"the store {where} holds an unreadable time {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Tally:
    """How many records of each kind a move into the store added (its fields, all counts)."""

    @property
    def text(self) -> str:
        """``3 bookings, 1 batches, 12 orders, 2 paperwork, …``: each field, in order."""
        return ", ".join(
            f"{getattr(self, f.name)} {f.name.replace('_', ' ')}" for f in fields(self)
        )


@dataclass(frozen=True)
class BatchRow:
    """One batch as kept."""

    id: int
    profile: str
    source: str
    created: datetime
    updated: datetime
    settings: dict[str, Any]
    counts: dict[str, int]


@dataclass(frozen=True)
class OrderRow:
    """One order of a batch as kept: its state (JSON) and who holds it."""

    key: str
    status: str
    state: dict[str, Any]
    station: str | None
    lease_until: datetime | None


class Store:
    """Every durable promise of Freight, in one database (see ``tui.store``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.where = engine.where
        self.dialect = engine.dialect

    @property
    def fresh(self) -> bool:
        """This process made the tables (the store is new, or was lost and made again)."""
        return self.where in _MADE_HERE

    # -- schema ---------------------------------------------------------------------------

    def version(self) -> int:
        """The schema version the database is at (0: no tables yet). Reads only: a role
        with no right to make tables may ask."""
        if self.dialect.name == "postgresql":
            found = self.engine.read("SELECT to_regclass('schema_version') IS NOT NULL")
        else:
            found = self.engine.read(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'"
                " AND name = 'schema_version'"
            )
        if not found or not found[0][0]:
            return 0
        rows = self.engine.read("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    def _version(self, tx: Transaction) -> int:
        tx.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        rows = tx.run("SELECT version FROM schema_version")
        return int(rows[0][0]) if rows else 0

    def migrate(self) -> tuple[int, int]:
        """Bring the tables to this Freight's version; (before, after). A store newer than
        this Freight is refused (StoreError)."""
        with self.engine.write() as tx:
            if self.dialect.name == "postgresql":  # one migrator at a time
                tx.run("SELECT pg_advisory_xact_lock(260026)")
            before = self._version(tx)
            if before > VERSION:
                raise StoreError(
                    f"the store {self.where} is at schema version {before}, newer than this "
                    f"Freight ({VERSION}): upgrade Freight"
                )
            for step in MIGRATIONS[before:]:
                for statement in step(self.dialect):
                    tx.run(statement)
            if before == 0:
                _MADE_HERE.add(self.where)
                tx.run("INSERT INTO schema_version (version) VALUES (?)", (VERSION,))
            elif before < VERSION:
                tx.run("UPDATE schema_version SET version = ?", (VERSION,))
            if before < VERSION:
                _note_migration(tx, before)
        return before, VERSION

    def close(self) -> None:
        """Let go of the database."""
        self.engine.close()

    # -- batches --------------------------------------------------------------------------

    def open_batch(self, profile: str, source: str) -> BatchRow:
        """The batch of a profile and source, made when there is none."""
        now = now_text()
        with self.engine.write() as tx:
            tx.run(
                "INSERT INTO batches (profile, source, created, updated) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (profile, source) DO NOTHING",
                (profile, source, now, now),
            )
        found = next((b for b in self.batches(profile) if b.source == source), None)
        if found is None:
            raise StoreError(f"the store {self.where} lost the batch of {source}")
        return found

    def batches(self, profile: str | None = None) -> list[BatchRow]:
        """Every batch (of one profile), the latest first, with its orders counted by status."""
        query = "SELECT id, profile, source, created, updated, settings FROM batches"
        args: tuple[str, ...] = ()
        if profile is not None:
            query += " WHERE profile = ?"
            args = (profile,)
        rows = self.engine.read(query + " ORDER BY updated DESC, id DESC", args)
        counts: dict[int, dict[str, int]] = {}
        for batch_id, status, number in self.engine.read(
            "SELECT batch_id, status, COUNT(*) FROM orders GROUP BY batch_id, status"
        ):
            counts.setdefault(int(batch_id), {})[status] = int(number)
        return [
            BatchRow(
                id=int(batch_id),
                profile=owner,
                source=source,
                created=parse_time(created, self.where),
                updated=parse_time(updated, self.where),
                settings=self._json(settings, f"batch {batch_id}'s settings"),
                counts=counts.get(int(batch_id), {}),
            )
            for batch_id, owner, source, created, updated, settings in rows
        ]

    def _json(self, text: Any, what: str) -> dict[str, Any]:
        try:
            data = json.loads(text)
        except (TypeError, ValueError):
            data = None
        if not isinstance(data, dict):
            raise StoreError(
                f"the store {self.where} holds {what} unreadable; restore the store from a "
                "backup, or set that record right by hand"
            )
        return data

    def set_settings(self, batch_id: int, settings: dict[str, Any]) -> None:
        """Keep the settings a batch runs with."""
        with self.engine.write() as tx:
            tx.run(
                "UPDATE batches SET settings = ?, updated = ? WHERE id = ?",
                (json.dumps(settings, ensure_ascii=False, default=str), now_text(), batch_id),
            )

    def orders(self, batch_id: int, keys: Collection[str] | None = None) -> list[OrderRow]:
        """A batch's orders (of ``keys``) as kept, in file order; an unreadable one raises."""
        query = "SELECT key, status, state, station, lease_until FROM orders WHERE batch_id = ?"
        args: list[Any] = [batch_id]
        if keys is not None:
            if not keys:
                return []
            query += f" AND key IN ({','.join('?' for _ in keys)})"
            args.extend(keys)
        out = []
        for key, status, state, station, lease in self.engine.read(
            query + " ORDER BY position, key", args
        ):
            out.append(
                OrderRow(
                    key,
                    status,
                    self._json(state, f"order {key} of batch {batch_id}"),
                    station,
                    parse_time(lease, self.where) if lease else None,
                )
            )
        return out

    def order_keys(self, batch_id: int) -> list[str]:
        """The keys of a batch's orders as kept, in file order (their states not read)."""
        rows = self.engine.read(
            "SELECT key FROM orders WHERE batch_id = ? ORDER BY position, key", (batch_id,)
        )
        return [str(row[0]) for row in rows]

    def save_orders(
        self,
        batch_id: int,
        rows: Sequence[tuple[str, str, dict[str, Any], int]],
        *,
        over: Mapping[str, str] | None = None,
    ) -> list[str]:
        """Keep orders' states: (key, status, state, position) each; durably before returning.
        ``over``: per key, the status the station last saw kept ('': none kept); an order kept
        in another status now (another station moved it since) is not written over. The keys
        not written (stale views), in no order."""
        if not rows:
            return []
        now = now_text()
        with self.engine.write() as tx:
            stale = self._moved(tx, batch_id, over) if over else set()
            fresh = [row for row in rows if row[0] not in stale]
            if fresh:
                tx.many(
                    "INSERT INTO orders (batch_id, key, status, state, updated, position)"
                    " VALUES (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (batch_id, key) DO UPDATE SET status = excluded.status,"
                    " state = excluded.state, updated = excluded.updated",
                    [
                        (batch_id, key, status, json.dumps(state, ensure_ascii=False), now, at)
                        for key, status, state, at in fresh
                    ],
                )
                tx.run("UPDATE batches SET updated = ? WHERE id = ?", (now, batch_id))
                self._notify(tx, batch_id)
        return list(stale)

    def _moved(self, tx: Transaction, batch_id: int, over: Mapping[str, str]) -> set[str]:
        """Of ``over``'s keys, those kept now in another status than it says (held until the
        transaction ends: PostgreSQL locks the rows, SQLite's write is one at a time)."""
        keys = list(over)
        lock = " FOR UPDATE" if self.dialect.name == "postgresql" else ""
        kept = {
            str(key): str(status)
            for key, status in tx.run(
                "SELECT key, status FROM orders WHERE batch_id = ?"
                f" AND key IN ({','.join('?' for _ in keys)}){lock}",
                (batch_id, *keys),
            )
        }
        return {key for key in keys if kept.get(key, "") != over[key]}

    def booked_elsewhere(
        self, profile: str, key: str, batch_id: int, statuses: Iterable[str]
    ) -> list[int]:
        """Ids of other batches of the profile where the order of this key is in a status."""
        marks = sorted(statuses)
        rows = self.engine.read(
            "SELECT DISTINCT o.batch_id FROM orders o JOIN batches b ON b.id = o.batch_id"
            f" WHERE o.key = ? AND b.profile = ? AND o.batch_id != ?"
            f" AND o.status IN ({','.join('?' for _ in marks)})",
            (key, profile, batch_id, *marks),
        )
        return [int(r[0]) for r in rows]

    def booked_in_others(
        self, profile: str, batch_id: int, keys: Collection[str]
    ) -> dict[str, tuple[dict[str, Any], str]]:
        """Of ``keys``, the orders booked in another batch of the profile (a copy of a file,
        a file renamed): each one's state there and that batch's source (the latest booking
        when several)."""
        if not keys:
            return {}
        rows = self.engine.read(
            "SELECT o.key, o.state, b.source FROM orders o JOIN batches b ON b.id = o.batch_id"
            " WHERE b.profile = ? AND o.batch_id != ? AND o.status = 'booked'"
            f" AND o.key IN ({','.join('?' for _ in keys)}) ORDER BY o.updated",
            (profile, batch_id, *keys),
        )
        return {
            str(key): (self._json(state, f"order {key} of another batch"), str(source))
            for key, state, source in rows
        }

    # -- leases ---------------------------------------------------------------------------

    def claim(
        self,
        batch_id: int,
        station: str,
        keys: Sequence[str],
        *,
        lease_s: float = LEASE_S,
        moment: datetime | None = None,
        by: str | None = None,
        booked: bool = False,
        statuses: Collection[str] | None = None,
    ) -> list[str]:
        """Of ``keys``, the orders this process now holds for ``lease_s``: those still to book
        (or settle; with ``booked``, booked ones too: to fetch the paperwork they owe; with
        ``statuses``, those in them: to rate) that no other process holds under a live lease
        (one whose process on this host is gone holds nothing). An order whose booking was
        sent stays the station's that sent it (the ``Stations:`` line counts bookings by who
        made them). PostgreSQL skips rows another transaction is claiming; SQLite's immediate
        transaction claims alone."""
        if not keys:
            return []
        me = by or holder()
        marks = ",".join("?" for _ in keys)
        claimable = tuple(statuses) if statuses is not None else CLAIMABLE
        claimable = (*claimable, "booked") if booked else claimable
        states = ",".join("?" for _ in claimable)
        with self.engine.write() as tx:
            at = moment or self._now(tx)
            until = now_text(at + timedelta(seconds=lease_s))
            dead = self._dead_holders(tx, batch_id, now_text(at))
            gone = f" OR holder IN ({','.join('?' for _ in dead)})" if dead else ""
            rows = tx.run(
                f"SELECT key FROM orders WHERE batch_id = ? AND key IN ({marks})"
                f" AND status IN ({states})"
                f" AND (lease_until IS NULL OR lease_until < ? OR holder = ?{gone})"
                " ORDER BY position, key" + self.dialect.skip_locked,
                (batch_id, *keys, *claimable, now_text(at), me, *dead),
            )
            taken = [str(r[0]) for r in rows]
            if taken:
                tx.run(
                    "UPDATE orders SET station = CASE WHEN station IS NOT NULL AND status IN"
                    " ('booked', 'booking', 'unknown') THEN station ELSE ? END,"
                    " holder = ?, lease_until = ?"
                    f" WHERE batch_id = ? AND key IN ({','.join('?' for _ in taken)})",
                    (station, me, until, batch_id, *taken),
                )
                self._notify(tx, batch_id)
        return taken

    def _now(self, tx: Transaction) -> datetime:
        """The database's clock (PostgreSQL's, which every station shares; SQLite's file is
        on this host, whose clock it is): leases are timed by it, never by a station's own."""
        if self.dialect.name == "postgresql":
            moment = tx.run("SELECT clock_timestamp()")[0][0]
            if isinstance(moment, datetime):
                return moment.astimezone(UTC)
            return parse_time(str(moment), self.where)
        return datetime.now(UTC)

    def _dead_holders(self, tx: Transaction, batch_id: int, now: str) -> list[str]:
        """Holders of live leases on the batch that are processes of this host now gone."""
        host = socket.gethostname()
        out = []
        for (name,) in tx.run(
            "SELECT DISTINCT holder FROM orders WHERE batch_id = ? AND lease_until >= ?"
            " AND holder IS NOT NULL",
            (batch_id, now),
        ):
            where, _, pid = str(name).partition("@")[2].rpartition(":")
            if where == host and pid.isdigit() and not _alive(int(pid)):
                out.append(str(name))
        return out

    def renew(self, batch_id: int, *, lease_s: float = LEASE_S, by: str | None = None) -> None:
        """Keep holding this process's orders of a batch for another lease."""
        with self.engine.write() as tx:
            until = now_text(self._now(tx) + timedelta(seconds=lease_s))
            tx.run(
                "UPDATE orders SET lease_until = ? WHERE batch_id = ? AND holder = ?"
                " AND lease_until IS NOT NULL",
                (until, batch_id, by or holder()),
            )

    def release(
        self, batch_id: int, keys: Sequence[str] | None = None, *, by: str | None = None
    ) -> None:
        """Let go of this process's orders of a batch (of ``keys``): another may take them."""
        query = "UPDATE orders SET lease_until = NULL WHERE batch_id = ? AND holder = ?"
        args: list[Any] = [batch_id, by or holder()]
        if keys is not None:
            if not keys:
                return
            query += f" AND key IN ({','.join('?' for _ in keys)})"
            args.extend(keys)
        with self.engine.write() as tx:
            tx.run(query, args)

    def _notify(self, tx: Transaction, batch_id: int) -> None:
        """Tell the batch's watchers (PostgreSQL: sent as the transaction commits, once)."""
        if self.dialect.name == "postgresql":
            tx.run("SELECT pg_notify(?, ?)", (BATCH_CHANNEL, str(batch_id)))

    def listen(self, batch_id: int) -> Listener | None:
        """The batch's changes as they are committed by any station (PostgreSQL); None on
        SQLite, whose readers poll."""
        return self.engine.listen(BATCH_CHANNEL, str(batch_id))

    def statuses(self, batch_id: int, *, besides: str | None = None) -> dict[str, tuple[str, str]]:
        """Each order's status and when it last changed (as the store keeps the time) by its
        key, of the orders a station claimed or booked (one other than ``besides``): what other
        stations did, without reading whole states."""
        query = "SELECT key, status, updated FROM orders WHERE batch_id = ? AND station IS NOT NULL"
        args: list[Any] = [batch_id]
        if besides is not None:
            query += " AND station != ?"
            args.append(besides)
        return {
            str(key): (str(status), str(updated))
            for key, status, updated in self.engine.read(query, args)
        }

    def stations(self, batch_id: int) -> dict[str, dict[str, int]]:
        """Per station, its orders of a batch by status (who did what)."""
        out: dict[str, dict[str, int]] = {}
        for station, status, number in self.engine.read(
            "SELECT station, status, COUNT(*) FROM orders WHERE batch_id = ?"
            " AND station IS NOT NULL GROUP BY station, status",
            (batch_id,),
        ):
            out.setdefault(str(station), {})[str(status)] = int(number)
        return out

    # -- named records (mappings, rules, the address book) ----------------------------------

    def put_named(
        self,
        table: str,
        profile: str,
        name: str,
        data: dict[str, Any],
        *,
        drop: Collection[str] = (),
    ) -> None:
        """Keep one named record of a profile (``mappings``, ``rules``, ``address_book``),
        and let go of the records named in ``drop`` (those it replaces), in one transaction:
        the last write of a name wins whole, and other names are never touched."""
        _check_table(table)
        gone = sorted(set(drop) - {name})
        with self.engine.write() as tx:
            if gone:
                tx.run(
                    f"DELETE FROM {table} WHERE profile = ?"
                    f" AND name IN ({','.join('?' for _ in gone)})",
                    (profile, *gone),
                )
            tx.run(
                f"INSERT INTO {table} (profile, name, data) VALUES (?, ?, ?)"
                " ON CONFLICT (profile, name) DO UPDATE SET data = excluded.data",
                (profile, name, json.dumps(data, ensure_ascii=False, default=str)),
            )

    def add_named(self, table: str, profile: str, name: str, data: dict[str, Any]) -> bool:
        """Add one named record unless the name is taken (then the kept one stays); whether
        it was added."""
        _check_table(table)
        with self.engine.write() as tx:
            made = tx.run(
                f"INSERT INTO {table} (profile, name, data) VALUES (?, ?, ?)"
                " ON CONFLICT (profile, name) DO NOTHING RETURNING name",
                (profile, name, json.dumps(data, ensure_ascii=False, default=str)),
            )
        return bool(made)

    def named(self, table: str, profile: str) -> dict[str, dict[str, Any]]:
        """A profile's named records of a table, by name."""
        _check_table(table)
        rows = self.engine.read(
            f"SELECT name, data FROM {table} WHERE profile = ? ORDER BY name", (profile,)
        )
        return {name: self._json(data, f"{table} record {name!r}") for name, data in rows}


def _note_migration(tx: Transaction, before: int) -> None:
    """The store's history of this migration (``tui.store.history``), in its transaction."""
    event, detail = (
        ("created", f"schema version {VERSION}")
        if before == 0
        else ("migrated", f"from schema version {before} to {VERSION}")
    )
    tx.run(
        "INSERT INTO store_history (event, at, station, detail) VALUES (?, ?, ?, ?)",
        (event, now_text(), os.environ.get("FREIGHT_STATION", "").strip()[:80] or holder(), detail),
    )


_HOLDER: list[tuple[int, str]] = []
"""This process's holder id, made once per process (a forked child makes its own)."""


def holder() -> str:
    """This process as a lease holder: a random id of its own (``token@host:pid``; the host
    and pid only tell a resume on this host that the process holding a lease is gone). Two
    machines with one host name, or a pid used again, never share a holder."""
    pid = os.getpid()
    if not _HOLDER or _HOLDER[0][0] != pid:
        _HOLDER[:] = [(pid, f"{secrets.token_hex(8)}@{socket.gethostname()}:{pid}")]
    return _HOLDER[0][1]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _check_table(table: str) -> None:
    if table not in ("mappings", "rules", "address_book"):
        raise ValueError(f"no named records in {table!r}")


def ledger_environment(profile: str, environment: str) -> str:
    """The environment a profile's bookings and day closes are kept under: the target's, as
    the header says it (``sandbox``, ``production``), and ``demo`` for the built-in demo,
    whose profile says ``sandbox`` but whose service is the local one. The app and every
    command use this one name, so an order's booking and a day's close are the same to both."""

    return "demo" if profile == DEMO_PROFILE else environment.lower()
