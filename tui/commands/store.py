"""``freight store status|migrate|import``: where Freight keeps its promises, its schema, and
today's local state moved into it."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from tui.commands.exits import OK


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
    actions.add_parser(
        "import",
        help="move this data dir's bookings, batches, mappings and address books into the "
        "store (a second import adds nothing)",
    )


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run one ``freight store`` action; return the exit status."""
    from tui.config.paths import data_dir
    from tui.store import open_store, station_name

    action = args.store_command
    store = open_store(data_dir(), migrate=action == "migrate")  # only it makes tables
    try:
        if action == "migrate":
            print(f"freight: {store.where}: schema version {store.version()}", file=out)
        elif action == "import":
            from tui.store import profile_environments
            from tui.store.importing import import_local

            added = import_local(store, data_dir(), profile_environments(), _address_books())
            print(f"freight: imported into {store.where}: {added.text}", file=out)
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
    finally:
        store.close()
    return OK


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
