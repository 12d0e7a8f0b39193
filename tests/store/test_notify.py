"""A batch's watchers learn of another station's changes as they are committed: PostgreSQL
notifies them (LISTEN/NOTIFY on ``freight_batch``); SQLite has no notifications, its watchers
poll."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.store import Store, open_store


@pytest.fixture
def two(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    """Two connections to one PostgreSQL store, as two stations have."""
    here, there = open_store(tmp_path, postgres_url), open_store(tmp_path, postgres_url)
    yield here, there
    here.close()
    there.close()


def test_another_stations_booking_wakes_the_batchs_watcher_at_once(
    two: tuple[Store, Store],
) -> None:
    here, there = two
    batch = here.open_batch("acme", "/orders/a.csv")
    other = here.open_batch("acme", "/orders/b.csv")
    here.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])
    changes = here.listen(batch.id)
    assert changes is not None
    try:
        there.save_orders(other.id, [("SO-9", "rated", {"key": "SO-9"}, 0)])
        assert not changes.wait(0.5)  # another batch's change is not this one's
        started = time.monotonic()
        there.save_orders(batch.id, [("SO-1", "booked", {"key": "SO-1"}, 0)])
        assert changes.wait(10.0)
        assert time.monotonic() - started < 2.0  # told, not found by a poll
        assert there.claim(batch.id, "pack-2", ["SO-2"], by="h:2") == []  # nothing taken
        there.save_orders(batch.id, [("SO-2", "rated", {"key": "SO-2"}, 1)])
        assert changes.wait(10.0)
        assert there.claim(batch.id, "pack-2", ["SO-2"], by="h:2") == ["SO-2"]
        assert changes.wait(10.0)  # a claim changes who holds the order: told too
    finally:
        changes.close()


def test_a_sqlite_store_has_no_notifications_its_watchers_poll(tmp_path: Path) -> None:
    store = open_store(tmp_path, "")
    try:
        assert store.listen(store.open_batch("acme", "/orders/a.csv").id) is None
    finally:
        store.close()


def test_a_broken_listening_connection_leaves_the_watcher_polling(
    two: tuple[Store, Store],
) -> None:
    here, there = two
    batch = here.open_batch("acme", "/orders/a.csv")
    changes = here.listen(batch.id)
    assert changes is not None
    assert changes.fileno() >= 0
    try:
        # The database ends the listening connection (a restart, a network cut, an admin).
        there.engine.read(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE query LIKE ? AND pid != pg_backend_pid()",
            ("LISTEN%",),
        )
        started = time.monotonic()
        assert not changes.wait(0.5)  # no error: the wait times out as a poll period would
        assert time.monotonic() - started >= 0.45
        assert not changes.poll()
        assert changes.fileno() == -1  # closed: the caller reads the store on its own
        here.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])  # the store works
    finally:
        changes.close()
