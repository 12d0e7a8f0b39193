"""Property: any JSON in any optional field of any answer parses and keeps the essential fields."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tui.api.errors import ApiError, error_for_status
from tui.api.models import (
    Booking,
    ParcelBooking,
    Quote,
    Rate,
    Shipment,
    ShipmentDetail,
    ShipmentPage,
    TrackingEvent,
)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats()
    | st.decimals(places=2, allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
"""Any JSON value as the client reads it (numbers may be Decimal, as ``parse_float=Decimal``)."""

RATE_KEYS = (
    "status", "mode", "total", "days", "carrier", "carrierCode", "serviceType", "charges",
    "message", "currency", "expiresAt", "rateId", "amount",
)  # fmt: skip
CHARGE_KEYS = ("name", "amount", "description", "currency")
QUOTE_KEYS = ("createdDate", "expiresAt", "originPostalCode", "destPostalCode", "quoteId", "raw")
ADDRESS_KEYS = ("company", "address", "city", "state", "postalCode", "country", "contactName")
LISTING_KEYS = (
    "createdDate", "status", "origin", "destination", "carrier", "cost", "proNumber", "pro",
    "mode", "serviceType", "trackingNumber", "bolNumber", "bol", "reference", "quoteId",
    "pickupDate",
)  # fmt: skip
DETAIL_KEYS = (
    "createdDate", "status", "origin", "destination", "items", "tracking", "documents",
    "proNumber", "bolNumber", "mode", "pickupConfirmation", "quoteId", "rateId", "reference",
    "events", "trackingEvents", "carrier", "cost",
)  # fmt: skip
ITEM_KEYS = (
    "weight", "length", "width", "height", "quantity", "pieces", "description", "package",
    "hazardous", "nmfc", "freightClass",
)  # fmt: skip
EVENT_KEYS = (
    "time", "status", "description", "location", "summary", "eventType", "eventDate",
    "eventTime", "createdDate", "timeZone", "offset",
)  # fmt: skip
BOOKING_KEYS = (
    "status", "mode", "carrier", "carrierCode", "serviceType", "total", "currency", "quoteId",
    "rateId", "createdDate", "documents", "bolNumber", "pickupConfirmation", "trackingNumber",
    "shipment", "link", "raw",
)  # fmt: skip
PARCEL_KEYS = ("status", "mode", "carrier", "total", "currency", "labels", "createdDate", "raw")
ERROR_KEYS = ("name", "code", "requestId", "message", "detail", "fields", "errors", "details")


def fuzz(keys: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """Some of ``keys``, each with any JSON value."""
    return st.dictionaries(st.sampled_from(keys), JSON, max_size=len(keys))


@settings(max_examples=100, deadline=None)
@given(quote=fuzz(QUOTE_KEYS), rate=fuzz(RATE_KEYS), charge=fuzz(CHARGE_KEYS))
def test_quote_and_rates(
    quote: dict[str, Any], rate: dict[str, Any], charge: dict[str, Any]
) -> None:
    rate_in = {**rate, "id": "r1", "charges": [{"name": "fuel", "amount": 1, **charge}]}
    data = {**quote, "id": "q1", "rates": [rate_in]}
    parsed = Quote.model_validate(data)
    assert parsed.id == "q1"
    assert parsed.raw is data
    assert [r.id for r in parsed.rates] == ["r1"]
    only = parsed.rates[0]
    assert isinstance(only.total, Decimal)
    assert only.currency == only.currency.upper()
    assert only.status == only.status.lower()
    assert only.is_ok in (True, False)
    for c in only.charges:
        assert isinstance(c.amount, Decimal)
    assert Rate.model_validate(rate_in).id == "r1"


@settings(max_examples=100, deadline=None)
@given(entry=fuzz(LISTING_KEYS), address=fuzz(ADDRESS_KEYS), token=JSON)
def test_shipment_listing(entry: dict[str, Any], address: dict[str, Any], token: Any) -> None:
    first = {**entry, "id": "s1"}
    second = {"id": "s2", "origin": address, "cost": {"total": entry.get("cost"), "currency": 1}}
    data = {"shipments": [first, second], "continuationToken": token}
    page = ShipmentPage.model_validate(data)
    assert [s.id for s in page.shipments] == ["s1", "s2"]
    assert page.shipments[0].raw == first
    assert page.continuation_token is None or isinstance(page.continuation_token, str)
    for shipment in page.shipments:
        assert shipment.created_date is None or shipment.created_date.tzinfo is not None
        assert shipment.status == shipment.status.lower()
    assert Shipment.model_validate(first).id == "s1"


@settings(max_examples=100, deadline=None)
@given(detail=fuzz(DETAIL_KEYS), item=fuzz(ITEM_KEYS), event=fuzz(EVENT_KEYS))
def test_shipment_detail(
    detail: dict[str, Any], item: dict[str, Any], event: dict[str, Any]
) -> None:
    data = {**detail, "id": "s1"}
    data.setdefault("items", [item])
    data.setdefault("events", [event])
    parsed = ShipmentDetail.model_validate(data)
    assert parsed.id == "s1"
    assert parsed.raw is data
    for e in parsed.events:
        assert e.time is None or e.time.tzinfo is not None
    if parsed.cost is not None and parsed.cost.currency is not None:
        assert parsed.cost.currency == parsed.cost.currency.upper()


@settings(max_examples=100, deadline=None)
@given(event=fuzz(EVENT_KEYS))
def test_tracking_event(event: dict[str, Any]) -> None:
    parsed = TrackingEvent.model_validate({**event, "summary": "Picked up"})
    assert parsed.summary == "Picked up"
    assert parsed.time is None or parsed.time.utcoffset() is not None


@settings(max_examples=100, deadline=None)
@given(answer=fuzz(BOOKING_KEYS), pro=st.sampled_from(["PRO1", 77, {"number": "PRO1"}]))
def test_booking_keeps_its_pro_whatever_else_it_says(answer: dict[str, Any], pro: Any) -> None:
    data = {**answer, "proNumber": pro}
    booking = Booking.model_validate(data)
    assert booking.pro_number in ("PRO1", "77")
    assert booking.identifiers["pro_number"] == booking.pro_number
    assert booking.raw is data
    assert booking.currency == booking.currency.upper()


@settings(max_examples=100, deadline=None)
@given(answer=fuzz(PARCEL_KEYS))
def test_parcel_booking_keeps_its_tracking_numbers(answer: dict[str, Any]) -> None:
    data = {**answer, "trackingNumbers": ["1Z1", {"trackingNumber": "1Z2"}]}
    booking = ParcelBooking.model_validate(data)
    assert booking.tracking_numbers == ["1Z1", "1Z2"]
    assert booking.identifiers["tracking_number"] == "1Z1"


@settings(max_examples=100, deadline=None)
@given(body=fuzz(ERROR_KEYS), status=st.sampled_from([400, 401, 404, 409, 422, 429, 500, 503]))
def test_error_bodies(body: dict[str, Any], status: int) -> None:
    error = error_for_status(status, json.loads(json.dumps(body, default=str)))
    assert isinstance(error, ApiError)
    assert error.status == status
    assert str(error)
