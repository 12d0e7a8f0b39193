"""The audit's booked prices read alike on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from tui.reports.audit import booked_prices
from tui.store import Store, open_store

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
