"""The booking engine on the real sandbox: ledger first, one request, a typed outcome."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from tests.booking.conftest import Counting, booking_of, lane_of, ltl_rates, rate_request
from tui.api import FreightClient
from tui.booking import BookingEngine, new_reference
from tui.store import open_store
from tui.store.ledger import StoreLedger


async def test_a_booking_is_recorded_before_it_goes_out_and_carries_its_reference(
    engine: BookingEngine, client: FreightClient, ledger: StoreLedger, counting: Counting
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    seen: list[str] = []
    # What the ledger holds at the moment the request leaves.
    counting.before_booking.append(lambda: seen.extend(b.outcome for b in ledger.bookings()))
    outcome = await engine.book(booking_of(quote, rate), lane=lane_of(rate_request(), rate))
    assert outcome.status == "booked"
    assert seen == ["sent"]
    assert outcome.booking is not None
    assert not outcome.earlier
    record = ledger.latest(outcome.reference)
    assert record is not None
    assert (record.outcome, record.shipment_id) == ("booked", outcome.booking.shipment_id)
    assert record.lane is not None
    assert record.lane.carrier_code == rate.carrier_code
    assert outcome.reference.startswith("FRT")
    detail = await client.get_shipment(outcome.booking.shipment_id or "")
    refs = detail.raw["references"]
    assert refs["reference"] == refs["originReferenceNumber"] == outcome.reference
    assert counting.count("/book") == 1


async def test_a_rerun_skips_what_the_ledger_says_is_booked(
    engine: BookingEngine, client: FreightClient, counting: Counting
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    reference = new_reference()
    first = await engine.book(booking_of(quote, rate), reference=reference)
    again = await engine.book(booking_of(quote, rate), reference=reference)
    assert first.status == "booked"
    assert again.status == "booked"
    assert again.earlier
    assert again.shipment_id == first.shipment_id
    assert counting.count("/book") == 1


async def test_orders_book_concurrently_each_once(
    engine: BookingEngine, client: FreightClient, ledger: StoreLedger, counting: Counting
) -> None:
    quote, rates = await ltl_rates(client)
    references = [new_reference() for _ in rates]
    outcomes = await asyncio.gather(
        *(
            engine.book(booking_of(quote, rate), reference=reference)
            for rate, reference in zip(rates, references, strict=True)
        )
    )
    assert [o.status for o in outcomes] == ["booked"] * len(rates)
    assert counting.count("/book") == len(rates)
    assert {b.reference: b.outcome for b in ledger.bookings()} == dict.fromkeys(
        references, "booked"
    )
    # A second run of the whole batch sends nothing.
    rerun = await asyncio.gather(
        *(
            engine.book(booking_of(quote, rate), reference=reference)
            for rate, reference in zip(rates, references, strict=True)
        )
    )
    assert all(o.status == "booked" and o.earlier for o in rerun)
    assert counting.count("/book") == len(rates)


async def test_one_reference_sent_twice_at_once_goes_out_once(
    client: FreightClient, ledger: StoreLedger, counting: Counting, tmp_path: Path, store_url: str
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    engine = BookingEngine(client, ledger, "acme")
    # Another Freight on the same store (its own connection, its own engine).
    elsewhere = open_store(tmp_path / "data", store_url)
    other = BookingEngine(client, StoreLedger(elsewhere, "pack-2", "sandbox"), "acme")
    reference = new_reference()
    counting.hold = asyncio.Event()  # the first booking stays in flight
    first = asyncio.create_task(engine.book(booking_of(quote, rate), reference=reference))
    await counting.booking_arrived.wait()
    same_engine = await engine.book(booking_of(quote, rate), reference=reference)
    other_engine = await other.book(
        booking_of(quote, rate), reference=reference, search_unknown=False
    )
    counting.hold.set()
    assert (await first).status == "booked"
    assert same_engine.status == "failed"
    assert "being sent already" in same_engine.reason
    assert other_engine.status == "unknown"  # sent before, its answer not yet known there
    assert counting.count("/book") == 1
    elsewhere.close()


async def test_refusals_say_why_and_leave_the_reference_free_to_send_again(
    engine: BookingEngine, client: FreightClient, ledger: StoreLedger, counting: Counting
) -> None:
    quote, (rate, second, *_) = await ltl_rates(client)
    reference = new_reference()
    past = booking_of(quote, rate, pickupDate=date(2026, 11, 2).isoformat(), schedulePickup=True)
    refused = await engine.book(past, reference=reference)
    assert refused.status == "refused"
    assert "pickupDate" in refused.fields
    assert refused.already_booked is None
    record = ledger.latest(reference)
    assert record is not None
    assert record.outcome == "failed"
    # Fixed, the same reference goes out again (a refusal booked nothing).
    fixed = await engine.book(booking_of(quote, rate), reference=reference)
    assert fixed.status == "booked"
    assert counting.count("/book") == 2
    # The same quote and rate under another reference: the service says it is booked as
    # the shipment the ledger holds: that booking is the outcome, nothing counted twice.
    duplicate = await engine.book(booking_of(quote, rate))
    assert duplicate.status == "booked"
    assert duplicate.shipment_id == fixed.shipment_id
    assert duplicate.reference == fixed.reference
    assert counting.count("/book") == 3
    # An unknown quote is refused too; nothing is booked.
    unknown = await engine.book(booking_of(quote, second, id="no-such-quote"))
    assert unknown.status == "refused"


async def test_an_answer_lost_after_booking_is_proven_by_its_reference(
    engine: BookingEngine, client: FreightClient, ledger: StoreLedger, counting: Counting
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    counting.lose_answer = True
    outcome = await engine.book(booking_of(quote, rate), lane=lane_of(rate_request(), rate))
    assert outcome.status == "booked"
    assert outcome.booking is None
    assert outcome.found is not None
    record = ledger.latest(outcome.reference)
    assert record is not None
    assert (record.outcome, record.shipment_id) == ("booked", outcome.found.id)
    assert record.note == f"found by searching for {outcome.reference}"
    assert counting.count("/book") == 1


async def test_without_search_an_unknown_outcome_is_left_for_settle(
    engine: BookingEngine, client: FreightClient, ledger: StoreLedger, counting: Counting
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    counting.lose_answer = True
    outcome = await engine.book(booking_of(quote, rate), search_unknown=False)
    assert outcome.status == "unknown"
    assert not outcome.searched
    assert outcome.reason == "no answer in time"
    assert outcome.record is not None
    assert outcome.record.outcome == "unknown"
    settled = await engine.settle(outcome.record)
    assert settled.status == "booked"
    assert settled.found is not None
    assert counting.count("/book") == 1


async def test_with_every_reference_field_taken_the_users_reference_finds_candidates(
    engine: BookingEngine, client: FreightClient, ledger: StoreLedger, counting: Counting
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    request = booking_of(
        quote,
        rate,
        reference="PO-5521",
        originReferenceNumber="DOCK-7",
        destReferenceNumber="RCV-9",
    )
    counting.lose_answer = True
    outcome = await engine.book(request, lane=lane_of(rate_request(), rate))
    assert outcome.status == "unknown"  # the user's reference proves nothing by itself
    assert outcome.record is not None
    assert outcome.record.search_for == "PO-5521"
    whys = {c.why for c in outcome.candidates}
    assert "it shows your reference PO-5521 (which other shipments may carry too)" in whys
    sent = next(c.shipment for c in outcome.candidates if "PO-5521" in c.why)
    detail = await client.get_shipment(sent.id)
    assert detail.raw["references"]["reference"] == "PO-5521"  # it is the one sent
    assert counting.count("/book") == 1
