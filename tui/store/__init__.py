"""One store behind every durable promise: batches and their orders, the booking ledger, the
paperwork each booking owes, saved mappings and rules, the address book.

Two engines behind one ``Store``: SQLite in the data dir (the default; WAL, every write an
immediate transaction; refused on a network filesystem) and PostgreSQL, shared by stations,
chosen with ``FREIGHT_STORE_URL=postgresql://…`` or ``[store] url`` in the config (psycopg 3,
imported only then). The schema is made and migrated on first use (``schema_version``).

    store = open_store(data_dir)           # the configured store, migrated
    ledger = StoreLedger(store, station_name(), "sandbox")

No UI toolkit, no client: plain data in, plain data out.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

from tui.store.core import LEASE_S, Store, ledger_environment
from tui.store.engine import StoreError
from tui.store.schema import VERSION

if TYPE_CHECKING:
    from tui.config.settings import AppConfig
    from tui.store.ledger import StoreLedger

__all__ = [
    "LEASE_S",
    "Store",
    "StoreError",
    "ledger_environment",
    "open_ledger",
    "open_store",
    "station_name",
    "store_url",
]

URL_ENV: Final = "FREIGHT_STORE_URL"
STATION_ENV: Final = "FREIGHT_STATION"


def store_url(config: AppConfig | None = None) -> str:
    """The store chosen, read here and nowhere else: ``FREIGHT_STORE_URL``, else ``[store] url``
    of the typed config (``config``, else the config file read now), else "" (SQLite in the
    data dir). A config that does not check is a StoreError naming it: a station never falls
    back to a store of its own because of a typo."""
    given = os.environ.get(URL_ENV, "").strip()
    if given:
        return given
    return _config(config).store.url.strip()


def _config(config: AppConfig | None) -> AppConfig:
    if config is not None:
        return config
    from tui.config.plain import ConfigError
    from tui.config.settings import load_config

    try:
        return load_config()
    except ConfigError as error:
        raise StoreError(f"the store cannot be chosen: {error}") from None


def open_store(
    data_dir: Path,
    url: str | None = None,
    *,
    migrate: bool = False,
    config: AppConfig | None = None,
) -> Store:
    """The store (``url``, else the configured one), ready to use. Its tables are made or
    migrated only with ``migrate`` (``freight store migrate``) or on SQLite (the station's own
    file): an ordinary run on PostgreSQL reads and writes rows, never makes tables, so a role
    with SELECT, INSERT, UPDATE and DELETE is enough. Raises StoreError with what happened and
    what to do."""
    chosen = store_url(config) if url is None else url
    if chosen.startswith(("postgresql://", "postgres://")):
        try:
            from tui.store.postgres import PostgresEngine
        except ImportError:
            raise StoreError(
                f"{URL_ENV} names a PostgreSQL store, but psycopg is not installed: "
                "pip install 'freight-tui[postgres]'"
            ) from None
        store = Store(PostgresEngine(chosen))
    elif chosen:
        raise StoreError(
            f"{URL_ENV} (or [store] url) must be a postgresql:// URL or empty (SQLite in the "
            "data dir)"
        )
    else:
        from tui.store.sqlite import FILE_NAME, SqliteEngine

        store = Store(SqliteEngine(data_dir / FILE_NAME))
    try:
        before = _ready(store, migrate=migrate)
        if before == 0 and not chosen:  # a new store beside the old files: they come in
            from tui.store.importing import import_local, local_state

            if local_state(data_dir):
                import_local(store, data_dir, profile_environments(config))
    except BaseException:
        store.close()
        raise
    return store


def _ready(store: Store, *, migrate: bool) -> int:
    """Check the store's schema, making or migrating its tables where this run may; the
    version it was at."""
    before = store.version()
    if before == VERSION:
        return before
    if before < VERSION and not migrate and store.dialect.name == "postgresql":
        what = "has no Freight tables" if before == 0 else f"is at schema version {before}"
        raise StoreError(
            f"the store {store.where} {what}; this Freight needs version {VERSION}: run "
            "`freight store migrate` once as a role that may create tables, then run again"
        )
    return store.migrate()[0]


def profile_environments(config: AppConfig | None = None) -> dict[str, str]:
    """Each configured profile's environment (of the typed config, else the file's)."""
    try:
        profiles = _config(config).profiles
    except StoreError:
        return {}
    return {name: str(profile.environment) for name, profile in profiles.items()}


def open_ledger(data_dir: Path, environment: str, url: str | None = None) -> StoreLedger:
    """The booking ledger in the configured store, written as this station."""
    from tui.store.ledger import StoreLedger

    return StoreLedger(open_store(data_dir, url), station_name(), environment)


def station_name() -> str:
    """This process's station: ``FREIGHT_STATION``, else host and terminal (``pack3:pts/2``)."""
    given = os.environ.get(STATION_ENV, "").strip()
    if given:
        return given[:80]
    host = socket.gethostname().split(".")[0] or "localhost"
    terminal = ""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        try:
            terminal = os.ttyname(stream.fileno()).removeprefix("/dev/")
            break
        except (OSError, ValueError, AttributeError):
            continue
    return f"{host}:{terminal or f'pid{os.getpid()}'}"
