"""Shipments move pending -> awarded -> confirmed -> picked-up -> delivered on the clock."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.sandbox.conftest import Clock, first_ok, rate_body
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.lifecycle import plan, status_at

ORDER = ["pending", "awarded", "confirmed", "picked-up", "delivered"]


async def book(client: httpx.AsyncClient) -> str:
    quote = (await client.post("/rates", json=rate_body())).json()
    response = await client.post(
        "/book", json={"id": quote["id"], "rateId": first_ok(quote)["id"], "schedulePickup": True}
    )
    assert response.status_code == 201
    shipment_id: str = response.json()["shipmentId"]
    return shipment_id


async def test_a_booking_moves_through_every_status(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    shipment_id = await book(clocked_client)
    seen: list[str] = []
    tracking: list[str] = []
    last: dict[str, Any] = {}
    for _ in range(400):
        last = (await clocked_client.get(f"/shipments/{shipment_id}")).json()
        listed = (await clocked_client.get("/shipments", params={"search": shipment_id})).json()
        assert listed["shipments"][0]["status"] == last["status"]
        if not seen or seen[-1] != last["status"]:
            seen.append(last["status"])
        if not tracking or tracking[-1] != last["tracking"]["status"]:
            tracking.append(last["tracking"]["status"])
        if last["status"] == "delivered":
            break
        clock.advance(timedelta(seconds=30 if last["status"] != "picked-up" else 90))
    assert seen == ORDER
    assert tracking == ["booked", "pickup-scheduled", "in-transit", "out-for-delivery", "delivered"]
    events = last["events"]
    assert events[0]["status"] == "delivered"
    assert events[-1]["status"] == "pending"
    times = [e["time"] for e in events]
    assert times == sorted(times, reverse=True)
    # The dates are the days the shipment is scheduled for (what the BOL says), on every
    # clock; the statuses and events move on the compressed one.
    assert last["tracking"]["pickupDate"][:10] == last["requestedPickupDate"]
    assert last["pickupDate"] == last["tracking"]["pickupDate"]
    assert listed["shipments"][0]["pickupDate"] == last["pickupDate"]
    assert last["tracking"]["pickupDate"] < last["tracking"]["deliveryDate"]
    # 60x clock: a next-day pickup and a 3-day transit pass within a few real hours
    assert clock.current - clock.start < timedelta(hours=4)


async def test_status_filter_follows_the_clock(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    shipment_id = await book(clocked_client)
    pending = (await clocked_client.get("/shipments", params={"status": "pending"})).json()
    assert shipment_id in {s["id"] for s in pending["shipments"]}
    clock.advance(timedelta(days=1))
    delivered = (
        await clocked_client.get("/shipments", params={"status": "delivered", "limit": 5})
    ).json()
    assert delivered["shipments"][0]["id"] == shipment_id


def test_plan_cancel_and_fall_off() -> None:
    import random

    canceled = plan(1_000_000.0, "ltl", 2, -87.6, -84.4, random.Random(1), cancel=True)
    statuses = [s for _, s in canceled.timeline]
    assert statuses[-1] == "canceled"
    assert "picked-up" not in statuses
    assert status_at(canceled.timeline, 10**10) == ("canceled", None)
    fell = plan(1_000_000.0, "truckload", 2, -87.6, -84.4, random.Random(2), falloff=True)
    statuses = [s for _, s in fell.timeline]
    assert statuses[:4] == ["pending", "awarded", "pending", "awarded"]
    fast = plan(1_000_000.0, "ltl", 2, -87.6, -84.4, random.Random(3), speed=60)
    slow = plan(1_000_000.0, "ltl", 2, -87.6, -84.4, random.Random(3), speed=1)
    assert fast.timeline[-1][0] - 1_000_000 < (slow.timeline[-1][0] - 1_000_000) / 50
    assert (fast.pickup_at, fast.delivered_at) == (slow.pickup_at, slow.delivered_at)


def test_seeded_history_is_varied(seeded_db_2000: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.sqlite3"
    shutil.copyfile(seeded_db_2000, path)
    app = create_app(SandboxConfig(db_path=path))
    try:
        conn = app.db.conn
        statuses = {r[0] for r in conn.execute("SELECT DISTINCT status FROM shipments")}
        assert statuses == set(ORDER) | {"canceled"}
        modes = {r[0] for r in conn.execute("SELECT DISTINCT mode FROM shipments")}
        assert modes == {"ltl", "parcel", "truckload"}
        carriers = {r[0] for r in conn.execute("SELECT DISTINCT carrier_code FROM shipments")}
        assert {"HGFL", "BCXP", "WRNP", "TGTL", "RGFB"} <= carriers
        assert len(carriers) >= 8
        oldest, newest = conn.execute("SELECT min(created), max(created) FROM shipments").fetchone()
        assert (newest - oldest) / 86_400_000 > 90
        cities = conn.execute("SELECT count(DISTINCT o_city) FROM shipments").fetchone()[0]
        assert cities > 100
        canceled = conn.execute("SELECT count(*) FROM shipments WHERE status = 'canceled'")
        assert 20 < canceled.fetchone()[0] < 200
    finally:
        app.close()
