"""GET /shipments/{id}/tracking: the later API version's event list, in local times."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import httpx

from tests.sandbox.conftest import Clock, first_ok, rate_body
from tests.sandbox.test_errors import assert_error


async def _book(client: httpx.AsyncClient) -> str:
    quote = (await client.post("/rates", json=rate_body("60601", "30303"))).json()
    response = await client.post(
        "/book", json={"id": quote["id"], "rateId": first_ok(quote, "ltl")["id"]}
    )
    assert response.status_code == 201
    shipment_id: str = response.json()["shipmentId"]
    return shipment_id


async def test_events_follow_the_lifecycle_on_the_clock(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    shipment_id = await _book(clocked_client)
    first = await clocked_client.get(f"/shipments/{shipment_id}/tracking")
    assert first.status_code == 200
    events = first.json()
    assert isinstance(events, list)
    assert [e["eventType"] for e in events] == ["booked"]
    clock.advance(timedelta(days=10))
    events = (await clocked_client.get(f"/shipments/{shipment_id}/tracking")).json()
    kinds = [e["eventType"] for e in events]
    assert kinds[0] == "booked"
    assert kinds[-1] == "delivered"
    assert "picked-up" in kinds
    assert "out-for-delivery" in kinds
    for event in events:
        assert set(event) >= {"summary", "eventDate", "eventTime", "eventType", "createdDate"}
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", event["eventDate"])
        assert re.fullmatch(r"\d{2}:\d{2}", event["eventTime"])
        created = datetime.fromisoformat(event["createdDate"])
        assert created.utcoffset() == timedelta(0)
        assert created <= clock.now()
    stamps = [(e["createdDate"]) for e in events]
    assert stamps == sorted(stamps)  # oldest first
    picked = next(e for e in events if e["eventType"] == "picked-up")
    assert picked["timeZone"] == "America/Chicago"
    assert picked["location"] == "Chicago, IL"
    delivered = events[-1]
    assert delivered["timeZone"] == "America/New_York"
    assert delivered["summary"].startswith("Delivered")
    detail = (await clocked_client.get(f"/shipments/{shipment_id}")).json()
    assert detail["status"] == "delivered"
    assert len(detail["events"]) == len(events)


async def test_event_times_are_local_to_where_they_happened(client: httpx.AsyncClient) -> None:
    listing = (await client.get("/shipments", params={"status": "delivered", "limit": 1})).json()
    shipment = listing["shipments"][0]
    events = (await client.get(f"/shipments/{shipment['id']}/tracking")).json()
    from zoneinfo import ZoneInfo

    for event in events:
        zone = ZoneInfo(event["timeZone"])
        local = datetime.fromisoformat(f"{event['eventDate']}T{event['eventTime']}").replace(
            tzinfo=zone
        )
        reported = datetime.fromisoformat(event["createdDate"])
        assert timedelta(0) <= reported - local < timedelta(minutes=12)


async def test_unknown_shipment_is_404(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/shipments/shp_nope/tracking"), 404, "SHIPMENT_NOT_FOUND")
    assert_error(await client.post("/shipments/shp_nope/tracking", json={}), 405,
                 "METHOD_NOT_ALLOWED")  # fmt: skip
