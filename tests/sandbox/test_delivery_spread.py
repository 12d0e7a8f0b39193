"""Deliveries on a realistic spread: each carrier late on its own share, and tracking tells
the delivered day the shipment is scheduled for, in the history and for a booking."""

from __future__ import annotations

import shutil
from collections import Counter
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from tests.sandbox.conftest import Clock, client_for
from tests.sandbox.test_lifecycle import book
from tui.sandbox import SandboxConfig, create_app


def delivered_day(events: list[dict[str, Any]]) -> date:
    (delivered,) = [e for e in events if e["eventType"] == "delivered"]
    return date.fromisoformat(delivered["eventDate"])


def local_day(stamp: str, zone: str) -> date:
    return datetime.fromisoformat(stamp).astimezone(ZoneInfo(zone)).date()


def test_each_carrier_is_late_on_its_own_share(seeded_db_2000: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.sqlite3"
    shutil.copyfile(seeded_db_2000, path)
    app = create_app(SandboxConfig(db_path=path))
    try:
        rows = app.db.conn.execute(
            "SELECT carrier_code, timeline FROM shipments WHERE status = 'delivered'"
        ).fetchall()
    finally:
        app.close()
    delivered = Counter(code for code, _ in rows)
    late = Counter(code for code, timeline in rows if '"delayed"' in timeline)
    share = {code: late[code] / n for code, n in delivered.items() if n >= 60}
    assert {"HGFL", "BCXP", "WRNP"} <= set(share)
    assert all(0.04 <= s <= 0.30 for s in share.values()), share
    assert 0.08 <= sum(late.values()) / sum(delivered.values()) <= 0.22
    assert share["HGFL"] > share["BCXP"]  # the economy carrier is late more often
    assert len({round(s, 2) for s in share.values()}) > 1


async def test_history_is_delivered_on_real_dates(seeded_db_2000: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.sqlite3"
    shutil.copyfile(seeded_db_2000, path)
    app = create_app(SandboxConfig(db_path=path))
    try:
        async with client_for(app, "demo.demo-secret") as http:
            listed = (await http.get("/shipments", params={"status": "delivered"})).json()
            shipments = listed["shipments"][:5]
            assert shipments
            for listed_one in shipments:
                sid = listed_one["id"]
                detail = (await http.get(f"/shipments/{sid}")).json()
                events = (await http.get(f"/shipments/{sid}/tracking")).json()
                zone = events[-1]["timeZone"]
                day = delivered_day(events)
                assert day == local_day(detail["tracking"]["deliveryDate"], zone)
                assert day > date.fromisoformat(detail["tracking"]["pickupDate"][:10])
                assert day <= app.config.current_time().date() + timedelta(days=1)
    finally:
        app.close()


async def test_a_booking_is_told_on_the_sandboxs_own_clock(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    shipment_id = await book(clocked_client)
    detail: dict[str, Any] = {}
    for _ in range(200):
        detail = (await clocked_client.get(f"/shipments/{shipment_id}")).json()
        if detail["status"] == "delivered":
            break
        clock.advance(timedelta(minutes=5))
    assert detail["status"] == "delivered"
    assert clock.current - clock.start < timedelta(hours=6)  # the 60x clock
    events = (await clocked_client.get(f"/shipments/{shipment_id}/tracking")).json()
    zone = events[-1]["timeZone"]
    day = delivered_day(events)
    pickup = next(e for e in events if e["eventType"] == "picked-up")
    # the delivered day is the one scheduled, days after the pickup, not the day it was booked
    assert day == local_day(detail["tracking"]["deliveryDate"], zone)
    assert date.fromisoformat(pickup["eventDate"]) == date.fromisoformat(
        detail["tracking"]["pickupDate"][:10]
    )
    assert day > date.fromisoformat(pickup["eventDate"]) > clock.start.date()
    stamps = [(e["eventDate"], e["eventTime"]) for e in events if e["timeZone"] == zone]
    assert stamps == sorted(stamps)
