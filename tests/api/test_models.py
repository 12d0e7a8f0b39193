"""Models: lenient on what comes in, strict (field by field) on what goes out."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

from tui.api.errors import RequestValidationError, snake_path
from tui.api.models import (
    FREIGHT_CLASSES,
    Booking,
    BookingRequest,
    ParcelBooking,
    ParcelBookingRequest,
    Quote,
    RateItem,
    RateRequest,
    Shipment,
    ShipmentDetail,
    ShipmentPage,
    ShipmentQuery,
)


def _item(**over: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "weight": "500",
        "length": 48,
        "width": 40,
        "height": "48.5",
        "quantity": "2",
        "package": "pallet",
    }
    item.update(over)
    return item


def test_rate_request_serializes_wire_names_and_json_numbers() -> None:
    req = RateRequest(
        origin_postal_code=" 30301 ",
        dest_postal_code="10001-1234",
        items=[RateItem.model_validate(_item(freightClass="77.5"))],
    )
    body = json.loads(req.wire_json())
    assert body["originPostalCode"] == "30301"
    assert body["originType"] == "business dock"
    item = body["items"][0]
    assert item == {
        "weight": 500,
        "length": 48,
        "width": 40,
        "height": 48.5,
        "quantity": 2,  # the interface's name
        "pieces": 2,  # and the name some servers read instead
        "package": "Pallets",
        "freightClass": 77.5,
    }
    assert b'"freightClass":77.5' in req.wire_json()


def test_every_nmfc_class_is_accepted_and_others_are_not() -> None:
    assert len(FREIGHT_CLASSES) == 18
    for cls in FREIGHT_CLASSES:
        assert RateItem.model_validate(_item(freight_class=str(cls))).freight_class == cls
    with pytest.raises(ValidationError):
        RateItem.model_validate(_item(freight_class=78))


def test_bad_rate_request_gets_one_message_per_field_under_wire_paths() -> None:
    with pytest.raises(RequestValidationError) as info:
        RateRequest.build(
            origin_postal_code="3030",
            dest_postal_code="10001",
            items=[_item(weight="-1", length="abc", quantity=0, package="", freight_class=78)],
        )
    fields = info.value.fields
    assert set(fields) == {
        "originPostalCode",
        "items[0].weight",
        "items[0].length",
        "items[0].quantity",
        "items[0].package",
        "items[0].freightClass",
    }
    assert "ZIP" in fields["originPostalCode"]
    assert fields["items[0].weight"] == "must be more than 0"
    assert fields["items[0].length"] == "must be a number"
    assert "NMFC" in fields["items[0].freightClass"]
    assert snake_path("items[0].freightClass") == "items[0].freight_class"


def test_item_count_is_bounded() -> None:
    with pytest.raises(RequestValidationError) as info:
        RateRequest.build(origin_postal_code="30301", dest_postal_code="10001", items=[])
    assert "items" in info.value.fields
    with pytest.raises(RequestValidationError):
        RateRequest.build(
            origin_postal_code="30301", dest_postal_code="10001", items=[_item()] * 41
        )


def test_quote_is_lenient_on_what_comes_in() -> None:
    quote = Quote.model_validate(
        {
            "id": "q_1",
            "createdDate": "2026-11-22T10:00:00",  # naive: taken as UTC
            "newField": {"kept": True},
            "rates": [
                {
                    "id": "r_1",
                    "status": "ok",
                    "mode": "ltl",
                    "total": "123.45",
                    "days": "3",
                    "carrier": "Acme",
                    "carrierCode": 42,
                    "serviceType": "standard",
                    "charges": [
                        {"name": "linehaul", "amount": 100.1},
                        {"name": "x", "amount": "-1"},
                    ],
                },
                {"id": "r_2", "status": "sold-out", "total": None, "charges": None, "days": 2.5},
            ],
        }
    )
    ok, odd = quote.rates
    assert ok.total == Decimal("123.45")
    assert ok.is_ok
    assert ok.days == 3
    assert ok.carrier_code == "42"
    assert ok.charges[0].amount == Decimal("100.1")  # never through float
    assert odd.status == "sold-out"
    assert not odd.is_ok
    assert odd.total == 0
    assert odd.days == 3
    assert quote.created_date == datetime(2026, 11, 22, 10, tzinfo=UTC)
    assert quote.model_extra == {"newField": {"kept": True}}
    assert quote.raw["newField"] == {"kept": True}
    assert quote.expires_at is None
    assert quote.rate("r_2") is odd


def test_snake_case_input_is_accepted_too() -> None:
    quote = Quote.model_validate({"id": "q", "rates": [], "expires_at": "2026-01-01T00:00:00Z"})
    assert quote.expires_at == datetime(2026, 1, 1, tzinfo=UTC)


def test_booking_reads_values_under_any_known_alias() -> None:
    booking = Booking.model_validate(
        {
            "shipmentId": "s_1",
            "proNumber": None,
            "pro": 123456789,
            "bol": "BOL-1",
            "pickup": {"confirmationNumber": "PU-9"},
            "documents": [{"type": "bol", "url": "http://h/documents/1.pdf"}, "http://h/x"],
        }
    )
    assert booking.shipment_id == "s_1"
    assert booking.pro_number == "123456789"
    assert booking.bol_number == "BOL-1"
    assert booking.pickup_confirmation == "PU-9"
    assert [d.url for d in booking.documents] == ["http://h/documents/1.pdf", "http://h/x"]
    assert booking.raw["pro"] == 123456789


def test_booking_aliases_are_configurable_through_context() -> None:
    data = {"shipmentId": "s", "carrierReference": "PRO-7"}
    assert Booking.model_validate(data).pro_number is None
    custom = Booking.model_validate(
        data, context={"booking_aliases": {"pro_number": ("carrierReference",)}}
    )
    assert custom.pro_number == "PRO-7"


def test_parcel_booking_accepts_one_tracking_number_or_many() -> None:
    one = ParcelBooking.model_validate({"shipmentId": "s", "trackingNumber": "1Z999"})
    assert one.tracking_numbers == ["1Z999"]
    many = ParcelBooking.model_validate(
        {"trackingNumbers": ["a", "b"], "labels": [{"format": "zpl", "url": "u"}]}
    )
    assert many.tracking_numbers == ["a", "b"]
    assert many.labels[0].format == "zpl"


def test_booking_request_checks_dock_hours_and_sends_quote_id_as_id() -> None:
    common: dict[str, Any] = {
        "quote_id": "q_1",
        "rate_id": "r_1",
        "origin_company": "A",
        "origin_address": "1 Main",
        "dest_company": "B",
        "dest_address": "2 Main",
    }
    req = BookingRequest(**common, origin_dock_hours_open="8:00", origin_dock_hours_close="16:30")
    body = json.loads(req.wire_json())
    assert body["id"] == "q_1"
    assert body["rateId"] == "r_1"
    assert body["originDockHoursOpen"] == "08:00 AM"
    assert body["originDockHoursClose"] == "04:30 PM"
    assert body["schedulePickup"] is False
    with pytest.raises(RequestValidationError) as info:
        BookingRequest.build(
            **common,
            origin_dock_hours_open="16:00",
            origin_dock_hours_close="09:00",
            origin_contact_phone="call me",
        )
    assert info.value.fields == {
        "originDockHoursClose": "must be later than the opening time",
        "originContactPhone": "must be a phone number like 404-555-0100",
    }
    with pytest.raises(RequestValidationError) as info:
        BookingRequest.build({**common, "quote_id": "", "origin_dock_hours_open": "25:00"})
    assert set(info.value.fields) == {"id", "originDockHoursOpen"}


def test_parcel_booking_request_checks_emails() -> None:
    with pytest.raises(RequestValidationError) as info:
        ParcelBookingRequest.build(id="q", rateId="r", destContactEmail="nobody")
    assert info.value.fields == {
        "destContactEmail": "must be an email address like name@example.com"
    }
    ok = ParcelBookingRequest(quote_id="q", rate_id="r", dest_contact_email="a@b.co")
    assert json.loads(ok.wire_json()) == {"id": "q", "rateId": "r", "destContactEmail": "a@b.co"}


def test_shipment_page_keeps_unknown_status_and_drops_empty_token() -> None:
    page = ShipmentPage.model_validate(
        {
            "shipments": [
                {
                    "id": "s1",
                    "createdDate": "2026-11-01T09:00:00-05:00",
                    "status": "lost-at-sea",
                    "origin": {
                        "company": "A",
                        "city": "Atlanta",
                        "state": "GA",
                        "postalCode": 30301,
                    },
                    "destination": None,
                    "carrier": {"name": "Acme", "scac": "ACME"},
                    "cost": {"total": "99.90", "currency": "USD"},
                    "pickupDate": "2026-11-02T08:00:00-05:00",
                }
            ],
            "continuationToken": "  ",
        }
    )
    ship = page.shipments[0]
    assert ship.status == "lost-at-sea"
    assert ship.origin.postal_code == "30301"
    assert ship.origin.one_line() == "A, Atlanta, GA 30301"
    assert ship.destination.company is None
    assert ship.cost is not None
    assert ship.cost.total == Decimal("99.90")
    assert ship.pickup_date == date(2026, 11, 2)
    assert ship.created_date is not None
    assert ship.created_date.utcoffset() is not None
    assert page.continuation_token is None
    assert ship.raw["status"] == "lost-at-sea"


def test_shipment_detail_with_minimal_and_odd_shapes() -> None:
    detail = ShipmentDetail.model_validate({"id": "s1", "items": None, "tracking": None})
    assert detail.items == []
    assert detail.tracking is None
    assert detail.status == ""
    full = ShipmentDetail.model_validate(
        {
            "id": "s2",
            "status": "picked-up",
            "items": [{"weight": "10.5", "quantity": 1, "hazardous": False, "nmfc": 12345}],
            "tracking": {"status": "in transit", "pickupDate": "2026-11-02T08:00:00"},
            "documents": [{"url": "http://h/d"}],
            "events": [{"time": "2026-11-02T08:00:00Z", "status": "picked-up", "location": None}],
        }
    )
    assert full.items[0].weight == Decimal("10.5")
    assert full.items[0].nmfc == "12345"
    assert full.tracking is not None
    assert full.tracking.pickup_date is not None
    assert full.tracking.pickup_date.tzinfo is not None
    assert full.events[0].status == "picked-up"


def test_shipment_query_is_strict() -> None:
    q = ShipmentQuery(text="  ", status="delivered", pickup_date_from=date(2026, 1, 1))
    assert q.text is None
    assert q.status == "delivered"
    with pytest.raises(RequestValidationError) as info:
        ShipmentQuery.build(
            status="lost", mode="boat", pickup_date_from="2026-02-01", pickup_date_to="2026-01-01"
        )
    assert set(info.value.fields) == {"status", "mode", "pickupDateTo"}


def test_odd_listing_shapes_are_read_in_a_page_and_alone() -> None:
    odd = {
        "id": "s9",
        "createdDate": "2026-11-01T09:00:00",  # no offset: UTC
        "status": None,
        "origin": None,
        "carrier": "Acme Freight",
        "cost": "12.5",
        "future": [1, 2],
    }
    normal = {"id": "s8", "status": "delivered", "createdDate": "2026-11-01T09:00:00Z"}
    page = ShipmentPage.model_validate({"shipments": [normal, odd]})
    alone = Shipment.model_validate(odd)
    for ship in (page.shipments[1], alone):
        assert ship.status == ""
        assert ship.origin.company is None
        assert ship.carrier is not None
        assert ship.carrier.name == "Acme Freight"
        assert ship.cost is not None
        assert ship.cost.total == Decimal("12.5")
        assert ship.created_date == datetime(2026, 11, 1, 9, tzinfo=UTC)
        assert ship.raw is odd
        assert ship.model_extra == {"future": [1, 2]}
    assert page.shipments[0].raw is normal
    assert page.shipments[0].status == "delivered"
    no_id = ShipmentPage.model_validate({"shipments": [{"status": "pending"}, normal]})
    assert [s.id for s in no_id.shipments] == ["s8"]  # an entry without id cannot be opened
    assert no_id.raw["shipments"][0] == {"status": "pending"}
