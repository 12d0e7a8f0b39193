"""After the database server dropped its connections (a restart, a failover) the store
connects again by itself, and says so while it waits."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from tui.store import StoreError, open_store
from tui.store.engine import NOTICES


def _drop_connections(url: str) -> None:
    """What a restart does to every client: their server processes end."""
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid != pg_backend_pid()"
        )


def test_a_dropped_connection_is_made_again(postgres_url: str, tmp_path: Path) -> None:
    store = open_store(tmp_path, postgres_url)
    try:
        batch = store.open_batch("acme", "/orders/a.csv")
        _drop_connections(postgres_url)
        assert [b.id for b in store.batches("acme")] == [batch.id]  # a read: asked again
        _drop_connections(postgres_url)
        with pytest.raises(StoreError):  # a write cut off is an error, never a guess ...
            store.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])
        store.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])  # ... then on
        assert [o.key for o in store.orders(batch.id)] == ["SO-1"]
    finally:
        store.close()


def test_a_server_that_stays_away_is_said_while_waiting(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.store.postgres

    store = open_store(tmp_path, postgres_url)
    said: list[str] = []
    NOTICES.append(said.append)
    try:
        monkeypatch.setattr(tui.store.postgres, "RECONNECT_S", 0.3)
        engine = store.engine
        assert isinstance(engine, tui.store.postgres.PostgresEngine)
        engine._url = postgres_url.replace("host=", "host=/nonexistent")  # the server is away
        _drop_connections(postgres_url)
        with pytest.raises(StoreError, match="cannot be used"):
            store.batches()
        assert said == [f"the store {store.where} cannot be reached: reconnecting…"]
        engine._url = postgres_url  # it is back
        assert store.batches() == []
    finally:
        NOTICES.remove(said.append)
        store.close()
