"""The booking engine against the hostile server: a booking answer that never comes, and a
search that answers the same hostile shipments whatever it asks. Nothing it lists is taken for
the booking, nothing is sent twice, and its text reaches the ledger and the outcome only as data.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.hostile_server import TOKEN, HostileServer
from tui.api import ClientOptions, FreightClient
from tui.api.models import BookingRequest, RateItem, RateRequest
from tui.booking import BookingEngine, Lane, new_reference
from tui.store import open_store
from tui.store.ledger import StoreLedger


@pytest.fixture
def server() -> HostileServer:
    return HostileServer(booking_answer="never")


@pytest.fixture
def base_url(server: HostileServer) -> Iterator[str]:
    with server.serve() as url:
        yield url


@pytest.fixture
async def client(base_url: str) -> AsyncIterator[FreightClient]:
    async with FreightClient(base_url, TOKEN, options=ClientOptions(booking_timeout=0.3)) as c:
        yield c


async def test_an_answer_that_never_comes_leaves_it_unknown_and_the_hostile_listing_proves_nothing(
    server: HostileServer, client: FreightClient, tmp_path: Path
) -> None:
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=2, package="pallet")
    quote = await client.get_rates(
        RateRequest(origin_postal_code="60607", dest_postal_code="30303", items=[item])
    )
    rate = next(r for r in quote.rates if r.is_ok)
    ledger = StoreLedger(open_store(tmp_path, ""), "pack-1", "sandbox")
    engine = BookingEngine(client, ledger, "hostile")
    reference = new_reference()
    request = BookingRequest(quote_id=quote.id, rate_id=rate.id)
    lane = Lane("60607", "30303", rate.carrier, rate.carrier_code)
    outcome = await engine.book(request, lane=lane, reference=reference)
    assert outcome.status == "unknown"
    assert outcome.reason == "no answer in time"
    assert outcome.searched
    # The search lists the server's shipments whatever it asks: none shows the reference, so
    # none is taken for the booking (they are candidates, for the user to judge).
    assert outcome.candidates
    record = ledger.latest(reference)
    assert record is not None
    assert record.outcome == "unknown"
    # Again: searched, never resent.
    again = await engine.book(request, lane=lane, reference=reference)
    assert again.status == "unknown"
    assert server.requests["POST /book"] == 1
