"""The store-loss matrix: whatever happens to the store, an order is booked once. Each case
books a batch, does to the store what people do (delete it, leave it at 0 bytes, move it
aside and import it, point at a new database, move from SQLite to PostgreSQL, restore an
older backup), books again, and counts the sandbox's shipments before and after: on SQLite
and on PostgreSQL. The service is the witness: an order the store has no booking of is
looked up by its deterministic reference before it is sent."""

from __future__ import annotations

import argparse
import io
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.batch.conftest import MONDAY, write
from tests.batch.test_book import ORDERS, sandbox
from tests.batch.test_engine import client_for
from tests.postgres_fixtures import PostgresServer
from tests.store.test_lost import Counting
from tui.api.client import FreightClient
from tui.batch.book import book_orders, booking_request
from tui.batch.engine import Batch, source_id
from tui.batch.fields import guess_mapping
from tui.batch.orders import context_for
from tui.batch.pace import Pace
from tui.batch.source import read_file
from tui.batch.store import SharedBatchStore
from tui.booking import BookingEngine
from tui.config.paths import data_dir
from tui.demo_profile import demo_profile
from tui.ledger import BookingLedger
from tui.sandbox.app import SandboxApp
from tui.store import StoreError, core, open_ledger, open_store
from tui.store.history import events

__all__ = ["sandbox"]  # the batch booking tests' sandbox, a fixture

pytestmark = pytest.mark.slow  # each case books batches twice: 1-7 s on a busy machine

KEYS = ("B1", "B2", "B3")


@pytest.fixture
def url(store_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The store of the case, as every process (app, command) finds it: the environment."""
    monkeypatch.setenv("FREIGHT_STORE_URL", store_url)
    return store_url


@pytest.fixture
def orders(tmp_path: Path) -> Path:
    return write(tmp_path / "orders.csv", ORDERS)


def shipments(sandbox: SandboxApp) -> int:
    """How many shipments the service holds (the witness)."""
    with sandbox.db.lock() as conn:
        return int(conn.execute("SELECT COUNT(*) FROM shipments").fetchone()[0])


def open_at(path: Path, profile: str = "demo") -> Batch:
    sheet = read_file(path)
    store = SharedBatchStore.in_dir(data_dir())
    context = context_for(demo_profile(), MONDAY)
    return Batch.open(store, profile, source_id(path), sheet, guess_mapping(sheet.headers), context)


async def run(client: FreightClient, path: Path, profile: str = "demo") -> Batch:
    """``freight batch rate`` then ``freight batch book``: two processes, each remembering
    nothing of the other (which of them made the store's tables, say)."""
    core._MADE_HERE.clear()
    rating = open_at(path, profile)
    try:
        await rating.rate(client, pace=Pace(None))
    finally:
        rating.store.close()
    core._MADE_HERE.clear()  # `freight batch book`: a new process
    batch = open_at(path, profile)
    try:
        engine = BookingEngine(client, open_ledger(data_dir(), "sandbox"), profile)
        try:
            await book_orders(batch, engine, client, folder=None, pace=Pace(None))
        finally:
            engine.ledger.store.close()  # type: ignore[attr-defined]
    finally:
        batch.store.close()
    return batch


async def cli(*words: str) -> str:
    """A ``freight store`` command; what it printed."""
    from tui.commands.store import run as store_run

    parsed = argparse.Namespace(store_command=words[0], file=words[1] if words[1:] else None)
    out = io.StringIO()
    assert await store_run(parsed, out, io.StringIO()) == 0
    return out.getvalue()


def lose(url: str) -> None:
    """The store is gone: the file deleted (SQLite), the tables dropped (PostgreSQL)."""
    if url:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP SCHEMA public CASCADE")
            conn.execute("CREATE SCHEMA public")
        open_store(data_dir(), url, migrate=True).close()  # `freight store migrate`, as told
        return
    for suffix in ("", "-wal", "-shm"):
        (data_dir() / f"freight.sqlite3{suffix}").unlink(missing_ok=True)


def emptied() -> Path:
    """The store file left at 0 bytes; its path."""
    path = data_dir() / "freight.sqlite3"
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"")
    return path


def moved_aside(name: str) -> Path:
    """The store file renamed in the data dir (its WAL checkpointed by its last close)."""
    aside = data_dir() / name
    (data_dir() / "freight.sqlite3").rename(aside)
    for suffix in ("-wal", "-shm"):
        (data_dir() / f"freight.sqlite3{suffix}").unlink(missing_ok=True)
    return aside


def all_booked(batch: Batch) -> None:
    assert {key: batch.state(key).status for key in KEYS} == dict.fromkeys(KEYS, "booked")


async def test_a_deleted_store_books_nothing_again(
    url: str, orders: Path, sandbox: SandboxApp
) -> None:
    gate = Counting(sandbox)
    async with client_for(gate) as client:
        first = await run(client, orders)
        before = shipments(sandbox)
        lose(url)
        gate.searches = 0
        again = await run(client, orders)
    assert before == 5 + 3  # the seeded five and this batch's three
    assert shipments(sandbox) == before
    assert gate.searches == 3  # one look-up per order the new store had no booking of
    all_booked(again)
    for key in KEYS:
        assert again.state(key).pro_number == first.state(key).pro_number
        assert again.state(key).shipment_id == first.state(key).shipment_id
    ledger = open_ledger(data_dir(), "sandbox")
    try:
        record = ledger.latest(again.state("B1").reference)
        assert record is not None
        assert record.note is not None
        assert "adopted" in record.note
    finally:
        ledger.store.close()


async def test_a_store_file_of_0_bytes_is_damaged_not_new(
    orders: Path, sandbox: SandboxApp
) -> None:
    async with client_for(Counting(sandbox)) as client:
        await run(client, orders)
        before = shipments(sandbox)
        path = emptied()  # a full disk, an interrupted copy
        with pytest.raises(StoreError, match=r"empty .*damaged, not new") as hurt:
            open_store(data_dir())
        assert "permissions" not in str(hurt.value)  # said once, as it is
        assert path.stat().st_size == 0  # left as it was found
        moved_aside("freight-damaged.sqlite3")  # the message's advice
        again = await run(client, orders)
    assert shipments(sandbox) == before
    all_booked(again)


async def test_a_store_moved_aside_and_imported_keeps_every_booking(
    store_url: str, orders: Path, sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Counting(sandbox)
    async with client_for(gate) as client:
        await run(client, orders)  # on SQLite in the data dir
        before = shipments(sandbox)
        aside = moved_aside("freight-old.sqlite3")
        monkeypatch.setenv("FREIGHT_STORE_URL", store_url)  # a new SQLite, or PostgreSQL
        said = await cli("import", str(aside))
        assert "3 bookings, 1 batches, 3 orders" in said
        twice = await cli("import", str(aside))
        assert "0 bookings, 0 batches, 0 orders" in twice.split("freight-old")[1]
        gate.searches = 0
        again = await run(client, orders)
    assert shipments(sandbox) == before
    assert gate.searches == 0  # the imported ledger knows every booking
    all_booked(again)
    status = await cli("status")
    assert "imported by" in status
    assert "verified  no: imported" in status


async def test_a_station_moved_from_sqlite_to_postgresql_keeps_its_bookings(
    postgres_url: str, orders: Path, sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Counting(sandbox)
    async with client_for(gate) as client:
        await run(client, orders)
        before = shipments(sandbox)
        monkeypatch.setenv("FREIGHT_STORE_URL", postgres_url)
        said = await cli("import")  # the data dir's own SQLite store comes in
        assert "3 bookings, 1 batches, 3 orders" in said
        gate.searches = 0
        again = await run(client, orders)
    assert shipments(sandbox) == before
    assert gate.searches == 0
    all_booked(again)


@pytest.fixture
def second_database(postgres_server: PostgresServer) -> Iterator[str]:
    import psycopg

    name = f"freight_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield postgres_server.url(name)
    with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_a_new_postgresql_database_after_migrate_books_nothing_again(
    postgres_url: str,
    second_database: str,
    orders: Path,
    sandbox: SandboxApp,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FREIGHT_STORE_URL", postgres_url)
    async with client_for(Counting(sandbox)) as client:
        await run(client, orders)
        before = shipments(sandbox)
        monkeypatch.setenv("FREIGHT_STORE_URL", second_database)
        assert "schema version" in await cli("migrate")
        again = await run(client, orders)
    assert shipments(sandbox) == before
    all_booked(again)
    store = open_store(data_dir())
    try:
        assert [e.event for e in events(store)] == ["created"]
    finally:
        store.close()


async def test_an_older_backup_restored_books_nothing_again(
    url: str, orders: Path, sandbox: SandboxApp, tmp_path: Path
) -> None:
    async with client_for(Counting(sandbox)) as client:
        rated = open_at(orders)
        await rated.rate(client, pace=Pace(None))
        rated.store.close()
        backup = _backup(url, tmp_path)  # taken before anything was booked
        await run(client, orders)
        before = shipments(sandbox)
        _restore(url, backup)  # nothing in it says it is behind
        again = await run(client, orders)
    assert shipments(sandbox) == before
    all_booked(again)


def _backup(url: str, folder: Path) -> object:
    if not url:
        copy = folder / "backup.sqlite3"
        shutil.copy(data_dir() / "freight.sqlite3", copy)
        return copy
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return {
            table: conn.execute(f"SELECT * FROM {table}").fetchall()
            for table in ("batches", "orders", "bookings")
        }


def _restore(url: str, backup: object) -> None:
    if not url:
        assert isinstance(backup, Path)
        for suffix in ("-wal", "-shm"):
            (data_dir() / f"freight.sqlite3{suffix}").unlink(missing_ok=True)
        shutil.copy(backup, data_dir() / "freight.sqlite3")
        return
    import psycopg

    assert isinstance(backup, dict)
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("DELETE FROM paperwork")
        conn.execute("DELETE FROM bookings")
        conn.execute("DELETE FROM orders")
        conn.execute("DELETE FROM batches")
        for table in ("batches", "orders", "bookings"):
            for row in backup[table]:
                marks = ", ".join("%s" for _ in row)
                conn.execute(f"INSERT INTO {table} VALUES ({marks})", row)


async def test_a_reference_on_two_shipments_is_not_booked_a_third_time(
    url: str, orders: Path, sandbox: SandboxApp, tmp_path: Path
) -> None:
    async with client_for(Counting(sandbox)) as client:
        first = await run(client, orders)
        reference = first.state("B1").reference
        assert reference is not None
        # somewhere else, the same order booked again under its reference (another rate)
        other = open_at(orders, "elsewhere")
        await other.rate(client, pace=Pace(None))
        order = next(o for o in other.orders if o.key == "B1")
        request = booking_request(order, other.state("B1"))
        other.store.close()
        stray = BookingEngine(client, BookingLedger(tmp_path / "stray.jsonl"), "elsewhere")
        assert (await stray.book(request, reference=reference)).status == "booked"
        before = shipments(sandbox)
        lose(url)
        again = await run(client, orders)
    assert shipments(sandbox) == before  # no third
    assert again.state("B1").status == "unknown"
    assert {again.state(key).status for key in ("B2", "B3")} == {"booked"}
    ledger = open_ledger(data_dir(), "sandbox")
    try:
        record = ledger.latest(reference)
        assert record is not None
        assert record.outcome == "unknown"
        assert record.note is not None
        assert "2 shipments on the service carry" in record.note
    finally:
        ledger.store.close()


async def test_one_account_under_two_profiles_shares_its_bookings(
    url: str, orders: Path, sandbox: SandboxApp
) -> None:
    async with client_for(Counting(sandbox)) as client:  # one account: one client ID
        first = await run(client, orders, "warehouse")
        before = shipments(sandbox)
        second = await run(client, orders, "dock")
    assert shipments(sandbox) == before
    all_booked(second)
    for key in KEYS:
        assert second.state(key).reference == first.state(key).reference


async def test_the_services_already_booked_answer_is_a_booking(
    url: str, orders: Path, sandbox: SandboxApp, tmp_path: Path
) -> None:
    async with client_for(Counting(sandbox)) as client:
        batch = await run(client, orders)
        order = next(o for o in batch.orders if o.key == "B2")
        request = booking_request(order, batch.state("B2"))  # its quote and rate, booked
        before = shipments(sandbox)
        lose(url)  # a store that does not know it
        engine = BookingEngine(client, open_ledger(data_dir(), "sandbox"), "demo")
        try:
            outcome = await engine.book(request)  # another reference: the service says 409
            record = engine.ledger.latest(outcome.reference)
        finally:
            engine.ledger.store.close()  # type: ignore[attr-defined]
    assert shipments(sandbox) == before
    assert outcome.status == "booked"
    assert outcome.shipment_id == batch.state("B2").shipment_id
    assert record is not None
    assert record.outcome == "booked"
    assert record.pro_number == batch.state("B2").pro_number
