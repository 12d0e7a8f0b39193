"""After the booking: cancel a shipment, request, move or cancel its pickup.

The lifecycle rule (README "After the booking"): a shipment can be canceled, and its pickup
requested, moved or canceled, until the carrier's cut-off on the pickup day: **10:00 local
time at the origin** (the sandbox's carriers pick up between 10:00 and 16:00). After the
cut-off, and in any case once the shipment is picked up (or delivered), the service refuses
with 409 ``PAST_CUTOFF`` or ``ALREADY_PICKED_UP``. A canceled shipment refuses every change
with 409 ``SHIPMENT_CANCELED`` (a second cancel too: the first one stands). The detail and
the tracking follow each change: a cancel ends the timeline with ``canceled`` ("Canceled by
shipper"); a moved pickup re-plans the pickup and the delivery (same business days of
transit) and tells "Pickup moved to …"; a canceled pickup drops the pickup and what follows
and tells "Pickup canceled by shipper" (the shipment waits, booked, for a new one).
"""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tui.sandbox import calendar, formats, identifiers, lifecycle
from tui.sandbox.db import Database
from tui.sandbox.errors import ApiError, FieldErrors
from tui.sandbox.geo import Zip, lookup
from tui.sandbox.seed import SERIAL_STARTS
from tui.sandbox.store import next_serial
from tui.sandbox.validation import MAX_PICKUP_AHEAD, local_today, require_object

CUTOFF_HOUR = 10
"""The carriers' cut-off on the pickup day, local time at the origin."""

_AFTER_PICKUP = ("picked-up", "delivered", "delayed")


def _zone(place: Zip | None) -> ZoneInfo:
    try:
        return ZoneInfo(place.timezone if place else "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _details(row: sqlite3.Row) -> dict[str, Any]:
    details = json.loads(row["details"] or "{}")
    return details if isinstance(details, dict) else {}


def has_pickup(row: sqlite3.Row) -> bool:
    """Whether a pickup is scheduled (confirmed and not canceled)."""
    return bool(row["pickup_conf"]) and not _details(row).get("pickupCanceled")


def _refusal(row: sqlite3.Row, now: datetime, what: str) -> ApiError | None:
    """Why ``what`` is refused now (None: allowed)."""
    timeline = lifecycle.load_timeline(row["timeline"])
    status, _ = lifecycle.status_at(timeline, int(now.timestamp()))
    sid = row["id"]
    if status == "canceled":
        return ApiError(409, "SHIPMENT_CANCELED", f"Shipment {sid} is canceled: {what} refused.")
    if status in _AFTER_PICKUP:
        return ApiError(
            409, "ALREADY_PICKED_UP", f"Shipment {sid} is {status}: {what} refused.",
            extra={"status": status},
        )  # fmt: skip
    if row["pickup_at"] is not None and not _details(row).get("pickupCanceled"):
        origin = lookup(row["o_zip"])
        zone = _zone(origin)
        day = datetime.fromtimestamp(int(row["pickup_at"]), UTC).astimezone(zone).date()
        cutoff = datetime(day.year, day.month, day.day, CUTOFF_HOUR, tzinfo=zone)
        if now >= cutoff:
            return ApiError(
                409,
                "PAST_CUTOFF",
                f"The carrier's cut-off for shipment {sid} was {cutoff.isoformat()} "
                f"(10:00 at the origin on the pickup day): {what} refused.",
                extra={"cutoff": cutoff.isoformat()},
            )
    return None


def _load(conn: sqlite3.Connection, sid: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM shipments WHERE id = ?", (sid,)
    ).fetchone()
    if row is None:
        raise ApiError(404, "SHIPMENT_NOT_FOUND", f"No shipment {sid}.")
    return row


def _save(
    conn: sqlite3.Connection,
    row: sqlite3.Row,
    timeline: list[tuple[int, str]],
    now_s: int,
    **columns: Any,
) -> None:
    status, next_at = lifecycle.status_at(timeline, now_s)
    values = {
        "timeline": json.dumps(timeline, separators=(",", ":")),
        "status": status,
        "next_at": next_at,
        **columns,
    }
    sets = ", ".join(f"{name} = ?" for name in values)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"UPDATE shipments SET {sets} WHERE seq = ?", (*values.values(), row["seq"]))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def cancel(db: Database, sid: str, now: datetime) -> dict[str, Any]:
    """POST cancel: the shipment, canceled (or raise the refusal)."""
    now_s = int(now.timestamp())
    with db.lock() as conn:
        row = _load(conn, sid)
        refused = _refusal(row, now, "cancel")
        if refused is not None:
            raise refused
        timeline = [(t, s) for t, s in lifecycle.load_timeline(row["timeline"]) if t <= now_s]
        timeline.append((now_s, "canceled"))
        _save(conn, row, timeline, now_s)
    return {"shipmentId": sid, "status": "canceled", "canceledAt": _iso(now)}


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _window(body: dict[str, Any], errors: FieldErrors) -> tuple[str, str]:
    times = []
    for name, default in (("readyTime", "08:00"), ("closeTime", "16:00")):
        value = body.get(name, default)
        parsed = formats.dock_time(value) if isinstance(value, str) else None
        if parsed is None:
            errors.add(name, "must be a time like 08:00 AM or 08:00")
            parsed = default
        times.append(parsed)
    if times[0] >= times[1]:
        errors.add("closeTime", "must be after readyTime")
    elif _minutes(times[1]) - _minutes(times[0]) < 120:
        errors.add("closeTime", "the window must be at least 2 hours")
    return times[0], times[1]


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def _new_day(body: dict[str, Any], origin: Zip, now: datetime, errors: FieldErrors) -> date | None:
    value = body.get("pickupDate")
    day = formats.iso_date(value) if isinstance(value, str) else None
    if day is None:
        errors.add("pickupDate", "is required, a date YYYY-MM-DD")
        return None
    zone = _zone(origin)
    today = local_today(origin, now)
    region = calendar.region(origin.country, origin.state)
    if day < today or (
        day == today and now >= datetime(day.year, day.month, day.day, CUTOFF_HOUR, tzinfo=zone)
    ):
        errors.add("pickupDate", f"is past the carrier's cut-off (today at the origin is {today})")
    elif day > today + MAX_PICKUP_AHEAD:
        errors.add("pickupDate", f"must be within {MAX_PICKUP_AHEAD.days} days")
    elif (reason := calendar.closed_reason(day, region)) is not None:
        errors.add("pickupDate", f"{day} is {reason}: carriers do not pick up")
    return day


def pickup(
    db: Database, sid: str, body: Any, now: datetime, *, kind: str, speed: float
) -> dict[str, Any]:
    """POST (request), PUT (move) or DELETE (cancel) the pickup of a shipment."""
    now_s = int(now.timestamp())
    with db.lock() as conn:
        row = _load(conn, sid)
        if row["mode"] == "parcel":
            raise ApiError(422, "NO_PICKUPS", "Parcel shipments are picked up by their carrier.")
        what = {"request": "pickup request", "move": "pickup change", "cancel": "pickup cancel"}
        refused = _refusal(row, now, what[kind])
        if refused is not None:
            raise refused
        scheduled = has_pickup(row)
        if kind == "request" and scheduled:
            raise ApiError(
                409, "PICKUP_EXISTS",
                f"Shipment {sid} has pickup {row['pickup_conf']}; change it instead.",
                extra={"pickupConfirmation": row["pickup_conf"]},
            )  # fmt: skip
        if kind in ("move", "cancel") and not scheduled:
            raise ApiError(404, "NO_PICKUP", f"Shipment {sid} has no pickup scheduled.")
        details = _details(row)
        timeline = lifecycle.load_timeline(row["timeline"])
        before = [(t, s) for t, s in timeline if s not in (*_AFTER_PICKUP, "canceled")]
        if kind == "cancel":
            details["pickupCanceled"] = True
            details.pop("pickupWindow", None)
            before.append((now_s, "pickup-canceled"))
            _save(conn, row, before, now_s, details=json.dumps(details))
            return {"shipmentId": sid, "status": "pickup-canceled", "pickupConfirmation": None}
        data = require_object(body)
        origin = lookup(row["o_zip"])
        if origin is None:  # (every stored shipment's origin is known)
            raise ApiError(422, "UNKNOWN_ORIGIN", f"Shipment {sid} has no known origin.")
        errors = FieldErrors()
        day = _new_day(data, origin, now, errors)
        ready, close = _window(data, errors)
        errors.raise_if_any()
        assert day is not None
        planned = _replan(row, timeline, day, ready, close, origin, speed)
        conf = row["pickup_conf"]
        if kind == "request" or not conf:
            conf = identifiers.pickup_confirmation(
                origin.city, next_serial(conn, "pickup", SERIAL_STARTS["pickup"])
            )
        details.pop("pickupCanceled", None)
        details["pickupWindow"] = {"ready": ready, "close": close}
        details["pickupDate"] = day.isoformat()
        before.append((now_s, f"pickup-moved:{day.isoformat()}"))
        before.extend(planned[0])
        before.sort(key=lambda entry: entry[0])
        _save(
            conn, row, before, now_s, details=json.dumps(details), pickup_conf=conf,
            pickup_at=planned[1], delivered_at=planned[2],
        )  # fmt: skip
    return {
        "shipmentId": sid,
        "status": "pickup-scheduled",
        "pickupConfirmation": conf,
        "pickupDate": day.isoformat(),
        "readyTime": ready,
        "closeTime": close,
    }


def _replan(
    row: sqlite3.Row,
    timeline: list[tuple[int, str]],
    day: date,
    ready: str,
    close: str,
    origin: Zip,
    speed: float,
) -> tuple[list[tuple[int, str]], int, int]:
    """The timeline's entries from the new pickup on, and the new scheduled pickup and
    delivery moments (the same business days of transit as before)."""
    zone = _zone(origin)
    dest = lookup(row["d_zip"])
    old_pickup = datetime.fromtimestamp(int(row["pickup_at"]), UTC).date()
    old_delivered = datetime.fromtimestamp(int(row["delivered_at"]), UTC).date()
    transit = 0
    probe = old_pickup
    while probe < old_delivered:
        probe += timedelta(days=1)
        transit += calendar.is_business_day(probe)
    rng = random.Random(f"{row['id']}:{day.isoformat()}")
    start = _minutes(ready) + rng.uniform(0.25, 0.75) * (_minutes(close) - _minutes(ready))
    at = datetime(day.year, day.month, day.day, tzinfo=zone) + timedelta(minutes=start)
    arrive = calendar.add_business_days(day, max(1, transit))
    dest_zone = _zone(dest)
    done = datetime(arrive.year, arrive.month, arrive.day, tzinfo=dest_zone) + timedelta(
        hours=rng.uniform(9, 16.5)
    )
    pickup_s, delivered_s = int(at.timestamp()), int(done.timestamp())
    created = timeline[0][0]
    # A booking's timeline runs on the compressed clock (``speed``); the seeded history's
    # does not (its shipments carry no booking details).
    ratio = 1 / max(speed, 1e-6) if row["details"] else 1.0
    now_s = max(t for t, _ in timeline)
    picked = max(created + round((pickup_s - created) * ratio), now_s + 60)
    delivered = max(created + round((delivered_s - created) * ratio), picked + 60)
    return [(picked, "picked-up"), (delivered, "delivered")], pickup_s, delivered_s
