"""Booking-engine fixtures: the real sandbox in-process (counted), a ledger in the test's dir."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from tui.api import ClientOptions, FreightClient, RetryPolicy
from tui.api.models import BookingRequest, Quote, Rate, RateItem, RateRequest
from tui.booking import BookingEngine, Lane
from tui.sandbox import DEMO_TOKEN, SandboxConfig
from tui.store import open_store
from tui.store.ledger import StoreLedger

BASE = "http://sandbox.test"
FAST = ClientOptions(retry=RetryPolicy(backoff_base=0.001, backoff_cap=0.002))
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)
"""The sandbox's clock: a Wednesday, so the pickup asked for (the next day) is a business day."""


class Counting(httpx.AsyncBaseTransport):
    """Forwards to the sandbox and counts requests by path; `lose_answer` lets the sandbox
    book the next booking, then loses its answer (a read timeout); `before_booking` runs
    just before a booking is forwarded."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.paths: list[str] = []
        self.lose_answer = False
        self.before_booking: list[object] = []
        self.hold: asyncio.Event | None = None
        self.booking_arrived = asyncio.Event()

    def count(self, path: str) -> int:
        return self.paths.count(path)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.paths.append(path)
        if path.startswith("/book"):
            self.booking_arrived.set()
            for hook in self.before_booking:
                hook()  # type: ignore[operator]
            if self.hold is not None:
                await self.hold.wait()
        response = await self.inner.handle_async_request(request)
        if path.startswith("/book") and self.lose_answer:
            self.lose_answer = False
            await response.aread()
            raise httpx.ReadTimeout("timed out", request=request)
        return response


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig) -> SandboxConfig:
    return replace(sandbox_config, shipments=40, seed=5, now=lambda: NOW)


@pytest.fixture
def counting(sandbox_transport: httpx.ASGITransport) -> Counting:
    return Counting(sandbox_transport)


@pytest.fixture
async def client(counting: Counting) -> AsyncIterator[FreightClient]:
    async with FreightClient(BASE, DEMO_TOKEN, transport=counting, options=FAST) as c:
        yield c


@pytest.fixture
def ledger(tmp_path: Path, store_url: str) -> Iterator[StoreLedger]:
    """The ledger that ships: the store's, on each engine (SQLite, PostgreSQL)."""
    store = open_store(tmp_path / "data", store_url)
    yield StoreLedger(store, "pack-1", "sandbox")
    store.close()


@pytest.fixture
def engine(client: FreightClient, ledger: StoreLedger) -> BookingEngine:
    return BookingEngine(client, ledger, "acme")


def rate_request(dest: str = "30303", quantity: int = 2) -> RateRequest:
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=quantity, package="pallet")
    return RateRequest(
        origin_postal_code="60607",
        dest_postal_code=dest,
        items=[item],
        pickup_date=NOW.date().replace(day=19),
    )


async def ltl_rates(client: FreightClient, dest: str = "30303") -> tuple[Quote, list[Rate]]:
    """A quote and its bookable LTL rates, cheapest first."""
    quote = await client.get_rates(rate_request(dest))
    rates = sorted((r for r in quote.rates if r.is_ok and r.mode == "ltl"), key=lambda r: r.total)
    assert len(rates) >= 3
    return quote, rates


def booking_of(quote: Quote, rate: Rate, **fields: object) -> BookingRequest:
    """The booking of one rate with both ends filled in (as the Book screen sends it)."""
    return BookingRequest.build(
        {
            "id": quote.id,
            "rateId": rate.id,
            "originCompany": "Acme Dock Co",
            "originAddress": "1200 W Lake St",
            "destCompany": "Peach Retail",
            "destAddress": "88 Peachtree St NE",
            **fields,
        }
    )


def lane_of(request: RateRequest, rate: Rate) -> Lane:
    return Lane(
        request.origin_postal_code,
        request.dest_postal_code,
        rate.carrier,
        rate.carrier_code,
        request.pickup_date,
    )
