"""A store whose disk is full: SQLite's own "database or disk is full" (SQLITE_FULL), made by
capping the file at the pages it has and filling them."""

from __future__ import annotations

from tui.store import Store, StoreError


def fill_the_store(store: Store) -> None:
    """Cap the (SQLite) store at its size and fill the booking table's free room."""
    assert store.dialect.name == "sqlite"
    pages = int(store.engine.read("PRAGMA page_count")[0][0])
    store.engine.read(f"PRAGMA max_page_count = {pages}")
    for number in range(10_000):
        try:
            with store.engine.write() as tx:
                tx.run(
                    "INSERT INTO bookings (reference, account, environment, station, profile,"
                    " quote_id, rate_id, sent_at, updated, outcome)"
                    " VALUES (?, 'filler', 'sandbox', 'test', 'filler', 'q', 'r', '', '',"
                    " 'failed')",
                    (f"FILL{number:06d}" + "x" * 200,),
                )
        except StoreError:
            return
    raise AssertionError("the store never filled up")
