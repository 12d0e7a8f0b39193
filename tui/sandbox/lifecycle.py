"""Shipment lifecycle on a simulated clock: planned timelines, status now, tracking events."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from tui.sandbox.calendar import is_business_day

STATUSES = ("pending", "awarded", "confirmed", "picked-up", "delivered", "canceled")
DAY = 86400


@dataclass(frozen=True)
class Plan:
    """A shipment's planned status changes (epoch seconds, on the compressed clock) plus its
    pickup and delivery times as scheduled (the business days the shipment is booked for, which
    the list, the detail and the BOL show; the status moves on the compressed clock)."""

    timeline: list[tuple[int, str]]
    pickup_at: int
    delivered_at: int

    def to_json(self) -> str:
        """Compact JSON of the timeline, stored with the shipment."""
        return json.dumps(self.timeline, separators=(",", ":"))


def _local_offset_hours(lon: float) -> int:
    return round(lon / 15)


def _weekday(day: date) -> bool:
    return day.weekday() < 5


def _business_day_at(
    start: float,
    days: int,
    hour_lo: float,
    hour_hi: float,
    lon: float,
    rng: random.Random,
    open_on: Callable[[date], bool] = _weekday,
) -> float:
    """Epoch seconds ``days`` business days after the local date of ``start``, in a window."""
    offset = _local_offset_hours(lon) * 3600
    local = datetime.fromtimestamp(start + offset, UTC)
    day = local.date()
    moved = 0
    while moved < days or not open_on(day):
        day += timedelta(days=1)
        if open_on(day):
            moved += 1
    hour = rng.uniform(hour_lo, hour_hi)
    moment = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(hours=hour)
    return moment.timestamp() - offset


def plan(
    created: float,
    mode: str,
    transit_days: int,
    origin_lon: float,
    dest_lon: float,
    rng: random.Random,
    *,
    speed: float = 1.0,
    cancel: bool = False,
    falloff: bool = False,
    late: bool = False,
    late_days: int = 1,
    early: bool = False,
    award_delay: float | None = None,
    pickup_day: date | None = None,
    holidays: bool = False,
) -> Plan:
    """Plan a shipment booked at ``created``; ``speed`` compresses the simulated times.

    ``pickup_day`` (a business day at the origin) is when the carrier picks up; without it,
    the next business day after the pickup is confirmed. ``holidays`` also skips carrier
    holidays (bookings; the seeded history counts weekdays only). A ``late`` shipment is
    delivered ``late_days`` business days after its transit days, an ``early`` one a day
    before (never on its pickup day)."""
    open_on = is_business_day if holidays else _weekday
    if award_delay is None:
        award_delay = rng.uniform(600, 3600) if mode == "truckload" else rng.uniform(20, 120)
    sim: list[tuple[float, str]] = [(created, "pending"), (created + award_delay, "awarded")]
    confirmed = created + award_delay + rng.uniform(300, 2700)
    if falloff:
        sim.append((created + award_delay + 3600, "pending"))
        sim.append((created + award_delay + 3600 + DAY, "awarded"))
        confirmed += DAY + 3600
    sim.append((confirmed, "confirmed"))
    pickup = _business_day_at(confirmed, 1 if not falloff else 0, 10, 16, origin_lon, rng, open_on)
    if pickup_day is not None and not falloff:
        offset = _local_offset_hours(origin_lon) * 3600
        midnight = datetime(pickup_day.year, pickup_day.month, pickup_day.day, tzinfo=UTC)
        pickup = midnight.timestamp() - offset + rng.uniform(10, 16) * 3600
    pickup = max(pickup, confirmed + 1800)
    days = max(1, transit_days) + (late_days if late else 0)
    if early and not late and days > 1:
        days -= 1
    delivered = _business_day_at(pickup, days, 9, 16.5, dest_lon, rng, open_on)
    if cancel:
        cancel_at = rng.uniform(created + 60, pickup - 60)
        sim = [entry for entry in sim if entry[0] < cancel_at]
        sim.append((cancel_at, "canceled"))
    else:
        sim.append((pickup, "picked-up"))
        if late:
            sim.append((pickup + (delivered - pickup) * 0.6, "delayed"))
        sim.append((delivered, "delivered"))

    def real(t: float) -> int:
        return int(created + (t - created) / max(speed, 1e-6))

    return Plan([(real(t), status) for t, status in sim], int(pickup), int(delivered))


def spread(key: str, late: bool) -> tuple[int, bool]:
    """How late or early a shipment is beyond its carrier's on-time draw: a late one is a
    day late, sometimes two (3 in 10); of the rest, 1 in 20 arrives a day early. Drawn from
    its own seed (``key``), so the other draws of a plan stay as they were."""
    rng = random.Random(f"{key}:spread")
    late_days = 2 if rng.random() < 0.3 else 1
    early = rng.random() < 0.05
    return (late_days, False) if late else (1, early)


def status_at(timeline: list[tuple[int, str]], now: int) -> tuple[str, int | None]:
    """Return the status at ``now`` and when it next changes (None when final)."""
    status = timeline[0][1]
    for moment, name in timeline:
        if name not in STATUSES:
            continue  # an event only (a delay), not a status change
        if moment <= now:
            status = name
        else:
            return status, moment
    return status, None


def load_timeline(text: str) -> list[tuple[int, str]]:
    """Parse a stored timeline."""
    return [(int(t), str(s)) for t, s in json.loads(text)]


TRACKING_STATUS = {
    "pending": "booked",
    "awarded": "booked",
    "confirmed": "pickup-scheduled",
    "picked-up": "in-transit",
    "delivered": "delivered",
    "canceled": "canceled",
}

_STEP_KINDS = {"Arrived": "arrived-terminal", "Departed": "departed-terminal"}

_SIGNERS = ("M. Alvarez", "J. Chen", "R. Okafor", "D. Smith", "K. Novak", "T. Brown", "A. Patel")


@dataclass(frozen=True)
class Event:
    """One tracking event."""

    time: int
    status: str
    description: str
    location: str
    kind: str = ""  # eventType of the tracking endpoint
    end: str = "origin"  # whose local time the event is told in: origin or dest


def events(
    timeline: list[tuple[int, str]],
    pickup_at: int,
    delivered_at: int,
    now: int,
    *,
    carrier: str,
    mode: str,
    origin: str,
    dest: str,
    pickup_conf: str | None,
    key: str,
    chaos: bool = False,
) -> list[Event]:
    """Tracking events that have happened by ``now``, oldest first."""
    rng = random.Random(key)
    out: list[Event] = []
    seen_awarded = False
    for moment, status in timeline:
        if status == "pending" and not out:
            out.append(Event(moment, status, f"Booked with {carrier}", origin, "booked"))
        elif status == "pending":
            out.append(
                Event(
                    moment, status, "Carrier fell off the load; finding a new truck", "",
                    "exception",
                )
            )  # fmt: skip
        elif status == "awarded":
            text = "Re-tendered and accepted" if seen_awarded else "Tendered and accepted"
            seen_awarded = True
            out.append(Event(moment, status, text, "", "accepted"))
        elif status == "confirmed":
            text = f"Pickup confirmed ({pickup_conf})" if pickup_conf else "Pickup ready"
            out.append(Event(moment, status, text, origin, "pickup-scheduled"))
        elif status == "picked-up":
            out.append(Event(moment, status, "Picked up", origin, "picked-up"))
            span = max(1, delivered_at - pickup_at)
            steps = (
                [(0.08, "Departed origin facility", origin), (0.5, "In transit", "")]
                if mode == "parcel"
                else [
                    (0.06, "Arrived at origin terminal", origin),
                    (0.12, "Departed origin terminal", origin),
                    (0.5, "In transit (linehaul relay)", ""),
                    (0.82, "Arrived at destination terminal", dest),
                ]
            )
            steps.append((0.93, "Out for delivery", dest))
            for fraction, text, where in steps:
                if chaos and rng.random() < 0.4:
                    continue
                status_name = "out-for-delivery" if text == "Out for delivery" else "in-transit"
                kind = _STEP_KINDS.get(text.split(" ")[0], status_name)
                end = "origin" if fraction < 0.5 else "dest"
                out.append(
                    Event(moment + int(span * fraction), status_name, text, where, kind, end)
                )
        elif status == "delivered":
            signed = f"Delivered, signed by {rng.choice(_SIGNERS)}"
            out.append(Event(moment, status, signed, dest, "delivered", "dest"))
            if chaos:
                out.append(
                    Event(
                        moment + 2 * 3600,
                        "delivered",
                        "Reclassified at delivery: class 85 -> 100, charge adjusted",
                        dest,
                        "exception",
                        "dest",
                    )
                )
        elif status == "delayed":
            out.append(
                Event(
                    moment, "in-transit", "Running late: missed linehaul connection", "",
                    "delayed", "dest",
                )
            )  # fmt: skip
        elif status == "canceled":
            out.append(Event(moment, status, "Canceled by shipper", "", "canceled"))
        elif status == "pickup-canceled":
            out.append(Event(moment, "booked", "Pickup canceled by shipper", origin, "exception"))
        elif status.startswith("pickup-moved:"):
            day = status.split(":", 1)[1]
            text = f"Pickup moved to {day}" + (f" ({pickup_conf})" if pickup_conf else "")
            out.append(Event(moment, "confirmed", text, origin, "pickup-scheduled"))
    return sorted((e for e in out if e.time <= now), key=lambda e: e.time)


def tracking_status(status: str, happened: list[Event]) -> str:
    """The tracking status the detail shows for a shipment status and its events."""
    if status == "picked-up" and happened and happened[-1].status == "out-for-delivery":
        return "out-for-delivery"
    return TRACKING_STATUS[status]
