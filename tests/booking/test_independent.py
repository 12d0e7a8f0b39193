"""Booking on a server that is not ours, over a real socket, when the answer never comes in time.

The independent server stores references empty (a search by reference finds nothing) and
answers a booking two seconds after making it, while the client waits a fraction of that:
the booking exists, its outcome is unknown. It must be found or offered as a candidate,
and never be booked twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from tests.independent_server import QUERY, TOKEN, IndependentServer, serve
from tui.api import FreightClient
from tui.api.models import BookingRequest, Quote, Rate, RateItem, RateRequest
from tui.booking import BookingEngine, Lane, new_reference
from tui.config.settings import Profile
from tui.session import client_options_for
from tui.store import open_store
from tui.store.ledger import StoreLedger

PICKUP = date(2026, 11, 23)


def _now() -> datetime:
    return datetime.now(UTC)


@pytest.fixture
def server() -> IndependentServer:
    return IndependentServer(keep_references=False, now=_now)


@pytest.fixture
def base_url(server: IndependentServer) -> Iterator[str]:
    with serve(server) as url:
        yield url


@pytest.fixture
async def client(base_url: str) -> AsyncIterator[FreightClient]:
    profile = Profile.model_validate(
        {
            "name": "indie",
            "base_url": base_url,
            "environment": "sandbox",
            "wire": {
                "search_params": {
                    "search": QUERY["text"],
                    "status": QUERY["status"],
                    "mode": QUERY["mode"],
                    "continuationToken": QUERY["token"],
                    "limit": QUERY["size"],
                }
            },
        }
    )
    options = replace(client_options_for(profile), booking_timeout=0.3)
    async with FreightClient(base_url, TOKEN, options=options) as c:
        yield c


@pytest.fixture
def engine(client: FreightClient, tmp_path: Path) -> BookingEngine:
    return BookingEngine(
        client, StoreLedger(open_store(tmp_path, ""), "pack-1", "sandbox"), "indie"
    )


def _request(dest: str = "30303") -> RateRequest:
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=2, package="pallet")
    return RateRequest(
        origin_postal_code="60607", dest_postal_code=dest, items=[item], pickup_date=PICKUP
    )


async def _rate(client: FreightClient, scac: str, dest: str = "30303") -> tuple[Quote, Rate]:
    quote = await client.get_rates(_request(dest))
    return quote, next(r for r in quote.rates if r.carrier_code == scac)


def _booking(quote: Quote, rate: Rate) -> BookingRequest:
    return BookingRequest(
        quote_id=quote.id, rate_id=rate.id, origin_company="Acme Dock Co", pickup_date=PICKUP
    )


def _lane(rate: Rate, dest: str = "30303") -> Lane:
    return Lane("60607", dest, rate.carrier, rate.carrier_code, PICKUP)


async def test_a_booking_whose_answer_never_comes_is_offered_as_a_candidate_never_booked_twice(
    server: IndependentServer, client: FreightClient, engine: BookingEngine
) -> None:
    # Shipments that are not it: another lane, and the same lane booked an hour earlier.
    quote, rate = await _rate(client, "MLFT", dest="75207")
    assert (await engine.book(_booking(quote, rate))).status == "booked"
    server.now = lambda: _now() - timedelta(hours=1)
    quote, rate = await _rate(client, "MLFT")
    assert (await engine.book(_booking(quote, rate))).status == "booked"
    server.now = _now

    server.booking_delay = 2.0  # booked at once, answered too late
    quote, rate = await _rate(client, "MLFT")
    reference = new_reference()
    outcome = await engine.book(_booking(quote, rate), lane=_lane(rate), reference=reference)
    assert outcome.status == "unknown"
    assert outcome.reason == "no answer in time"
    assert outcome.searched
    made = server.shipments[-1]
    assert [c.shipment.id for c in outcome.candidates] == [made["shipmentNumber"]]
    assert outcome.candidates[0].why == "same lane, created after the booking was sent"
    assert server.requests["POST /book"] == 3
    record = engine.record(reference)
    assert record is not None
    assert record.outcome == "unknown"

    # Run again: still not sent; still a candidate, for the user to judge.
    again = await engine.book(_booking(quote, rate), lane=_lane(rate), reference=reference)
    assert again.status == "unknown"
    assert [c.shipment.id for c in again.candidates] == [made["shipmentNumber"]]
    assert server.requests["POST /book"] == 3

    # The user says it is theirs: booked, and a rerun skips it.
    assert again.record is not None
    mine = await engine.confirm(again.record, again.candidates[0].shipment, "same lane")
    assert mine.status == "booked"
    assert mine.confirmed_by_user
    assert mine.pro_number == made["pro"]
    rerun = await engine.book(_booking(quote, rate), lane=_lane(rate), reference=reference)
    assert rerun.status == "booked"
    assert rerun.earlier
    assert server.requests["POST /book"] == 3
    assert len(server.shipments) == 3


async def test_a_search_that_lists_everything_proves_nothing(
    server: IndependentServer, client: FreightClient, engine: BookingEngine
) -> None:
    server.search_ignores_query = True
    quote, rate = await _rate(client, "PRLN", dest="75207")
    assert (await engine.book(_booking(quote, rate))).status == "booked"  # somebody's shipment
    server.booking_delay = 2.0
    quote, rate = await _rate(client, "MLFT")
    outcome = await engine.book(_booking(quote, rate), lane=_lane(rate))
    assert outcome.status == "unknown"  # the first hit is not taken for it
    reasons = {c.shipment.id: c.why for c in outcome.candidates}
    assert reasons == {
        "SH0001": "found by the search, but it does not show the reference",
        "SH0002": "found by the search, but it does not show the reference",
    }
    assert outcome.record is not None
    assert outcome.record.outcome == "unknown"


async def test_a_search_that_lists_everything_still_proves_the_one_with_the_reference(
    server: IndependentServer, client: FreightClient, engine: BookingEngine
) -> None:
    server.search_ignores_query = True
    server.keep_references = True
    quote, rate = await _rate(client, "PRLN", dest="75207")
    assert (await engine.book(_booking(quote, rate))).status == "booked"
    server.booking_delay = 2.0
    quote, rate = await _rate(client, "MLFT")
    outcome = await engine.book(_booking(quote, rate), lane=_lane(rate))
    assert outcome.status == "booked"
    assert outcome.found is not None
    assert outcome.found.id == "SH0002"
    assert outcome.record is not None
    assert outcome.record.shipment_id == "SH0002"
    assert server.requests["POST /book"] == 2
