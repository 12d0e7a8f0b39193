"""The freight-bill audit: booked prices from the store, bills from the listing (by the page)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from tests.api.faults import FaultTransport
from tests.independent_server import QUERY, TOKEN, IndependentServer
from tui.api import BookingRequest, FreightClient, RateRequest
from tui.config.settings import Profile
from tui.reports.audit import (
    PAGE,
    AuditReport,
    Billed,
    BookedPrice,
    audit,
    booked_prices,
    listed_bills,
    to_csv,
)
from tui.sandbox import DEMO_TOKEN, SandboxConfig, billing, create_app
from tui.sandbox.app import SandboxApp
from tui.session import client_options_for
from tui.store import Store, open_store
from tui.vocabulary import GLOSSARY

NOW = datetime(2026, 11, 30, 15, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "data", url="")
    yield opened
    opened.close()


def put_booked(
    store: Store,
    rows: Sequence[tuple[str, str, str, str, str, str]],
    environment: str = "sandbox",
) -> None:
    """Booked ledger rows: (shipment id, PRO, carrier, total, currency, pickup day)."""
    when = NOW.isoformat()
    with store.engine.write() as tx:
        tx.many(
            "INSERT INTO bookings (reference, account, environment, station, profile, quote_id,"
            " rate_id, sent_at, updated, outcome, shipment_id, pro_number, order_number,"
            " pickup_date, rate)"
            " VALUES (?, 'acct', ?, 'st', 'acct', 'q', 'r', ?, ?, 'booked', ?, ?, ?, ?, ?)",
            [
                (f"FRT-{environment}-{sid}", environment, when, when, sid, pro, f"O{n}", day,
                 json.dumps({"carrier": carrier, "total": total, "currency": cur}))
                for n, (sid, pro, carrier, total, cur, day) in enumerate(rows)
            ],
        )  # fmt: skip


def _price(sid: str, cents: int, carrier: str = "Bluecrest", cur: str = "USD") -> BookedPrice:
    return (sid, f"P{sid}", "", "2026-11-20", carrier, cur, cents)


def test_each_bill_above_its_price_is_listed_with_its_cause_and_totals() -> None:
    prices = {
        p[0]: p
        for p in (
            _price("a", 10000), _price("b", 20000), _price("c", 30000, "Magnolia"),
            _price("d", 5000), _price("e", 7000), _price("f", 9000, cur="CAD"),
            _price("g", 100),
        )
    }  # fmt: skip
    bills = [
        Billed("a", "delivered", "USD", 12500, "reweigh", "Reweighed: 500 -> 600 lb"),
        Billed("b", "delivered", "USD", 20000),  # as booked
        Billed("c", "picked-up", "USD", 31000, "accessorial", "liftgate delivery"),
        Billed("d", "canceled", "USD", 0),
        Billed("e", "delivered", "USD", 6900),  # below: nothing to dispute
        Billed("f", "delivered", "USD", 9900),  # another currency: never compared
        Billed("z", "delivered", "USD", 100000),  # not ours
        Billed("a", "delivered", "USD", 99999),  # listed twice: the first counts
    ]
    report = audit(prices, bills)
    assert [(x.shipment_id, x.difference, x.cause) for x in report.lines] == [
        ("a", Decimal("25.00"), "reweigh"),
        ("c", Decimal("10.00"), "accessorial"),
    ]
    assert (report.checked, report.canceled, report.other_currency, report.not_listed) == (
        4, 1, 1, 1,
    )  # fmt: skip
    assert report.by_carrier == {
        ("Bluecrest", "USD"): (1, Decimal("25.00")),
        ("Magnolia", "USD"): (1, Decimal("10.00")),
    }
    assert report.by_cause[("reweigh", "USD")] == (1, Decimal("25.00"))
    sheet = to_csv(report).splitlines()
    assert sheet[0].startswith("shipmentId,proNumber,order,carrier")
    assert set(sheet[0].split(",")) <= set(GLOSSARY)
    assert (
        sheet[1]
        == "a,Pa,,Bluecrest,2026-11-20,USD,100.00,125.00,25.00,reweigh,Reweighed: 500 -> 600 lb"
    )


def test_a_formula_in_a_note_is_not_run_by_a_spreadsheet() -> None:
    report = audit(
        {"a": _price("a", 100)}, [Billed("a", "delivered", "USD", 200, "reweigh", "=HYPERLINK()")]
    )
    assert to_csv(report).splitlines()[1].endswith(",'=HYPERLINK()")


def test_the_pickup_period_and_environment_choose_the_bookings(store: Store) -> None:
    put_booked(store, [("s1", "1", "C", "10.00", "USD", "2026-11-02"),
                       ("s2", "2", "C", "12.50", "USD", "2026-11-20")])  # fmt: skip
    put_booked(store, [("s3", "3", "C", "9.00", "USD", "2026-11-20")], environment="production")
    found = booked_prices(store.engine, date(2026, 11, 10), None, environment="sandbox")
    assert list(found) == ["s2"]
    assert found["s2"][6] == 1250
    assert set(booked_prices(store.engine)) == {"s1", "s2", "s3"}


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[SandboxApp]:
    config = SandboxConfig(db_path=tmp_path / "sb.sqlite3", shipments=400, rate_limit=0)
    app = create_app(config)
    yield app
    app.close()


async def test_the_sandbox_bills_are_read_a_page_of_100_at_a_time(
    seeded: SandboxApp, store: Store
) -> None:
    now_s = int(seeded.config.current_time().timestamp())
    with seeded.db.lock() as conn:
        rows: list[sqlite3.Row] = list(conn.execute("SELECT * FROM shipments ORDER BY seq"))
    put_booked(
        store,
        [(r["id"], r["pro"] or "", r["carrier_name"], f"{r['total_cents'] / 100:.2f}", "USD",
          "2026-01-01") for r in rows],
    )  # fmt: skip
    expected = {r["id"]: found for r in rows if (found := billing.adjustment(r, now_s)) is not None}
    assert len(expected) > 20
    counting = FaultTransport(fallback=httpx.ASGITransport(app=seeded))
    async with FreightClient("http://sandbox.test", DEMO_TOKEN, transport=counting) as client:
        bills = [bill async for bill in listed_bills(client, None, None)]
    report: AuditReport = audit(booked_prices(store.engine), bills)
    assert {x.shipment_id: x.cause for x in report.lines} == {
        sid: found.cause for sid, found in expected.items()
    }
    for line in report.lines:
        assert line.difference == Decimal(expected[line.shipment_id].cents) / 100
    assert report.checked + report.canceled == len(rows)
    assert all(path.startswith("GET /shipments?") for path in counting.paths())
    assert len(counting.paths()) == -(-len(rows) // PAGE)
    assert f"limit={PAGE}" in counting.paths()[0]


async def test_the_independent_servers_bills_in_its_own_dialect(store: Store) -> None:
    server = IndependentServer()
    profile = Profile.model_validate(
        {"name": "indie", "base_url": "http://indie.test", "environment": "sandbox",
         "wire": {"search_params": {"search": QUERY["text"], "status": QUERY["status"],
                                    "mode": QUERY["mode"], "continuationToken": QUERY["token"],
                                    "limit": QUERY["size"]}}}
    )  # fmt: skip
    transport = httpx.ASGITransport(app=server.app())
    async with FreightClient(
        "http://indie.test", TOKEN, transport=transport, options=client_options_for(profile)
    ) as client:
        quote = await client.get_rates(
            RateRequest.model_validate(
                {"origin_postal_code": "30318", "dest_postal_code": "H4P 2N2",
                 "items": [{"weight": 640, "length": 48, "width": 40, "height": 50,
                            "quantity": 2, "package": "pallet"}]}
            )
        )  # fmt: skip
        for rate in quote.rates[:2]:
            await client.book(BookingRequest(quote_id=quote.id, rate_id=rate.id))
        put_booked(
            store,
            [("SH0001", "PRO7001", "Maple Leaf Freight", "1234.50", "CAD", ""),
             ("SH0002", "PRO7002", "Prairie Lines", "987.25", "USD", "")],
        )  # fmt: skip
        server.shipments[0]["cost"]["total"] = "1311.75"
        server.shipments[0]["charges"] = [{"name": "Reclassification", "note": "class 70 -> 85"}]
        server.shipments[1]["cost"]["total"] = "1102.25"  # said nothing of why
        bills = [bill async for bill in listed_bills(client, None, None)]
    report = audit(booked_prices(store.engine), bills)
    assert [(x.shipment_id, x.currency, x.difference, x.cause) for x in report.lines] == [
        ("SH0002", "USD", Decimal("115.00"), "unexplained"),
        ("SH0001", "CAD", Decimal("77.25"), "reclass"),
    ]
    assert server.requests["GET /shipments"] == 1
