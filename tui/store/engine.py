"""What the store asks of a database engine (SQLite or PostgreSQL), and its errors."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from tui.store.schema import Dialect

Row = tuple[Any, ...]

NOTICES: list[Callable[[str], None]] = []
"""Who is told what the store is doing meanwhile (reconnecting after the database server
restarted, and back): the command line prints it, the app shows it; a log line always."""


def tell(text: str) -> None:
    """Tell the store's news to every listener of ``NOTICES`` (and the log)."""
    logging.getLogger("tui.store").warning("%s", text)
    for listener in list(NOTICES):
        listener(text)


class StoreError(OSError):
    """The store cannot be used: which store, what happened and what to do, in one message."""


class Transaction(Protocol):
    """One write transaction: statements run in it, all kept or none."""

    def run(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement; its rows (none for most writes)."""
        ...

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each of ``rows``."""
        ...


class Listener(Protocol):
    """Notifications the database sends on one channel (PostgreSQL's LISTEN)."""

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a notification of this listener's payload; True
        when one came (a broken connection waits the timeout out: polling goes on)."""
        ...

    def fileno(self) -> int:
        """The connection's socket, readable when a notification may have come (-1: none, the
        listener is closed or broken)."""
        ...

    def poll(self) -> bool:
        """Without waiting: True when a notification of this payload came since the last look
        (a broken connection closes the listener: ``fileno`` is then -1)."""
        ...

    def close(self) -> None:
        """Stop listening."""
        ...


class Engine(Protocol):
    """One connection to the store's database."""

    dialect: Dialect
    where: str
    """The store named for a person: the file, or the URL without its password."""

    def write(self) -> AbstractContextManager[Transaction]:
        """A write transaction (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: a transaction)."""
        ...

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query, read on its own."""
        ...

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        """The rows of one query as they come (for tables too big to hold at once)."""
        ...

    def close(self) -> None:
        """Let go of the connection."""
        ...

    def listen(self, channel: str, payload: str) -> Listener | None:
        """Notifications on ``channel`` carrying ``payload``, on a connection of their own
        (None: the engine has none, its readers poll)."""
        ...
