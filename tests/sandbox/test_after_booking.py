"""After the booking in the sandbox: cancel, pickup request/move/cancel, refusals, the bill."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import Clock, client_for, first_ok, rate_body
from tui.sandbox import DEMO_TOKEN, SandboxConfig, billing, create_app
from tui.sandbox.app import SandboxApp


@pytest.fixture
def slow_app(sandbox_config: SandboxConfig, clock: Clock) -> Iterator[SandboxApp]:
    """A sandbox whose bookings live on its own clock (no compression): the cut-off shows."""
    app = create_app(dataclasses.replace(sandbox_config, now=clock.now, clock_speed=1.0))
    yield app
    app.close()


@pytest.fixture
async def http(slow_app: SandboxApp) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(slow_app, DEMO_TOKEN) as client:
        yield client


async def _book(http: httpx.AsyncClient, *, pickup: bool = True) -> dict[str, Any]:
    quote = (await http.post("/rates", json=rate_body())).json()
    rate = first_ok(quote, "ltl")
    answer = await http.post(
        "/book", json={"id": quote["id"], "rateId": rate["id"], "schedulePickup": pickup}
    )
    assert answer.status_code == 201, answer.text
    booked: dict[str, Any] = answer.json()
    return booked


async def _detail(http: httpx.AsyncClient, sid: str) -> dict[str, Any]:
    answer = await http.get(f"/shipments/{sid}")
    assert answer.status_code == 200, answer.text
    detail: dict[str, Any] = answer.json()
    return detail


async def test_a_cancel_cancels_once_and_the_detail_and_tracking_follow(
    http: httpx.AsyncClient,
) -> None:
    booked = await _book(http)
    sid = booked["shipmentId"]
    answer = await http.post(f"/shipments/{sid}/cancel")
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "canceled"
    detail = await _detail(http, sid)
    assert detail["status"] == "canceled"
    assert detail["tracking"]["status"] == "canceled"
    assert detail["pickupDate"] is None
    assert detail["events"][0]["description"] == "Canceled by shipper"
    again = await http.post(f"/shipments/{sid}/cancel")
    assert again.status_code == 409
    assert again.json()["name"] == "SHIPMENT_CANCELED"
    listing = (await http.get("/shipments", params={"search": booked["proNumber"]})).json()
    assert [s["status"] for s in listing["shipments"]] == ["canceled"]


async def test_a_pickup_moves_is_canceled_and_is_asked_for_again(
    http: httpx.AsyncClient,
) -> None:
    booked = await _book(http)
    sid, first_conf = booked["shipmentId"], booked["pickupConfirmation"]
    assert first_conf
    moved = await http.put(
        f"/shipments/{sid}/pickup",
        json={"pickupDate": "2026-03-13", "readyTime": "09:00 AM", "closeTime": "03:00 PM"},
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["pickupConfirmation"] == first_conf
    detail = await _detail(http, sid)
    assert detail["pickupDate"].startswith("2026-03-13")
    assert detail["pickupWindow"] == {"ready": "09:00", "close": "15:00"}
    assert detail["events"][0]["description"] == f"Pickup moved to 2026-03-13 ({first_conf})"
    assert (await http.delete(f"/shipments/{sid}/pickup")).status_code == 200
    detail = await _detail(http, sid)
    assert detail["pickupDate"] is None
    assert detail["tracking"]["status"] == "booked"
    assert detail["events"][0]["description"] == "Pickup canceled by shipper"
    none = await http.put(f"/shipments/{sid}/pickup", json={"pickupDate": "2026-03-16"})
    assert (none.status_code, none.json()["name"]) == (404, "NO_PICKUP")
    asked = await http.post(f"/shipments/{sid}/pickup", json={"pickupDate": "2026-03-16"})
    assert asked.status_code == 201, asked.text
    assert asked.json()["pickupConfirmation"] not in (None, first_conf)
    twice = await http.post(f"/shipments/{sid}/pickup", json={"pickupDate": "2026-03-17"})
    assert (twice.status_code, twice.json()["name"]) == (409, "PICKUP_EXISTS")
    assert (await _detail(http, sid))["pickupDate"].startswith("2026-03-16")


async def test_a_weekend_or_a_bad_window_is_a_field_error(http: httpx.AsyncClient) -> None:
    sid = (await _book(http))["shipmentId"]
    weekend = await http.put(f"/shipments/{sid}/pickup", json={"pickupDate": "2026-03-14"})
    assert weekend.status_code == 400
    assert weekend.json()["fields"][0]["field"] == "pickupDate"
    narrow = await http.put(
        f"/shipments/{sid}/pickup",
        json={"pickupDate": "2026-03-12", "readyTime": "14:00", "closeTime": "15:00"},
    )
    assert narrow.json()["fields"][0]["field"] == "closeTime"


async def test_changes_are_refused_after_the_cutoff_and_once_picked_up(
    http: httpx.AsyncClient, clock: Clock
) -> None:
    booked = await _book(http)
    sid = booked["shipmentId"]
    pickup = datetime.fromisoformat((await _detail(http, sid))["pickupDate"].replace("Z", "+00:00"))
    # Chicago is UTC-5 in March (daylight time): the cut-off is 10:00 local, 15:00 UTC.
    cutoff = datetime(pickup.year, pickup.month, pickup.day, 15, tzinfo=UTC)
    assert pickup > cutoff
    clock.current = cutoff + timedelta(minutes=1)
    late = await http.post(f"/shipments/{sid}/cancel")
    assert (late.status_code, late.json()["name"]) == (409, "PAST_CUTOFF")
    moved = await http.put(f"/shipments/{sid}/pickup", json={"pickupDate": "2026-03-16"})
    assert (moved.status_code, moved.json()["name"]) == (409, "PAST_CUTOFF")
    clock.current = pickup + timedelta(minutes=1)
    gone = await http.delete(f"/shipments/{sid}/pickup")
    assert (gone.status_code, gone.json()["name"]) == (409, "ALREADY_PICKED_UP")
    assert (await _detail(http, sid))["status"] == "picked-up"


async def test_a_parcel_has_no_pickup_to_change_and_an_unknown_id_is_404(
    http: httpx.AsyncClient,
) -> None:
    missing = await http.post("/shipments/SHP_nope/cancel")
    assert (missing.status_code, missing.json()["name"]) == (404, "SHIPMENT_NOT_FOUND")
    wrong = await http.get("/shipments/SHP_nope/cancel")
    assert wrong.status_code == 405


def _rows(app: SandboxApp) -> list[sqlite3.Row]:
    with app.db.lock() as conn:
        return list(conn.execute("SELECT * FROM shipments ORDER BY seq"))


async def test_some_ltl_bills_come_in_above_the_quote_and_the_listing_shows_it(
    sandbox_app: SandboxApp,
) -> None:
    now_s = int(sandbox_app.config.current_time().timestamp())
    adjusted = {
        row["id"]: (row, found)
        for row in _rows(sandbox_app)
        if (found := billing.adjustment(row, now_s)) is not None
    }
    causes = {found.cause for _, found in adjusted.values()}
    assert causes == {"reweigh", "reclass", "accessorial"}
    async with client_for(sandbox_app, DEMO_TOKEN) as http:
        listed: dict[str, dict[str, Any]] = {}
        token = None
        while True:
            params = {"limit": "100", **({"continuationToken": token} if token else {})}
            page = (await http.get("/shipments", params=params)).json()
            listed.update({s["id"]: s for s in page["shipments"]})
            token = page.get("continuationToken")
            if not token:
                break
        for sid, (row, found) in adjusted.items():
            billed = Decimal(str(listed[sid]["cost"]["total"]))
            assert billed == (Decimal(row["total_cents"] + found.cents) / 100)
            assert listed[sid]["adjustments"][0]["type"] == found.cause
        reweighed = next(sid for sid, (_, f) in adjusted.items() if f.cause == "reweigh")
        detail = (await http.get(f"/shipments/{reweighed}")).json()
        row = adjusted[reweighed][0]
        assert detail["items"] != __import__("json").loads(row["items"])
        assert Decimal(str(detail["quotedTotal"])) == Decimal(row["total_cents"]) / 100
    for row in _rows(sandbox_app):
        if row["mode"] != "ltl" or row["status"] == "canceled":
            assert row["id"] not in adjusted


def test_the_share_of_adjusted_bills_is_about_a_third() -> None:
    rows = [
        {"id": f"SHP_{n:08d}", "items": '[{"weight": 500, "quantity": 2, "description": "x",'
         ' "freightClass": 70}]', "total_cents": 40000}
        for n in range(20000)
    ]  # fmt: skip
    found = [billing._draw(row) for row in rows]  # type: ignore[arg-type]
    share = {
        cause: sum(1 for f in found if f is not None and f.cause == cause) / len(rows)
        for cause, _ in billing.SHARES
    }
    assert abs(share["reweigh"] - 0.14) < 0.01
    assert abs(share["reclass"] - 0.10) < 0.01
    assert abs(share["accessorial"] - 0.08) < 0.01
