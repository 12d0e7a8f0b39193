"""Today's local state (the JSON Lines ledger, batches.sqlite3, saved mappings, address books)
moves into the store, on both engines; a second import adds nothing, and a new SQLite store
takes it in by itself, so an upgrade never forgets a booking."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.store.conftest import OpenStore
from tui.cli import main
from tui.ledger import BookingLedger, Lane
from tui.store import open_store
from tui.store.importing import import_local
from tui.store.ledger import StoreLedger
from tui.store.schema import VERSION

OLD_BATCHES = """
CREATE TABLE batches (id INTEGER PRIMARY KEY, profile TEXT NOT NULL, source TEXT NOT NULL,
    created TEXT NOT NULL, updated TEXT NOT NULL, settings TEXT NOT NULL DEFAULT '{}',
    UNIQUE (profile, source));
CREATE TABLE orders (batch_id INTEGER NOT NULL, key TEXT NOT NULL, status TEXT NOT NULL,
    state TEXT NOT NULL, updated TEXT NOT NULL, PRIMARY KEY (batch_id, key));
INSERT INTO batches VALUES (7, 'acme', '/orders/a.csv', '2026-11-20T10:00:00+00:00',
    '2026-11-20T10:05:00+00:00', '{"rules": {}}');
INSERT INTO orders VALUES (7, 'SO-1', 'booking',
    '{"status": "booking", "reference": "FRTOLD0000001", "position": 2}',
    '2026-11-20T10:05:00+00:00');
INSERT INTO orders VALUES (7, 'SO-2', 'rated', '{"status": "rated", "position": 3}',
    '2026-11-20T10:05:00+00:00');
"""


def old_state(data: Path) -> None:
    """A data dir as Freight kept it before the store: one booking in flight, one booked."""
    data.mkdir(parents=True, exist_ok=True)
    ledger = BookingLedger.in_dir(data)
    ledger.sent("acme", "Q1", "R1", "FRTOLD0000001", lane=Lane("60607", "30303"))
    booked = ledger.sent("acme", "Q2", "R2", "FRTOLD0000002")
    ledger.settle(booked, "booked", pro_number="PRO-77")
    with sqlite3.connect(data / "batches.sqlite3") as conn:
        conn.executescript(OLD_BATCHES)
    mappings = {"v": 1, "profiles": {"acme": {"wms": {"columns": {"order": "Order"}}}}}
    (data / "batch-mappings.json").write_text(json.dumps(mappings), encoding="utf-8")


def test_the_old_state_comes_in_once(connect: OpenStore, tmp_path: Path) -> None:
    data = tmp_path / "old"  # another data dir: a new SQLite store imports its own by itself
    old_state(data)
    store = connect()
    books = {"acme": [{"label": "Atlanta DC", "postal_code": "30336"}]}
    first = import_local(store, data, {"acme": "sandbox"}, books)
    assert first.text == "2 bookings, 1 batches, 2 orders, 1 mappings, 1 addresses"
    assert import_local(store, data, {"acme": "sandbox"}, books).text == (
        "0 bookings, 0 batches, 0 orders, 0 mappings, 0 addresses"
    )
    ledger = StoreLedger(store, "pack-1", "sandbox")
    in_flight = ledger.latest("FRTOLD0000001")
    assert in_flight is not None
    assert in_flight.outcome == "sent"  # never "new": the next run searches, never resends
    assert in_flight.lane == Lane("60607", "30303")
    booked = ledger.latest("FRTOLD0000002")
    assert booked is not None
    assert booked.pro_number == "PRO-77"
    (batch,) = store.batches("acme")
    assert batch.counts == {"booking": 1, "rated": 1}
    assert [o.key for o in store.orders(batch.id)] == ["SO-1", "SO-2"]
    assert store.named("mappings", "acme") == {"wms": {"columns": {"order": "Order"}}}
    assert store.named("address_book", "acme")["Atlanta DC (30336)"]["postal_code"] == "30336"


def test_a_new_sqlite_store_takes_the_old_state_in_by_itself(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old_state(data)
    store = open_store(data, "")
    try:
        assert StoreLedger(store, "pack-1", "sandbox").count() == 2
        assert store.batches("acme")[0].counts == {"booking": 1, "rated": 1}
    finally:
        store.close()


def test_freight_store_import_and_status(
    isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_state(isolated_home / "data" / "freight-tui")
    assert main(["store", "status"]) == 0  # the first use imported it already
    shown = capsys.readouterr().out
    assert f"schema    version {VERSION}" in shown
    assert "bookings  2" in shown
    assert "addresses 0" in shown  # the config's address books come in on first use of them
    assert main(["store", "import"]) == 0
    assert "0 bookings, 0 batches, 0 orders, 0 mappings" in capsys.readouterr().out
