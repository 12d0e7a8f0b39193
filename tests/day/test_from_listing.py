"""The day read from the service's listing: a page per 100 shipments, no request per shipment,
and the same facts a shipment's detail gives."""

from __future__ import annotations

from tests.booking.conftest import Counting, booking_of, lane_of, ltl_rates, rate_request
from tui.api import FreightClient
from tui.booking import BookingEngine
from tui.day.facts import facts_of, service_facts
from tui.ledger import BookingLedger


async def test_the_days_facts_come_from_the_listing_not_one_read_per_shipment(
    client: FreightClient, engine: BookingEngine, ledger: BookingLedger, counting: Counting
) -> None:
    quote, rates = await ltl_rates(client)
    for rate in rates[:3]:
        outcome = await engine.book(booking_of(quote, rate), lane=lane_of(rate_request(), rate))
        assert outcome.status == "booked"
    records = ledger.bookings()
    on = rate_request().pickup_date
    assert on is not None
    counting.paths.clear()

    facts = await service_facts(client, on, records)

    ids = {record.shipment_id for record in records}
    assert set(facts) == ids
    assert [path for path in counting.paths if path != "/shipments"] == []  # no detail read
    for shipment_id, listed in facts.items():  # what a detail would have said
        assert listed == facts_of(await client.get_shipment(shipment_id))
        assert listed.pieces == 2
        assert listed.weight_lb is not None
