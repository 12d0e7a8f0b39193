"""Delivery dates come from tracking, are kept, and make the carriers scorecard: bookings
through the sandbox on its clock, on both store engines."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from tests.booking.conftest import BASE, FAST, booking_of, ltl_rates, rate_request
from tests.reports.fill import Booked, fill
from tests.sandbox.conftest import Clock
from tests.store.older import before_version_8
from tui.api import FreightClient
from tui.api.models import TrackingEvent
from tui.booking import BookedOutcome, BookingEngine
from tui.forms.booking import booking_lane, booking_priced
from tui.reports.deliveries import delivery_day, fetch_deliveries, keep, transit_days
from tui.reports.engine import carriers, spend
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.store import Store, open_store
from tui.store.ledger import StoreLedger
from tui.store.schema import VERSION

START = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)  # a Wednesday; pickups on Thursday the 19th


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
async def client(sandbox_config: SandboxConfig, clock: Clock) -> AsyncIterator[FreightClient]:
    app = create_app(replace(sandbox_config, shipments=0, seed=5, now=clock.now))
    transport = httpx.ASGITransport(app=app)
    async with FreightClient(BASE, DEMO_TOKEN, transport=transport, options=FAST) as c:
        yield c
    app.close()


@pytest.fixture
def store(tmp_path: Path, store_url: str) -> Iterator[Store]:
    opened = open_store(tmp_path / "data", store_url)
    yield opened
    opened.close()


async def book_some(client: FreightClient, store: Store, count: int) -> list[BookedOutcome]:
    """``count`` LTL bookings, each of a quote's rates in turn, as the Book screen sends them."""
    engine = BookingEngine(client, StoreLedger(store, "st1", "sandbox"), "demo")
    booked = []
    for n in range(count):
        quote, rates = await ltl_rates(client, ("30303", "10001", "75201", "98101")[n % 4])
        rate = rates[n % len(rates)]
        request = booking_of(quote, rate)
        outcome = await engine.book(
            request,
            lane=booking_lane(rate_request(), rate, request),
            priced=booking_priced(quote, rate, rate_request()),
        )
        assert isinstance(outcome, BookedOutcome)
        booked.append(outcome)
    return booked


def test_the_delivered_events_local_day() -> None:
    def event(**fields: object) -> TrackingEvent:
        return TrackingEvent.model_validate({"eventType": "delivered", **fields})

    late_evening = {"time": "2026-03-06T04:30:00Z", "timeZone": "America/Los_Angeles"}
    assert delivery_day([event(**late_evening)]) == date(2026, 3, 5)  # 20:30 in Los Angeles
    assert delivery_day([event(time="2026-03-05T23:30:00-08:00")]) == date(2026, 3, 5)
    assert delivery_day([event(eventDate="2026-03-05", eventTime="16:10")]) == date(2026, 3, 5)
    picked = TrackingEvent.model_validate({"eventType": "picked-up", "time": "2026-03-02T15:00Z"})
    assert delivery_day([picked]) is None
    again = event(time="2026-03-09T15:00:00Z", eventType="exception", status="delivered")
    assert delivery_day([again, event(time="2026-03-05T15:00:00Z"), picked]) == date(2026, 3, 5)


def test_transit_is_counted_in_business_days_as_quoted() -> None:
    tuesday = date(2026, 3, 3)
    assert transit_days(tuesday, date(2026, 3, 4)) == 1  # the pickup day is not counted
    assert transit_days(tuesday, date(2026, 3, 9)) == 4  # Wed Thu Fri Mon
    # Thanksgiving and the Friday after are closed: Wednesday -> Monday is one day
    assert transit_days(date(2026, 11, 25), date(2026, 11, 30)) == 1
    assert transit_days(tuesday, tuesday) == 0


async def test_delivery_dates_are_fetched_kept_and_scored(
    client: FreightClient, store: Store, clock: Clock
) -> None:
    booked = await book_some(client, store, 6)
    pickup = date(2026, 11, 19)
    assert (await fetch_deliveries(store, client, pickup)).asked == 0  # not picked up yet
    clock.advance(timedelta(days=1))  # 60x: every one delivered, days ahead of the real clock
    today = date(2026, 12, 15)
    first = await fetch_deliveries(store, client, today, limit=4)
    rest = await fetch_deliveries(store, client, today, limit=4)
    assert (first.asked, first.delivered, rest.asked, rest.delivered) == (4, 4, 2, 2)
    assert (await fetch_deliveries(store, client, today)).asked == 0  # kept: not asked again
    kept: dict[str, str] = dict(
        store.engine.read(
            "SELECT shipment_id, delivered_on FROM bookings WHERE delivered_on IS NOT NULL"
        )
    )
    want_days: dict[str, list[int]] = {}
    quoted: dict[str, list[int]] = {}
    for outcome in booked:
        record = outcome.record
        assert record is not None
        sid = record.shipment_id
        assert sid is not None
        assert record.pickup_date is not None
        day = delivery_day(await client.get_tracking(sid))
        assert day is not None
        assert day.isoformat() == kept[sid]
        picked = date.fromisoformat(record.pickup_date)
        assert day > picked >= pickup  # told on the sandbox's clock: days after the pickup
        (text,) = store.engine.read("SELECT rate FROM bookings WHERE shipment_id = ?", (sid,))[0]
        rate = json.loads(text)
        want_days.setdefault(rate["carrier"], []).append(transit_days(picked, day, "60607"))
        quoted.setdefault(rate["carrier"], []).append(rate["transitDays"])
    rows = {row.carrier: row for row in carriers(store.engine)}
    assert set(rows) == set(want_days)
    for name, days in want_days.items():
        row = rows[name]
        on_time = sum(1 for d, q in zip(days, quoted[name], strict=True) if d <= q)
        assert (row.delivered, row.actual_transit_days, row.on_time) == (
            len(days),
            (Decimal(sum(days)) / len(days)).quantize(Decimal("0.1")),
            (Decimal(on_time) / len(days)).quantize(Decimal("0.0001")),
        )


def test_a_store_at_version_3_keeps_its_bookings_and_gains_delivery_dates(
    tmp_path: Path, store_url: str
) -> None:
    older = open_store(tmp_path / "data", store_url)
    try:
        fill(older, [Booked("FRT1", "BCXP", "120.50", "USD", 800, START, pickup="2026-11-19")])
        with older.engine.write() as tx:  # as Freight left it before version 4
            before_version_8(tx, older.dialect.name)
            for column in ("delivered_on", "transit_days", "tracked_at"):
                tx.run(f"ALTER TABLE bookings DROP COLUMN {column}")
            for index in ("bookings_by_pickup", "bookings_by_shipment"):  # version 5's
                tx.run(f"DROP INDEX {index}")
            for table in ("store_history", "shipment_changes"):  # versions 6's and 7's
                tx.run(f"DROP TABLE {table}")
            tx.run("UPDATE schema_version SET version = 3")
    finally:
        older.close()
    store = open_store(tmp_path / "data", store_url, migrate=True)  # freight store migrate
    try:
        assert store.version() == VERSION >= 5
        (row,) = spend(store.engine, "carrier")
        assert (row.key, row.total, row.shipments) == ("BCXP", Decimal("120.50"), 1)
        keep(
            store, "FRT1", date(2026, 11, 24), transit_days(date(2026, 11, 19), date(2026, 11, 24))
        )
        (card,) = carriers(store.engine)
        assert (card.delivered, card.actual_transit_days) == (1, Decimal("3.0"))  # Fri Mon Tue
    finally:
        store.close()
