"""What the Book screen checks and shows of hazardous freight before it is sent (issue 37,
item 3): an item with a UN number and no proper shipping name is refused (the BOL read "Drum
freight"), and a hazardous order priced by a parcel carrier says so on the confirmation."""

from __future__ import annotations

from tui.api.models import BookingRequest, ParcelBookingRequest, RateItem, RateRequest
from tui.api.models.rates import Hazard
from tui.forms.book_summary import PARCEL_HAZMAT, confirm_rows, hazmat_problems


def _request(description: str | None) -> RateRequest:
    drum = RateItem(
        weight=400,
        length=24,
        width=24,
        height=36,
        quantity=1,
        package="drum",
        description=description,
        hazardous=True,
        hazard=Hazard(hazmat_id="UN1263", hazard_class="3", packing_group="II"),
    )
    return RateRequest(
        origin_postal_code="60607",
        dest_postal_code="30303",
        items=[drum],
        emergency_name="CHEMTREC",
        emergency_phone="800-424-9300",
    )


ENDS = {
    "id": "Q1",
    "rateId": "R1",
    "originCompany": "Acme Dock Co",
    "originAddress": "1200 W Lake St",
    "destCompany": "Peach Retail",
    "destAddress": "88 Peachtree St NE",
}


def test_a_un_number_without_a_proper_shipping_name_is_not_booked() -> None:
    assert hazmat_problems(_request(None)) == [
        "item 1: UN1263 needs its proper shipping name as the description (e.g. Paint, "
        "flammable); the BOL must name hazardous freight"
    ]
    assert hazmat_problems(_request("Paint, flammable")) == []


def test_a_hazardous_order_priced_by_a_parcel_carrier_says_so_before_booking() -> None:
    request = _request("Paint, flammable")
    parcel = dict(confirm_rows(request, ParcelBookingRequest.build(ENDS), None))
    assert PARCEL_HAZMAT in parcel["Hazmat"]
    ltl = dict(confirm_rows(request, BookingRequest.build(ENDS), True))
    assert PARCEL_HAZMAT not in ltl["Hazmat"]
    assert "UN1263" in ltl["Hazmat"]
