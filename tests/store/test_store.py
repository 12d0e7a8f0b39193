"""The store keeps every promise on both engines: a versioned schema, one booking per order
and per reference, claims that let stations share a batch, and errors that say what is hurt."""

from __future__ import annotations

import re
import socket
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path

import pytest

from tests.store.conftest import OpenStore
from tui.ledger import AlreadySentError, OrderClaim, OrderTakenError
from tui.store import Store, StoreError, open_store
from tui.store.ledger import StoreLedger
from tui.store.schema import VERSION
from tui.store.sqlite import FILE_NAME, filesystem_type, refuse_network


def test_the_schema_is_made_on_first_use_and_versioned(connect: OpenStore) -> None:
    first = connect()
    assert first.version() == VERSION
    assert connect().migrate() == (VERSION, VERSION)  # a second open changes nothing
    with first.engine.write() as tx:
        tx.run("UPDATE schema_version SET version = ?", (VERSION + 1,))
    with pytest.raises(StoreError, match=r"newer than this Freight .*upgrade Freight"):
        connect()


def test_an_order_is_booked_once_whoever_asks(connect: OpenStore) -> None:
    cron = StoreLedger(connect(), "pack-1:pts/0", "sandbox")
    terminal = StoreLedger(connect(), "pack-2:pts/3", "sandbox")
    sent = cron.sent("acme", "Q1", "R1", "FRTAAAAAAAAAA", order=OrderClaim("SO-1", None))
    booked = cron.settle(sent, "booked", pro_number="PRO123", shipment_id="S9")
    with pytest.raises(OrderTakenError) as taken:
        terminal.sent("acme", "Q2", "R2", "FRTBBBBBBBBBB", order=OrderClaim("SO-1", None))
    holder = taken.value.record
    assert (holder.reference, holder.station, holder.pro_number) == (
        "FRTAAAAAAAAAA",
        "pack-1:pts/0",
        "PRO123",
    )
    assert holder.outcome == "booked"
    assert holder.sent_at == sent.sent_at
    with pytest.raises(AlreadySentError):
        terminal.sent("acme", "Q1", "R1", "FRTAAAAAAAAAA")
    # Another environment or account is another order.
    StoreLedger(connect(), "pack-2", "production").sent(
        "acme", "Q3", "R3", "FRTCCCCCCCCCC", order=OrderClaim("SO-1", None)
    )
    terminal.sent("other", "Q4", "R4", "FRTDDDDDDDDDD", order=OrderClaim("SO-1", None))
    assert terminal.latest("FRTAAAAAAAAAA") == booked
    assert terminal.of_order("acme", "SO-1") == booked


def test_a_refused_booking_gives_its_order_up(store: Store) -> None:
    ledger = StoreLedger(store, "pack-1", "sandbox")
    first = ledger.sent("acme", "Q1", "R1", "FRTAAAAAAAAAA", order=OrderClaim("SO-1", None))
    ledger.settle(first, "failed", note="refused: bad zip")
    again = ledger.sent("acme", "Q1", "R1", "FRTBBBBBBBBBB", order=OrderClaim("SO-1", None))
    assert ledger.of_order("acme", "SO-1") == again
    assert [r.reference for r in ledger.bookings("acme")] == ["FRTAAAAAAAAAA", "FRTBBBBBBBBBB"]


def test_many_stations_racing_for_one_order_send_it_once(connect: OpenStore) -> None:
    ledgers = [StoreLedger(connect(), f"pack-{n}", "sandbox") for n in range(8)]
    start = threading.Barrier(len(ledgers))
    won: list[str] = []
    lost: list[str] = []

    def race(n: int) -> None:
        start.wait()
        try:
            ledgers[n].sent("acme", "Q", "R", f"FRT{n:010d}", order=OrderClaim("SO-7", None))
        except OrderTakenError as error:
            lost.append(error.record.reference)
        else:
            won.append(f"FRT{n:010d}")

    threads = [threading.Thread(target=race, args=(n,)) for n in range(len(ledgers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    assert lost == won * (len(ledgers) - 1)  # every loser was told who has it


def test_stations_share_a_batch_by_claims_under_a_lease(connect: OpenStore) -> None:
    one, two = connect(), connect()
    batch = one.open_batch("acme", "/orders/a.csv")
    keys = [f"SO-{n}" for n in range(6)]
    one.save_orders(batch.id, [(k, "rated", {"key": k}, n) for n, k in enumerate(keys)])
    one.save_orders(batch.id, [("SO-0", "booked", {"key": "SO-0"}, 0)])
    mine = one.claim(batch.id, "pack-1", keys[:4], by="h:1")
    theirs = two.claim(batch.id, "pack-2", keys, by="h:2")
    assert mine == ["SO-1", "SO-2", "SO-3"]  # a booked order is nobody's to claim
    assert theirs == ["SO-4", "SO-5"]
    assert two.stations(batch.id) == {"pack-1": {"rated": 3}, "pack-2": {"rated": 2}}
    # A lease that ran out (its station stopped renewing) frees the orders it held.
    later = datetime.now(UTC) + timedelta(seconds=61)
    assert two.claim(batch.id, "pack-2", keys, by="h:2", moment=later) == keys[1:]
    two.release(batch.id, by="h:2")
    assert one.claim(batch.id, "pack-1", ["SO-4"], by="h:1") == ["SO-4"]


def test_a_claim_held_by_a_dead_process_of_this_host_is_free(store: Store) -> None:
    from tui.store.core import holder

    batch = store.open_batch("acme", "/orders/a.csv")
    store.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])
    host = socket.gethostname()
    alive = f"0123456789abcdef@{host}:1"
    assert store.claim(batch.id, "pack-1", ["SO-1"], by=alive) == ["SO-1"]
    assert store.claim(batch.id, "pack-2", ["SO-1"], by=holder()) == []
    store.release(batch.id, by=alive)
    gone = f"0123456789abcdef@{host}:999999999"
    assert store.claim(batch.id, "pack-1", ["SO-1"], by=gone) == ["SO-1"]
    assert store.claim(batch.id, "pack-2", ["SO-1"], by=holder()) == ["SO-1"]  # it is gone


def test_a_holder_is_a_random_id_of_each_process() -> None:
    """Two machines of one host name (cloned VMs, containers), or a pid used again, never
    hold each other's claims: the holder is a random id, not the host and pid."""
    from tui.store.core import holder

    here = holder()
    assert here == holder()  # one id per process
    assert re.fullmatch(r"[0-9a-f]{16}@.+:\d+", here), here
    code = "from tui.store.core import holder; print(holder())"
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert other.partition("@")[0] != here.partition("@")[0]
    # A forked child is another process: an id of its own. The fork is made in a process of
    # one thread (forking the test's own, which has threads, is deprecated from Python 3.12).
    forks = (
        "import os; from tui.store.core import holder; here = holder(); read, write = os.pipe()\n"
        "if os.fork() == 0:\n os.write(write, holder().encode()); os._exit(0)\n"
        "os.wait(); os.close(write); print(here, os.read(read, 200).decode())"
    )
    parent, forked = subprocess.run(
        [sys.executable, "-W", "error", "-c", forks], capture_output=True, text=True, check=True
    ).stdout.split()
    assert forked.partition("@")[0] != parent.partition("@")[0]


def test_leases_are_timed_by_the_database_clock(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A station whose own clock is an hour off still leases for a minute of the store's."""
    import tui.store.core as core

    batch = store.open_batch("acme", "/orders/a.csv")
    store.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])
    if store.dialect.name == "postgresql":
        real = store.engine.read("SELECT clock_timestamp()")[0][0].astimezone(UTC)

        class Wrong(datetime):
            @classmethod
            def now(cls, tz: tzinfo | None = None) -> Wrong:
                moment = real - timedelta(hours=1)
                return cls.fromtimestamp(moment.timestamp(), tz)

        monkeypatch.setattr(core, "datetime", Wrong)
    else:
        real = datetime.now(UTC)
    assert store.claim(batch.id, "pack-1", ["SO-1"], by="h:1") == ["SO-1"]
    lease = store.orders(batch.id)[0].lease_until
    assert lease is not None
    assert timedelta(seconds=50) < lease - real < timedelta(seconds=70)
    store.renew(batch.id, by="h:1")
    renewed = store.orders(batch.id)[0].lease_until
    assert renewed is not None
    assert timedelta(seconds=50) < renewed - real < timedelta(seconds=70)


def test_an_unreadable_record_is_an_error_never_new(store: Store) -> None:
    batch = store.open_batch("acme", "/orders/a.csv")
    store.save_orders(batch.id, [("SO-1", "rated", {"key": "SO-1"}, 0)])
    with store.engine.write() as tx:
        tx.run("UPDATE orders SET state = ? WHERE key = ?", ("{torn", "SO-1"))
    with pytest.raises(StoreError, match=r"order SO-1 of batch \d+ unreadable"):
        store.orders(batch.id)
    ledger = StoreLedger(store, "pack-1", "sandbox")
    ledger.sent("acme", "Q", "R", "FRTAAAAAAAAAA")
    with store.engine.write() as tx:
        tx.run(
            "UPDATE bookings SET sent_at = ? WHERE reference = ?", ("yesterday", "FRTAAAAAAAAAA")
        )
    with pytest.raises(StoreError, match="unreadable time 'yesterday'"):
        ledger.latest("FRTAAAAAAAAAA")


def test_a_damaged_sqlite_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"this is not a database, it is a shopping list" * 100)
    with pytest.raises(StoreError) as error:
        open_store(tmp_path, "")
    text = str(error.value)
    assert str(tmp_path / FILE_NAME) in text
    assert "the file is damaged" in text
    assert "restore it from a backup" in text


def test_a_data_dir_on_a_network_filesystem_is_refused(tmp_path: Path) -> None:
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        "22 1 0:21 / / rw,relatime - ext4 /dev/sda1 rw\n"
        f"40 22 0:40 / {tmp_path}/share rw,relatime - nfs4 nas:/export rw\n",
        encoding="utf-8",
    )
    (tmp_path / "share").mkdir()
    assert filesystem_type(tmp_path / "share" / "freight", str(mountinfo)) == "nfs4"
    assert filesystem_type(tmp_path, str(mountinfo)) == "ext4"
    with pytest.raises(StoreError, match=r"network filesystem \(nfs4\).*FREIGHT_STORE_URL"):
        refuse_network(tmp_path / "share" / "freight", str(mountinfo))
    refuse_network(tmp_path / "local", str(mountinfo))


def test_a_url_that_is_not_postgresql_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="must be a postgresql:// URL"):
        open_store(tmp_path, "mysql://db/freight")


def test_sqlite_writes_wait_for_each_other(tmp_path: Path) -> None:
    store = open_store(tmp_path, "")
    try:
        mode = store.engine.read("PRAGMA journal_mode")[0][0]
        assert mode == "wal"
        outside = sqlite3.connect(tmp_path / FILE_NAME, timeout=0.1)
        outside.execute("BEGIN IMMEDIATE")  # someone else is writing
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            sqlite3.connect(tmp_path / FILE_NAME, timeout=0.1).execute("BEGIN IMMEDIATE")
        outside.rollback()
        outside.close()
        store.set_settings(store.open_batch("acme", "/a.csv").id, {"ok": True})
    finally:
        store.close()


def test_a_new_store_opened_while_another_station_writes_waits_for_it(tmp_path: Path) -> None:
    # Two stations opening a new store together: the first is still writing the new file in
    # SQLite's rollback mode when the second asks for WAL. SQLite answers that "locked" at
    # once, without its busy wait; the second station must wait for the first, not fail.
    first = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None, check_same_thread=False)
    first.execute("CREATE TABLE first_station (a)")
    first.execute("BEGIN IMMEDIATE")
    first.execute("INSERT INTO first_station VALUES (1)")
    done = threading.Timer(0.5, lambda: first.execute("COMMIT"))
    done.start()
    try:
        store = open_store(tmp_path, "")
    finally:
        done.join()
        first.close()
    try:
        assert store.engine.read("PRAGMA journal_mode")[0][0] == "wal"
        assert store.engine.read("SELECT a FROM first_station") == [(1,)]
    finally:
        store.close()
