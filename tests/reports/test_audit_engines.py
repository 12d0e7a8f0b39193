"""The audit's booked prices read alike on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.store.older import before_version_8
from tui.reports.audit import booked_prices
from tui.store import Store, open_store
from tui.store.schema import VERSION

NOW = datetime(2026, 11, 30, 15, 0, tzinfo=UTC).isoformat()


@pytest.fixture
def any_store(tmp_path: Path, store_url: str) -> Iterator[Store]:
    opened = open_store(tmp_path / "data", url=store_url)
    yield opened
    opened.close()


def _put(store: Store, rows: list[tuple[str, str | None, str, dict[str, Any] | None]]) -> None:
    """Booked ledger rows: (shipment id, PRO, pickup day, rate)."""
    with store.engine.write() as tx:
        tx.many(
            "INSERT INTO bookings (reference, account, environment, station, profile, quote_id,"
            " rate_id, sent_at, updated, outcome, shipment_id, pro_number, pickup_date, rate)"
            " VALUES (?, 'acct', 'sandbox', 'st', 'acct', 'q', 'r', ?, ?, 'booked', ?, ?, ?, ?)",
            [
                (f"FRT-{sid}", NOW, NOW, sid, pro, day, None if rate is None else json.dumps(rate))
                for sid, pro, day, rate in rows
            ],
        )


def test_booked_prices_read_the_same_rows_on_both_engines(any_store: Store) -> None:
    _put(
        any_store,
        [
            ("s1", "P1", "2026-11-20", {"carrier": "Blue", "total": "1234.56", "currency": "usd"}),
            ("s2", None, "2026-11-21", {"carrier": "Magnolia", "total": 99.99, "currency": "CAD"}),
            ("s3", "P3", "2026-11-22", {"total": "10"}),  # no carrier, no currency: USD
            ("s4", "P4", "2026-11-23", {"carrier": "Bluecrest", "currency": "USD"}),  # no total
            ("s5", "P5", "2026-11-24", None),  # no rate kept
            ("s6", "P6", "2026-10-01", {"carrier": "Early", "total": "5.00", "currency": "USD"}),
        ],
    )  # fmt: skip
    found = booked_prices(any_store.engine, date(2026, 11, 1), date(2026, 11, 30))
    assert found == {
        "s1": ("s1", "P1", "", "2026-11-20", "Blue", "USD", 123456),
        "s2": ("s2", "", "", "2026-11-21", "Magnolia", "CAD", 9999),
        "s3": ("s3", "P3", "", "2026-11-22", "", "USD", 1000),
    }
    assert set(booked_prices(any_store.engine)) == {"s1", "s2", "s3", "s6"}
    assert list(booked_prices(any_store.engine, until=date(2026, 11, 20))) in (
        ["s1", "s6"],
        ["s6", "s1"],
    )


def test_the_rates_columns_follow_every_write_of_the_rate(any_store: Store) -> None:
    _put(any_store, [("s1", "P1", "2026-11-20", {"carrier": "Blue", "total": "10.00"})])
    with any_store.engine.write() as tx:  # the ledger writes the rate after the row
        tx.run(
            "UPDATE bookings SET rate = ? WHERE shipment_id = 's1'",
            (json.dumps({"carrier": "Red", "total": "12.34", "currency": "cad"}),),
        )
    assert booked_prices(any_store.engine)["s1"][4:] == ("Red", "CAD", 1234)
    _put(any_store, [("s2", "P2", "2026-11-20", None)])
    with any_store.engine.write() as tx:
        tx.run("UPDATE bookings SET rate = 'not json' WHERE shipment_id = 's2'")
        tx.run("UPDATE bookings SET rate = NULL WHERE shipment_id = 's1'")
    assert booked_prices(any_store.engine) == {}  # and the booking with no JSON is kept
    assert any_store.engine.read("SELECT rate FROM bookings WHERE shipment_id = 's2'") == [
        ("not json",)
    ]


def test_a_store_before_version_8_gains_the_rates_columns(tmp_path: Path, store_url: str) -> None:
    older = open_store(tmp_path / "data", url=store_url)
    try:
        with older.engine.write() as tx:
            before_version_8(tx, older.dialect.name)
            tx.run("UPDATE schema_version SET version = 7")
        _put(older, [("s1", "P1", "2026-11-20", {"carrier": "Blue", "total": 5.5})])
    finally:
        older.close()
    store = open_store(tmp_path / "data", url=store_url, migrate=True)  # freight store migrate
    try:
        assert store.version() == VERSION
        assert booked_prices(store.engine) == {
            "s1": ("s1", "P1", "", "2026-11-20", "Blue", "USD", 550)
        }
    finally:
        store.close()


def test_stations_migrating_one_store_to_version_8_at_once_all_open_it(
    tmp_path: Path, store_url: str
) -> None:
    """Four stations upgraded together open a version-7 store at the same moment: one of
    them migrates it, the others wait and find it done (no duplicate column or trigger, no
    error), and the rates columns are filled once."""
    older = open_store(tmp_path / "data", url=store_url)
    try:
        with older.engine.write() as tx:
            before_version_8(tx, older.dialect.name)
            tx.run("UPDATE schema_version SET version = 7")
        _put(older, [("s1", "P1", "2026-11-20", {"carrier": "Blue", "total": "7.25"})])
    finally:
        older.close()
    start = threading.Barrier(4)
    opened: list[Store] = []
    failed: list[BaseException] = []

    def station() -> None:
        start.wait()
        try:
            opened.append(open_store(tmp_path / "data", url=store_url, migrate=True))
        except BaseException as error:  # every failure is reported
            failed.append(error)

    threads = [threading.Thread(target=station) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failed == []
        assert [store.version() for store in opened] == [VERSION] * 4
        _put(opened[0], [("s2", "P2", "2026-11-21", {"carrier": "Red", "total": "1.00"})])
        assert booked_prices(opened[1].engine) == {
            "s1": ("s1", "P1", "", "2026-11-20", "Blue", "USD", 725),
            "s2": ("s2", "P2", "", "2026-11-21", "Red", "USD", 100),
        }
    finally:
        for store in opened:
            store.close()
