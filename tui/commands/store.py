"""``freight store status|migrate|import``: where Freight keeps its promises, its schema, and
today's local state moved into it."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tui.commands.exits import OK
from tui.config.paths import data_dir
from tui.domain.safe_text import plain
from tui.store import open_store, profile_environments, station_name
from tui.store.history import SEARCH_S, events, unbooked_orders, unverified_since
from tui.store.moving import import_store
from tui.store.sqlite import FILE_NAME

if TYPE_CHECKING:
    from tui.store import Store


def add_store_command(sub: Any) -> None:
    """Add ``store`` and its actions."""
    store = sub.add_parser(
        "store",
        help="the store: status, migrate, import the local state into it",
        description=(
            "The store keeps batches, the booking ledger and paperwork owed: SQLite in the "
            "data dir, or a PostgreSQL database several stations share "
            "(FREIGHT_STORE_URL=postgresql://… or [store] url in the config)."
        ),
    )
    actions = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    actions.add_parser("status", help="which store, its schema version, what it holds")
    actions.add_parser("migrate", help="make or bring the store's tables to this version")
    taking = actions.add_parser(
        "import",
        help="move this data dir's bookings, batches, mappings and address books into the "
        "store (a second import adds nothing)",
        description=(
            "Bring the old JSON Lines ledger, batches and mappings of the data dir into the "
            "store, and a SQLite store (FILE, or the data dir's own when the store is "
            "PostgreSQL) with its bookings, batches, orders, paperwork owed, address books, "
            "mappings, rules and day closes. What the store holds is kept; a second import "
            "adds nothing. Prints what was added."
        ),
    )
    taking.add_argument(
        "file", nargs="?", default=None, metavar="FILE", help="a SQLite store file to import"
    )
    actions.add_parser(
        "restored",
        help="note in the store's history that it was restored from a backup",
    )


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run one ``freight store`` action; return the exit status."""

    action = args.store_command
    store = open_store(data_dir(), migrate=action == "migrate")  # only it makes tables
    try:
        if action == "migrate":
            print(f"freight: {store.where}: schema version {store.version()}", file=out)
        elif action == "import":
            _import(store, args.file, out)
        elif action == "restored":
            from tui.store.history import record

            record(store, "restored", station_name(), "said by freight store restored")
            print(f"freight: {store.where}: noted as restored from a backup", file=out)
        else:
            tables = {
                "batches": "batches",
                "orders": "orders",
                "bookings": "bookings",
                "paperwork": "paperwork",
                "mappings": "mappings",
                "addresses": "address_book",
            }
            counts = {
                shown: int(store.engine.read(f"SELECT COUNT(*) FROM {table}")[0][0])
                for shown, table in tables.items()
            }
            print(f"store     {store.where} ({store.dialect.name})", file=out)
            print(f"schema    version {store.version()}", file=out)
            print(f"station   {station_name()}", file=out)
            for table, number in counts.items():
                print(f"{table:<10}{number}", file=out)
            _history(store, out)
    finally:
        store.close()
    return OK


def _import(store: Store, file: str | None, out: TextIO) -> None:

    from tui.store.importing import import_local

    added = import_local(store, data_dir(), profile_environments(), _address_books())
    print(f"freight: imported into {store.where}: {added.text}", file=out)
    own = data_dir() / FILE_NAME
    source = Path(file).expanduser() if file else own
    if file or (store.dialect.name != "sqlite" and own.exists()):
        moved = import_store(store, source.resolve(), station_name())
        print(f"freight: imported {source} into {store.where}: {moved.text}", file=out)


def _history(store: Store, out: TextIO) -> None:
    """The store's history and what its check costs (``tui.store.history``)."""

    for event in events(store)[-8:]:
        when = event.at.astimezone().strftime("%Y-%m-%d %H:%M")
        detail = f" ({plain(event.detail, limit=120)})" if event.detail else ""
        print(f"history   {when} {event.event} by {plain(event.station)}{detail}", file=out)
    since = unverified_since(store)
    waiting = unbooked_orders(store)
    cost = f"{waiting} searches (about {waiting * SEARCH_S:.0f} s at the sandbox's pace)"
    if since is not None:
        when = since.at.astimezone().strftime("%Y-%m-%d %H:%M")
        print(
            f"verified  no: {since.event} {when}, so it cannot prove an order was never sent;"
            f" each order with no booking here is looked up on the service by its reference"
            f" before it is sent: {cost} for the {waiting} orders waiting",
            file=out,
        )
    else:
        print(
            f"verified  not provable (a restored backup does not know it is behind): each "
            f"order with no booking here is looked up before it is sent: {cost}",
            file=out,
        )


def _address_books() -> dict[str, list[dict[str, Any]]]:
    from tui.config.settings import load_config

    try:
        config = load_config()
    except Exception:  # a config that does not check: the address books stay out
        return {}
    return {
        name: [entry.model_dump(mode="json") for entry in profile.address_book]
        for name, profile in config.profiles.items()
    }
