"""The reports' sums against the bookings written: per currency, never summed across; the
same on SQLite and on PostgreSQL (each test runs on both)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from tests.reports.fill import Booked, fill
from tui.reports.engine import carriers, spend
from tui.reports.periods import iso_week
from tui.store import Store, open_store

MON = datetime(2026, 3, 2, 15, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path, store_url: str) -> Iterator[Store]:
    """A fresh store on each engine: SQLite in the data dir, and a PostgreSQL database."""
    opened = open_store(tmp_path, store_url)
    yield opened
    opened.close()


def test_spend_per_carrier_keeps_currencies_apart(store: Store) -> None:
    fill(
        store,
        [
            Booked("FRT1", "ODFL", "100.10", "USD", 1000, MON, [("130.10", "USD")]),
            Booked(
                "FRT2",
                "ODFL",
                "200.20",
                "USD",
                2000,
                MON,
                [("150.00", "USD")],
                next_total_kept=False,
            ),  # found in the offers
            Booked("FRT3", "ODFL", "300.00", "CAD", 500, MON, [("1.00", "USD")]),
            Booked("FRT4", "SAIA", "50.05", "USD", 100, MON),
        ],
    )
    rows = {(r.key, r.currency): r for r in spend(store.engine, "carrier")}
    assert set(rows) == {("ODFL", "CAD"), ("ODFL", "USD"), ("SAIA", "USD")}
    usd = rows["ODFL", "USD"]
    assert (usd.shipments, usd.total, usd.pounds) == (2, Decimal("300.30"), Decimal(3000))
    assert usd.cost_per_cwt == Decimal("10.01")  # 300.30 / 30 cwt
    assert usd.savings == Decimal("30.00") + Decimal("-50.20")  # chose a dearer rate once
    cad = rows["ODFL", "CAD"]
    assert (cad.total, cad.savings) == (Decimal("300.00"), Decimal(0))  # a USD offer is no basis
    assert rows["SAIA", "USD"].cost_per_cwt == Decimal("50.05")


def test_since_until_and_weeks(store: Store) -> None:
    later = datetime(2026, 3, 10, 9, tzinfo=UTC)
    fill(
        store,
        [
            Booked("FRT1", "ODFL", "10.00", "USD", 100, MON),
            Booked("FRT2", "ODFL", "20.00", "USD", 100, later),
        ],
    )
    weeks = spend(store.engine, "week")
    assert [(r.key, r.total) for r in weeks] == [
        ("2026-W10", Decimal("10.00")),
        ("2026-W11", Decimal("20.00")),
    ]
    assert [r.total for r in spend(store.engine, "carrier", since=later)] == [Decimal("20.00")]
    assert [r.total for r in spend(store.engine, "carrier", until=later)] == [Decimal("10.00")]


def test_weeks_are_iso_weeks_on_either_engine(store: Store) -> None:
    days = (datetime(2026, 1, 1, 9, tzinfo=UTC), datetime(2026, 12, 7, 9, tzinfo=UTC),
            datetime(2027, 1, 1, 9, tzinfo=UTC))  # fmt: skip
    fill(store, [Booked(f"FRT{n}", "ODFL", "10.00", "USD", 100, at) for n, at in enumerate(days)])
    weeks = [r.key for r in spend(store.engine, "week")]
    assert weeks == ["2026-W01", "2026-W50", "2026-W53"]  # %W: 2026-W00, 2026-W49, 2027-W00


def test_carrier_scorecard(store: Store) -> None:
    fill(
        store,
        [
            Booked("FRT1", "ODFL", "1", "USD", 1, MON, pickup="2026-03-03", delivered="2026-03-05"),
            Booked("FRT2", "ODFL", "1", "USD", 1, MON, pickup="2026-03-03", delivered="2026-03-09"),
            Booked("FRT3", "ODFL", "1", "USD", 1, MON, transit_days=5),
            Booked("FRT4", "SAIA", "1", "USD", 1, MON),
        ],
    )
    odfl, saia = carriers(store.engine)
    assert (odfl.carrier, odfl.shipments, odfl.share) == ("ODFL", 3, Decimal("0.75"))
    assert odfl.quoted_transit_days == Decimal("3.7")
    # business days, the pickup day not counted: Tue -> Thu is 2, Tue -> next Mon is 4
    assert (odfl.delivered, odfl.actual_transit_days, odfl.on_time) == (
        2,
        Decimal("3.0"),
        Decimal("0.5"),
    )
    assert (saia.share, saia.delivered, saia.on_time) == (Decimal("0.25"), 0, None)


def test_sums_match_the_bookings_put_in_on_either_engine(store: Store) -> None:
    rng = random.Random(29)
    carriers_ = ("BCXP", "HGFL", "KAML")
    start = datetime(2025, 12, 22, 8, tzinfo=UTC)  # weeks across a new year
    put = [
        Booked(
            f"FRT{n}",
            rng.choice(carriers_),
            f"{rng.randint(9000, 250000) / 100:.2f}",
            rng.choice(("USD", "USD", "CAD")),
            rng.randint(50, 9000),
            start + timedelta(hours=rng.randint(0, 24 * 40)),
            [(f"{rng.randint(9000, 250000) / 100:.2f}", "USD")] * rng.randint(0, 1),
            lane=(rng.choice(("60601", "M5V 2T6")), rng.choice(("30301", "98101"))),
            next_total_kept=rng.random() < 0.5,
        )
        for n in range(120)
    ]
    fill(store, put)
    for by, key in (
        ("carrier", lambda b: b.carrier),
        ("lane", lambda b: f"{b.lane[0]} > {b.lane[1]}"),
        ("week", lambda b: iso_week(b.sent_at.date())),
    ):
        want: dict[tuple[str, str], tuple[int, Decimal, Decimal]] = {}
        for b in put:
            n, total, pounds = want.get((key(b), b.currency), (0, Decimal(0), Decimal(0)))
            want[key(b), b.currency] = (n + 1, total + Decimal(b.total), pounds + b.pounds)
        rows = spend(store.engine, by)  # type: ignore[arg-type]
        got = {(r.key, r.currency): (r.shipments, r.total, r.pounds) for r in rows}
        assert got == want, by
        assert [(r.currency, r.key) for r in rows] == sorted((c, k) for k, c in want)
    weeks = {r.key for r in spend(store.engine, "week")}
    assert {"2025-W52", "2026-W01"} <= weeks  # ISO weeks: Dec 29 2025 is 2026-W01
    assert not any(week.endswith("-W00") for week in weeks)  # %W's week 00 is not a week
