"""Requests take typed values (and today's strings); one WireFormat spells them on the wire."""

from __future__ import annotations

import json
from datetime import date, time
from typing import Any

import pytest

from tui.api import BookingRequest, ParcelBookingRequest, RateRequest, WireFormat
from tui.api.errors import RequestValidationError
from tui.domain.locations import LocationType

ITEM: dict[str, Any] = {
    "weight": 500, "length": 48, "width": 40, "height": 48, "quantity": 3, "package": "box",
}  # fmt: skip


def test_typed_values_and_todays_strings_give_one_body() -> None:
    typed = BookingRequest(
        quote_id="q",
        rate_id="r",
        origin_dock_hours_open=time(7, 30),
        origin_dock_hours_close=time(16, 0),
    )
    texts = BookingRequest.build(
        {"id": "q", "rateId": "r", "originDockHoursOpen": "07:30", "originDockHoursClose": "4 pm"}
    )
    assert typed.wire_dict() == texts.wire_dict()
    assert typed.wire_dict()["originDockHoursOpen"] == "07:30 AM"
    assert typed.wire_dict()["originDockHoursClose"] == "04:00 PM"
    assert typed.origin_dock_hours_open == time(7, 30)
    for spelling in (
        "business-dock",
        "business dock",
        "Business with dock",
        LocationType.BUSINESS_DOCK,
    ):
        req = RateRequest.build(
            origin_postal_code="30301", dest_postal_code="10001", items=[ITEM],
            origin_type=spelling, dest_type="distribution-center",
        )  # fmt: skip
        body = req.wire_dict()
        assert (body["originType"], body["destType"]) == ("business dock", "business dock")


def test_only_the_quote_and_rate_ids_are_required_to_book() -> None:
    assert json.loads(BookingRequest.build({"id": "q", "rateId": "r"}).wire_json()) == {
        "id": "q",
        "rateId": "r",
        "schedulePickup": False,
    }
    assert ParcelBookingRequest.build(id="q", rate_id="r").wire_dict() == {"id": "q", "rateId": "r"}
    with pytest.raises(RequestValidationError) as info:
        BookingRequest.build({"id": " ", "rateId": "r"})
    assert info.value.fields == {"id": "is required"}


def test_every_new_field_goes_under_its_wire_name() -> None:
    req = RateRequest.build(
        origin_postal_code="30301",
        dest_postal_code="h4p2n2",
        items=[
            {**ITEM, "description": "Paint", "nmfc": "149980", "stackable": False,
             "hazardous": True,
             "hazard": {"hazmat_id": "UN1263", "hazard_class": "3", "packing_group": "II"}}
        ],
        pickup_date=date(2026, 11, 23),
        charges=["Liftgate_Delivery", "inside delivery"],
        origin_company="Acme", origin_address="1 Main", origin_address2="Dock 4",
        origin_city="Atlanta", origin_state="GA", origin_country="US",
        origin_contact_name="Dana", origin_contact_phone="404-555-0100",
        origin_contact_email="dana@acme.example", origin_reference_number="PO-1",
        origin_instructions="Call ahead", origin_dock_hours_open="8:00",
        origin_dock_hours_close="17:00", dest_country="Canada", dest_dock_hours_open="13:15",
        bill_postal_code="30301", bill_country="USA",
        emergency_name="ChemTel", emergency_phone="800-255-3924",
    )  # fmt: skip
    body = req.wire_dict()
    assert body["destPostalCode"] == "H4P 2N2"
    assert body["pickupDate"] == "2026-11-23"
    assert body["charges"] == ["liftgate delivery", "inside delivery"]
    assert body["originAddress2"] == "Dock 4"
    assert body["originCountry"] == "USA"
    assert body["destCountry"] == "CAN"
    assert body["billCountry"] == "USA"
    assert body["originReferenceNumber"] == "PO-1"
    assert body["originInstructions"] == "Call ahead"
    assert body["originDockHoursOpen"] == "08:00 AM"
    assert body["destDockHoursOpen"] == "01:15 PM"
    assert (body["emergencyName"], body["emergencyPhone"]) == ("ChemTel", "800-255-3924")
    item = body["items"][0]
    assert item["pieces"] == 3
    assert item["package"] == "Boxes"
    assert (item["nmfc"], item["stackable"], item["hazardous"]) == ("149980", False, True)
    assert item["hazard"] == {"hazmatId": "UN1263", "hazardClass": "3", "packingGroup": "II"}
    bare = RateRequest.build(origin_postal_code="30301", dest_postal_code="10001", items=[ITEM])
    assert set(bare.wire_dict()) == {
        "originPostalCode", "destPostalCode", "items", "originType", "destType",
    }  # fmt: skip


def test_a_wire_format_can_change_every_spelling() -> None:
    wire = WireFormat(
        location_types={LocationType.BUSINESS_DOCK: "Commercial"},
        time_format="24h",
        item_count=("quantity",),
        package_labels={"box": "BX"},
        countries={"US": "US"},
    )
    req = RateRequest.build(
        origin_postal_code="30301", dest_postal_code="10001", items=[ITEM],
        origin_country="USA", dest_type="residential", origin_dock_hours_open="9:05 pm",
    )  # fmt: skip
    body = json.loads(req.wire_json(wire))
    assert body["originType"] == "Commercial"
    assert body["destType"] == "residential"
    assert body["originDockHoursOpen"] == "21:05"
    assert body["originCountry"] == "US"
    assert body["items"][0] == {**ITEM, "package": "BX"}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("origin_type", "moon base", "must be a location type: business dock"),
        ("origin_dock_hours_open", "25:00", "between 00:00 and 23:59"),
        ("origin_dock_hours_open", "13:00 PM", "hours 1 to 12"),
        ("origin_country", "MX", "must be US or CA"),
    ],
)
def test_bad_values_are_named_at_their_field(field: str, value: str, message: str) -> None:
    with pytest.raises(RequestValidationError) as info:
        RateRequest.build(
            origin_postal_code="30301", dest_postal_code="10001", items=[ITEM], **{field: value}
        )
    assert len(info.value.fields) == 1
    assert message in next(iter(info.value.fields.values()))


def test_dock_hours_must_close_after_they_open_at_both_ends() -> None:
    with pytest.raises(RequestValidationError) as info:
        BookingRequest.build(
            id="q", rate_id="r", dest_dock_hours_open="4:00 PM", dest_dock_hours_close="09:00"
        )
    assert info.value.fields == {"destDockHoursClose": "must be later than the opening time"}
