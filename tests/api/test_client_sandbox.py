"""Every FreightClient method against the real sandbox (ASGI transport)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.api.conftest import BASE, FAST, SHIPMENTS, Clock
from tests.api.faults import FaultTransport, forward_then
from tui.api import (
    AuthenticationError,
    BookingOutcomeUnknownError,
    BookingRequest,
    ConflictError,
    FreightClient,
    InvalidRequestError,
    NotFoundError,
    ParcelBookingRequest,
    PermissionDeniedError,
    Quote,
    QuoteExpiredError,
    Rate,
    RateLimitedError,
    RateRequest,
    ShipmentQuery,
    SubscriptionError,
)
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app


def _ltl_request(**over: Any) -> RateRequest:
    data: dict[str, Any] = {
        "origin_postal_code": "30318",
        "dest_postal_code": "10001",
        "items": [
            {"weight": 500, "length": 48, "width": 40, "height": 48, "quantity": 2,
             "package": "pallet", "freight_class": "77.5"}
        ],
    }  # fmt: skip
    data.update(over)
    return RateRequest.model_validate(data)


def _parcel_request() -> RateRequest:
    return RateRequest(
        origin_postal_code="30318",
        dest_postal_code="60601",
        items=[{"weight": 12, "length": 12, "width": 10, "height": 8, "quantity": 1,
                "package": "box"}],
    )  # fmt: skip


def _booking(quote: Quote, rate: Rate, **over: Any) -> BookingRequest:
    data: dict[str, Any] = {
        "quote_id": quote.id,
        "rate_id": rate.id,
        "origin_company": "Acme Widgets",
        "origin_address": "1200 Marietta St NW, Atlanta, GA 30318",
        "origin_contact_name": "Dana",
        "origin_contact_phone": "404-555-0100",
        "origin_dock_hours_open": "08:00",
        "origin_dock_hours_close": "16:30",
        "dest_company": "Beta Retail",
        "dest_address": "350 5th Ave, New York, NY 10001",
    }
    data.update(over)
    return BookingRequest(**data)


def _first_ok(quote: Quote, mode: str) -> Rate:
    return next(r for r in quote.rates if r.is_ok and r.mode == mode)


async def test_rates_are_exact_and_complete(client: FreightClient) -> None:
    quote = await client.get_rates(_ltl_request())
    assert quote.id.startswith("q_")
    assert quote.expires_at is not None
    assert quote.expires_at.tzinfo is not None
    ok = [r for r in quote.rates if r.is_ok]
    assert ok
    for rate in ok:
        assert isinstance(rate.total, Decimal)
        assert sum((c.amount for c in rate.charges), Decimal(0)) == rate.total
        assert rate.currency == "USD"
    assert quote.raw["id"] == quote.id
    assert quote.raw["originPostalCode"] == "30318"


async def test_server_side_validation_names_the_field(client: FreightClient) -> None:
    with pytest.raises(InvalidRequestError) as info:
        await client.get_rates(_ltl_request(origin_postal_code="00000"))
    assert "originPostalCode" in info.value.fields
    assert info.value.name == "VALIDATION_ERROR"
    assert info.value.request_id is not None
    assert info.value.request_id.startswith("req_")


async def test_book_ltl_then_find_it_read_it_and_print_it(client: FreightClient) -> None:
    quote = await client.get_rates(_ltl_request())
    rate = _first_ok(quote, "ltl")
    booking = await client.book(_booking(quote, rate, schedule_pickup=True, reference="PO 7731"))
    assert booking.shipment_id
    assert booking.pro_number
    assert booking.bol_number
    assert booking.pickup_confirmation
    assert {d.type for d in booking.documents} >= {"bol", "label"}
    assert booking.total == rate.total
    assert booking.raw["shipmentId"] == booking.shipment_id

    detail = await client.get_shipment(booking.shipment_id)
    assert detail.id == booking.shipment_id
    assert detail.pro_number == booking.pro_number
    assert detail.quote_id == quote.id
    assert detail.origin.company == "Acme Widgets"
    assert detail.items[0].quantity == 2
    assert detail.events
    assert detail.created_date is not None
    assert detail.created_date.tzinfo is not None

    page = await client.search_shipments(ShipmentQuery(text=booking.pro_number))
    assert [s.id for s in page.shipments] == [booking.shipment_id]
    assert page.shipments[0].cost is not None
    assert page.shipments[0].cost.total == rate.total
    assert page.continuation_token is None

    bol = next(d for d in booking.documents if d.type == "bol")
    pdf = await client.download_document(bol.url)
    assert pdf.startswith(b"%PDF")


async def test_tracking_of_a_seeded_shipment_is_newest_first_and_aware(
    client: FreightClient,
) -> None:
    """Whether the sandbox serves /tracking or only the detail's events, the same list comes."""
    delivered = await client.search_shipments({"status": "delivered"}, limit=1)
    shipment_id = delivered.shipments[0].id
    events = await client.get_tracking(shipment_id)
    assert len(events) >= 2
    times = [e.time for e in events]
    assert all(t is not None and t.utcoffset() is not None for t in times)
    assert times == sorted(times, reverse=True)  # type: ignore[type-var]
    assert all(e.summary or e.description or e.status for e in events)


async def test_booking_without_pickup_has_no_confirmation(client: FreightClient) -> None:
    quote = await client.get_rates(_ltl_request())
    booking = await client.book(_booking(quote, _first_ok(quote, "ltl")))
    assert booking.pickup_confirmation is None


async def test_booking_twice_is_a_conflict_naming_the_shipment(client: FreightClient) -> None:
    quote = await client.get_rates(_ltl_request())
    request = _booking(quote, _first_ok(quote, "ltl"))
    first = await client.book(request)
    with pytest.raises(ConflictError) as info:
        await client.book(request)
    assert info.value.shipment_id == first.shipment_id


async def test_parcel_booking(client: FreightClient) -> None:
    quote = await client.get_rates(_parcel_request())
    rate = _first_ok(quote, "parcel")
    with pytest.raises(InvalidRequestError) as wrong:
        await client.book(_booking(quote, rate))
    assert wrong.value.status == 422
    booking = await client.book_parcel(
        ParcelBookingRequest(
            quote_id=quote.id, rate_id=rate.id, dest_contact_email="dock@beta.example"
        )
    )
    assert booking.shipment_id
    assert booking.tracking_numbers
    assert {label.format for label in booking.labels} == {"pdf", "zpl"}
    zpl = next(label for label in booking.labels if label.format == "zpl")
    assert (await client.download_document(zpl.url)).lstrip().startswith(b"^XA")


async def test_expired_quote(client: FreightClient, clock: Clock) -> None:
    quote = await client.get_rates(_ltl_request())
    clock.advance(timedelta(days=8))
    with pytest.raises(QuoteExpiredError, match="expired"):
        await client.book(_booking(quote, _first_ok(quote, "ltl")))


async def test_unknown_and_oddly_named_shipments_are_not_found(client: FreightClient) -> None:
    with pytest.raises(NotFoundError):
        await client.get_shipment("shp_doesnotexist")
    with pytest.raises(NotFoundError):
        await client.get_shipment("../rates")
    with pytest.raises(NotFoundError):
        await client.get_shipment("a/b?c=d")


async def test_iter_shipments_walks_every_page_once(client: FreightClient) -> None:
    everything = [s async for s in client.iter_shipments(limit=7)]
    ids = [s.id for s in everything]
    assert len(ids) == SHIPMENTS
    assert len(set(ids)) == SHIPMENTS
    created = [s.created_date for s in everything]
    assert all(c is not None for c in created)
    assert created == sorted(created, reverse=True)  # type: ignore[type-var]
    delivered = [s async for s in client.iter_shipments({"status": "delivered"}, limit=5)]
    assert delivered
    assert all(s.status == "delivered" for s in delivered)
    assert len(delivered) == sum(1 for s in everything if s.status == "delivered")


async def test_search_filters_by_mode_and_pickup_dates(client: FreightClient) -> None:
    first = await client.search_shipments(ShipmentQuery(mode="ltl"), limit=200)
    assert first.shipments
    assert all(s.mode == "ltl" for s in first.shipments)
    day = next(s.pickup_date for s in first.shipments if s.pickup_date is not None)
    assert day is not None
    on_day = await client.search_shipments(
        ShipmentQuery(pickup_date_from=day, pickup_date_to=day), limit=200
    )
    assert on_day.shipments
    assert all(s.pickup_date == day for s in on_day.shipments)


async def test_accounts_and_permissions(asgi: httpx.ASGITransport) -> None:
    async with FreightClient(BASE, DEMO_TOKEN, transport=asgi) as good:
        await good.verify()
    async with FreightClient(BASE, "demo.wrong-secret", transport=asgi) as bad:
        with pytest.raises(AuthenticationError, match="freight login"):
            await bad.verify()
    async with FreightClient(BASE, "nosub.nosub-secret", transport=asgi) as nosub:
        with pytest.raises(SubscriptionError):
            await nosub.verify()
    async with FreightClient(BASE, "readonly.readonly-secret", transport=asgi) as readonly:
        quote = await readonly.get_rates(_ltl_request())
        with pytest.raises(PermissionDeniedError):
            await readonly.book(_booking(quote, _first_ok(quote, "ltl")))


async def test_timed_out_booking_was_sent_once_and_can_be_found(
    client: FreightClient, asgi: httpx.ASGITransport
) -> None:
    quote = await client.get_rates(_ltl_request())
    rate = _first_ok(quote, "ltl")
    lossy = FaultTransport(forward_then(asgi, httpx.ReadTimeout("timed out")))
    async with FreightClient(BASE, DEMO_TOKEN, transport=lossy, options=FAST) as flaky:
        with pytest.raises(BookingOutcomeUnknownError) as info:
            await flaky.book(_booking(quote, rate))
    assert lossy.paths() == ["POST /book"]
    assert info.value.quote_id == quote.id
    # Following the error's advice finds the one shipment that was booked.
    found = await client.search_shipments(ShipmentQuery(text=quote.id))
    assert len(found.shipments) == 1
    assert found.shipments[0].quote_id == quote.id


async def test_sandbox_rate_limit_is_retried_then_reported() -> None:
    app = create_app(SandboxConfig(shipments=5, rate_limit=0.5, rate_burst=2))
    waits: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)

    try:
        transport = httpx.ASGITransport(app=app)
        async with FreightClient(
            BASE, DEMO_TOKEN, transport=transport, options=FAST, sleep=no_sleep
        ) as c:
            await c.verify()
            await c.verify()
            with pytest.raises(RateLimitedError) as info:
                await c.search_shipments()
    finally:
        app.close()
    assert info.value.retry_after is not None
    assert info.value.retry_after > 0
    assert len(waits) == FAST.retry.attempts - 1
    assert all(w == info.value.retry_after for w in waits)
