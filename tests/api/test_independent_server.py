"""The client against a second server, written apart from the sandbox (tests/independent_server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal

import httpx
import pytest

from tests.independent_server import QUERY, TOKEN, IndependentServer
from tui.api import (
    BookingRequest,
    ConflictError,
    FreightClient,
    LocationType,
    RateRequest,
    ShipmentQuery,
)
from tui.config.settings import Profile
from tui.session import client_options_for

BASE = "http://indie.test"


def _profile() -> Profile:
    """A profile whose [wire] table names this server's query parameters."""
    return Profile.model_validate(
        {
            "name": "indie",
            "base_url": BASE,
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


@pytest.fixture
def server() -> IndependentServer:
    return IndependentServer()


@pytest.fixture
async def client(server: IndependentServer) -> AsyncIterator[FreightClient]:
    transport = httpx.ASGITransport(app=server.app())
    options = client_options_for(_profile())
    async with FreightClient(BASE, TOKEN, transport=transport, options=options) as c:
        yield c


def _request() -> RateRequest:
    return RateRequest(
        origin_postal_code="30318",
        dest_postal_code="H4P 2N2",
        origin_type=LocationType.BUSINESS_DOCK,
        dest_type="Place of worship",
        pickup_date=date(2026, 11, 23),
        dest_country="CAN",
        charges=["Liftgate-Delivery", "arrival schedule"],
        items=[
            {"weight": 640, "length": 48, "width": 40, "height": 50, "quantity": 2,
             "package": "pallet", "description": "Hymn books", "stackable": False}
        ],
    )  # fmt: skip


async def test_rates_booking_search_detail_tracking_against_another_server(
    client: FreightClient, server: IndependentServer
) -> None:
    quote = await client.get_rates(_request())
    sent = server.bodies[-1]
    assert sent["originType"] == "business dock"
    assert sent["destType"] == "place of worship"
    assert sent["items"][0]["pieces"] == 2
    assert sent["items"][0]["package"] == "Pallets"
    assert sent["pickupDate"] == "2026-11-23"
    assert sent["destCountry"] == "CAN"
    assert sent["charges"] == ["liftgate delivery", "arrival schedule"]
    assert "originCompany" not in sent  # optional fields left out are not sent

    assert quote.id == "QX-1"
    maple, prairie, slow = quote.rates
    assert (maple.id, maple.carrier, maple.carrier_code) == ("QX-1-A", "Maple Leaf Freight", "MLFT")
    assert (maple.total, maple.currency, maple.mode, maple.is_ok) == (
        Decimal("1234.50"),
        "CAD",
        "ltl",
        True,
    )
    assert maple.charges[0].currency == "CAD"
    assert (prairie.total, prairie.currency, prairie.mode) == (Decimal("987.25"), "USD", "ltl")
    assert prairie.service_type == "standard"
    assert [r.id for r in quote.rates if r.mode == "ltl"] == ["QX-1-A", "QX-1-B"]
    assert slow.mode == "truckload"
    assert not slow.is_ok
    assert slow.message == "no trucks on this lane"
    assert quote.raw["meta"] == {"v": 2}

    booking = await client.book(
        BookingRequest(
            quote_id=quote.id,
            rate_id=maple.id,
            origin_dock_hours_open=time(9, 0),
            origin_dock_hours_close="17:30",
            reference="PO-118",
        )
    )
    assert server.requests["POST /book"] == 1
    assert server.bodies[-1]["originDockHoursOpen"] == "09:00 AM"
    assert server.bodies[-1]["originDockHoursClose"] == "05:30 PM"
    assert booking.shipment_id is None
    assert booking.pro_number == "PRO7001"
    assert booking.bol_number == "BOL-1"
    assert booking.carrier == "Maple Leaf Freight"
    assert booking.status == "confirmed"
    assert booking.identifiers == {"pro_number": "PRO7001", "bol_number": "BOL-1"}

    # The same quote and rate again: the server refuses, and the client did not re-send.
    with pytest.raises(ConflictError):
        await client.book(BookingRequest(quote_id=quote.id, rate_id=maple.id))
    assert server.requests["POST /book"] == 2
    assert len(server.shipments) == 1

    # Found by its PRO through this server's own query names, in pages of its size.
    await client.book(BookingRequest(quote_id=quote.id, rate_id=prairie.id))
    await client.book(BookingRequest(quote_id=quote.id, rate_id=slow.id))
    found = [s async for s in client.iter_shipments(ShipmentQuery(text=booking.pro_number))]
    assert [s.id for s in found] == ["SH0001"]
    listed = found[0]
    assert listed.quote_id is None
    assert listed.status == "confirmed"
    assert listed.mode == "ltl"
    assert listed.carrier is not None
    assert listed.carrier.scac == "MLFT"
    assert listed.cost is not None
    assert (listed.cost.total, listed.cost.currency) == (
        Decimal("1234.50"),
        "CAD",
    )
    confirmed = ShipmentQuery(status="Confirmed")
    everything = [s async for s in client.iter_shipments(confirmed, limit=2)]
    assert len(everything) == 3
    assert server.requests["GET /shipments"] >= 3  # pages of two, token under "cursor"

    detail = await client.get_shipment("SH0001")
    assert detail.status == "confirmed"
    assert (detail.pro_number, detail.bol_number) == ("PRO7001", "BOL-1")
    assert detail.created_date == datetime(2026, 11, 20, 20, 4, 5, tzinfo=UTC)
    assert detail.items[0].quantity == 2
    assert detail.items[0].hazardous is False
    assert detail.items[0].weight == Decimal(640)

    events = await client.get_tracking("SH0001")
    assert server.requests["GET /shipments/SH0001/tracking"] == 1
    assert [e.summary for e in events] == [
        "Arrived at terminal",
        "Picked up at origin",
        "Shipment created",
    ]
    assert all(e.time is not None and e.time.utcoffset() is not None for e in events)
    arrived, picked, created = events
    assert arrived.time == datetime(2026, 11, 22, 13, 40, tzinfo=UTC)
    assert arrived.location == "Memphis, TN"
    assert arrived.event_type == "ARRIVAL"
    assert picked.time is not None
    assert picked.time.astimezone(UTC) == datetime(2026, 11, 21, 14, 15, tzinfo=UTC)
    assert created.time == datetime(2026, 11, 20, 15, 4, 5, tzinfo=UTC) + timedelta(hours=5)
    assert server.requests["POST /book"] == 4


async def test_tracking_falls_back_to_the_detail_when_the_server_has_no_endpoint(
    server: IndependentServer, client: FreightClient
) -> None:
    server.tracking = False
    quote = await client.get_rates(_request())
    await client.book(BookingRequest(quote_id=quote.id, rate_id=quote.rates[0].id))
    events = await client.get_tracking("SH0001")
    assert server.requests["GET /shipments/SH0001/tracking"] == 1
    assert server.requests["GET /shipments/SH0001"] == 1
    assert [e.summary for e in events] == ["Picked up at origin"]


async def test_a_server_that_wants_the_spec_spelling_gets_it_from_the_wire_table() -> None:
    profile = Profile.model_validate(
        {
            "name": "spec",
            "base_url": BASE,
            "environment": "sandbox",
            "wire": {
                "location_types": {"business dock": "BUSINESS_DOCK"},
                "time_format": "24h",
                "item_count": "quantity",
                "package_labels": {"Pallets": "PLT"},
                "countries": {"CA": "CA"},
            },
        }
    )
    wire = client_options_for(profile).wire
    body = _request().wire_dict(wire)
    assert body["originType"] == "BUSINESS_DOCK"
    assert body["destType"] == "place of worship"
    assert body["items"][0]["quantity"] == 2
    assert "pieces" not in body["items"][0]
    assert body["items"][0]["package"] == "PLT"
    assert body["destCountry"] == "CA"
    booking = BookingRequest(quote_id="q", rate_id="r", dest_dock_hours_open="9:00 PM")
    assert booking.wire_dict(wire)["destDockHoursOpen"] == "21:00"
