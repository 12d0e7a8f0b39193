"""The shared store: a PostgreSQL database several stations use at once (psycopg 3).

Imported only when a ``postgresql://`` URL is chosen: psycopg is an extra
(``freight-tui[postgres]``) and never loaded before the first frame.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import sql

from tui.store.engine import Row, StoreError, tell
from tui.store.schema import POSTGRES

RECONNECT_S = 120.0
"""How long a dropped connection is tried again before the store is said to be down."""


def without_password(url: str) -> str:
    """The URL as it may be shown: its password replaced by ``***``."""
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


def _sql(sql: str) -> str:
    return sql.replace("?", "%s")


class _Tx:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def run(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._conn.cursor() as cursor:
            cursor.execute(_sql(sql), tuple(params))
            return [tuple(r) for r in cursor.fetchall()] if cursor.description else []

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self._conn.cursor() as cursor:
                cursor.executemany(_sql(sql), [tuple(r) for r in rows])


class PostgresEngine:
    """``Engine`` on one PostgreSQL connection (autocommit outside write transactions)."""

    dialect = POSTGRES

    def __init__(self, url: str) -> None:
        self.where = without_password(url)
        self._lock = threading.RLock()
        self._url = url
        self._closing = False
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=15)
        except psycopg.Error as error:
            raise self._hurt(error) from None

    def __repr__(self) -> str:
        return f"PostgresEngine({self.where!r})"

    def _hurt(self, error: psycopg.Error) -> StoreError:
        text = without_password(str(error).strip().splitlines()[0] if str(error) else "")
        return StoreError(
            f"the store {self.where} cannot be used: {text or type(error).__name__}; check "
            "the database server and FREIGHT_STORE_URL (or [store] url), then run again"
        )

    def _connected(self) -> psycopg.Connection[Any]:
        """The connection, made again when the server dropped it (a restart, a failover):
        tried until ``RECONNECT_S`` has passed, saying so (``tui.store.engine.tell``) while
        it waits and when it is back."""
        if not (self._conn.closed or self._conn.broken):
            return self._conn
        if self._closing:  # let go of on purpose: never made again
            raise StoreError(f"the store {self.where} was closed")
        deadline = time.monotonic() + RECONNECT_S
        pause, told = 0.1, False
        while True:
            try:
                self._conn = psycopg.connect(self._url, autocommit=True, connect_timeout=5)
            except psycopg.OperationalError as error:
                if time.monotonic() >= deadline:
                    raise self._hurt(error) from None
                if not told:
                    tell(f"the store {self.where} cannot be reached: reconnecting…")
                    told = True
                time.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            if told:
                tell(f"the store {self.where} is back")
            return self._conn

    @contextmanager
    def write(self) -> Iterator[_Tx]:
        with self._lock:
            try:
                conn = self._connected()
                with conn.transaction():
                    yield _Tx(conn)
            except psycopg.Error as error:
                raise self._hurt(error) from None

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._lock:
            for attempt in (1, 2):  # a read is asked again once on a new connection
                try:
                    with self._connected().cursor() as cursor:
                        cursor.execute(_sql(sql), tuple(params))
                        return [tuple(r) for r in cursor.fetchall()]
                except psycopg.OperationalError as error:
                    if attempt == 2 or not (self._conn.closed or self._conn.broken):
                        raise self._hurt(error) from None
                except psycopg.Error as error:
                    raise self._hurt(error) from None
            raise AssertionError("unreachable")

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        yield from self.read(sql, params)

    def close(self) -> None:
        with self._lock:
            self._closing = True
            self._conn.close()

    def listen(self, channel: str, payload: str) -> PostgresListener | None:
        """LISTEN on a connection of its own (None when it cannot be had: readers poll)."""
        try:
            return PostgresListener(self._url, channel, payload)
        except psycopg.Error:
            return None


class PostgresListener:
    """``Listener``: PostgreSQL's notifications of one channel and payload, on a connection of
    their own (the store's connection is busy with its statements). ``wait`` runs in a worker
    thread; ``close`` never blocks: a wait going on closes the connection as it ends."""

    def __init__(self, url: str, channel: str, payload: str) -> None:
        self.payload = payload
        self._conn: psycopg.Connection[Any] | None = psycopg.connect(
            url, autocommit=True, connect_timeout=15
        )
        self._conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
        self._state = threading.Lock()
        self._waiting = False
        self._closing = False

    def wait(self, timeout: float) -> bool:
        with self._state:
            conn = None if self._closing else self._conn
            self._waiting = conn is not None
        if conn is None:
            time.sleep(max(0.0, timeout))  # closed, or its connection broke: the caller polls
            return False
        try:
            return self._wait(conn, time.monotonic() + timeout)
        finally:
            with self._state:
                self._waiting = False
                closing = self._closing
            if closing:
                self._finish()

    def _wait(self, conn: psycopg.Connection[Any], deadline: float) -> bool:
        while (left := deadline - time.monotonic()) > 0:
            try:
                for note in conn.notifies(timeout=left, stop_after=1):
                    if note.payload == self.payload:
                        return True
            except psycopg.Error:
                self._closing = True  # broken: closed as the wait ends; polling goes on
                time.sleep(max(0.0, deadline - time.monotonic()))
                return False
        return False

    def fileno(self) -> int:
        with self._state:
            conn = None if self._closing else self._conn
        return conn.fileno() if conn is not None else -1

    def poll(self) -> bool:
        with self._state:
            conn = None if self._closing or self._waiting else self._conn
        if conn is None:
            return False
        try:
            return any(n.payload == self.payload for n in conn.notifies(timeout=0.0))
        except psycopg.Error:
            self.close()  # broken: the caller polls the store
            return False

    def close(self) -> None:
        with self._state:
            self._closing = True
            if self._waiting:
                return  # the wait closes it as it ends
        self._finish()

    def _finish(self) -> None:
        with self._state:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
