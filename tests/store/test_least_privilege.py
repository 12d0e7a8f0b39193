"""Ordinary runs need only SELECT, INSERT, UPDATE and DELETE on PostgreSQL: the tables are made
by ``freight store migrate`` (a role that may create them), never by a station's run."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import psycopg
import pytest

from tui.ledger import OrderClaim
from tui.store import StoreError, open_store
from tui.store.days import close_day
from tui.store.ledger import StoreLedger
from tui.store.pace import StorePace

GRANTS = (
    "REVOKE ALL ON SCHEMA public FROM PUBLIC",
    "GRANT USAGE ON SCHEMA public TO freight_station",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO freight_station",
    "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO freight_station",
)


def _station_url(postgres_url: str) -> str:
    """The database as the least-privilege role docs/team.md recommends sees it."""
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "DO $$ BEGIN CREATE ROLE freight_station LOGIN;"
            " EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
        for grant in GRANTS:
            admin.execute(grant)
    user = postgres_url.partition("://")[2].partition("@")[0]
    return postgres_url.replace(f"://{user}@", "://freight_station@", 1)


def test_a_station_role_with_row_rights_only_does_every_ordinary_thing(
    postgres_url: str, tmp_path: Path
) -> None:
    station = _station_url(postgres_url)
    store = open_store(tmp_path, station)
    try:
        with (
            pytest.raises(psycopg.errors.InsufficientPrivilege),  # the role is what it says
            psycopg.connect(station, autocommit=True) as conn,
        ):
            conn.execute("CREATE TABLE probe (x INTEGER)")
        assert store.version() > 0
        batch = store.open_batch("acme", "/orders/a.csv")
        store.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])
        assert store.claim(batch.id, "pack-1", ["SO-1"]) == ["SO-1"]
        store.renew(batch.id)
        store.release(batch.id)
        ledger = StoreLedger(store, "pack-1", "sandbox")
        sent = ledger.sent("acme", "Q1", "R1", "FRTAAAAAAAAAA", order=OrderClaim("SO-1", None))
        ledger.settle(sent, "booked", pro_number="PRO1", shipment_id="S1")
        assert ledger.of_order("acme", "SO-1") is not None
        store.put_named("mappings", "acme", "wms", {"columns": {}})
        assert store.named("mappings", "acme") == {"wms": {"columns": {}}}
        pace = StorePace(store, "acme", "sandbox", 20)
        pace.reserve()
        pace.pause(0.01)
        close_day(store, date(2026, 11, 24), "sandbox", "pack-1")
        listener = store.listen(batch.id)
        assert listener is not None
        listener.close()
    finally:
        store.close()
    again = open_store(tmp_path, station)  # a second run as well
    again.close()


def test_an_unmigrated_database_is_refused_with_what_to_do(
    postgres_server: object, tmp_path: Path
) -> None:
    from tests.postgres_fixtures import PostgresServer

    assert isinstance(postgres_server, PostgresServer)
    name = "freight_unmigrated"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = postgres_server.url(name)
    try:
        with pytest.raises(StoreError, match=r"no Freight tables.*freight store migrate"):
            open_store(tmp_path, url)
        with psycopg.connect(url) as conn:  # and it made nothing trying
            assert conn.execute("SELECT to_regclass('schema_version')").fetchone() == (None,)
        open_store(tmp_path, url, migrate=True).close()
        open_store(tmp_path, url).close()
    finally:
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
