"""Delivery dates from tracking, fetched for booked shipments that lack them and kept.

A booked shipment whose pickup day is past and whose delivery date the store does not hold yet
is asked for its tracking (``FreightClient.get_tracking``), at most ``MAX_PER_RUN`` a run,
each request at the caller's pace (the account's shared one). Its ``delivered`` event gives
the delivery date: the event's own local date (``eventDate``, or its time in the offset or
zone it carries: the destination's), else the date of its time. Kept with it: the actual
transit in business days, counted as quoted transit days are (``domain.md`` 2.5): the
pickup day not counted, weekends, the origin's public holidays and the days LTL carriers
close (the day after Thanksgiving, Christmas Eve) skipped. Shipments asked and not delivered
yet go to the back of the queue (``tracked_at``), so one never delivered holds no one up.
No UI toolkit: plain async code over the store and the client.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Final

from tui.api.errors import FreightError, NotFoundError
from tui.api.models import event_zone
from tui.domain.pickup_dates import US, carrier_closure, is_business_day, region_of
from tui.store.core import now_text

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import TrackingEvent
    from tui.store.core import Store

MAX_PER_RUN: Final = 50
"""Shipments asked for their tracking in one run (the rest wait for the next)."""
_CLOSED: Final = frozenset({"the day after Thanksgiving", "Christmas Eve"})
"""Weekdays LTL carriers close on though they are no public holiday (``domain.md`` 2.5)."""


@dataclass(frozen=True)
class Due:
    """A booked shipment whose delivery date is not kept yet."""

    reference: str
    shipment_id: str
    pickup: date
    origin: str | None
    """The origin postal code (whose holidays count), when the ledger kept the lane."""


@dataclass(frozen=True)
class DeliveryRun:
    """What one run did."""

    asked: int = 0
    delivered: int = 0
    problem: str | None = None
    """Why the run stopped early (the service could not be asked), else None."""


def due(
    store: Store, today: date, limit: int = MAX_PER_RUN, account: str | None = None
) -> list[Due]:
    """Booked shipments picked up before ``today`` with no delivery date kept (of one
    ``account``, the profile that booked them, when given): those never asked first, then the
    ones asked longest ago; at most ``limit``."""
    mine = " AND account = ?" if account is not None else ""
    rows = store.engine.read(
        "SELECT reference, shipment_id, pickup_date, lane FROM bookings"
        " WHERE outcome = 'booked' AND shipment_id IS NOT NULL AND delivered_on IS NULL"
        f" AND pickup_date IS NOT NULL AND pickup_date < ?{mine}"
        " ORDER BY tracked_at IS NOT NULL, tracked_at, pickup_date, reference LIMIT ?",
        (today.isoformat(), *([account] if account is not None else []), limit),
    )
    found = []
    for reference, shipment_id, pickup, lane in rows:
        try:
            day = date.fromisoformat(str(pickup)[:10])
        except ValueError:
            continue
        found.append(Due(str(reference), str(shipment_id), day, _origin(lane)))
    return found


def _origin(lane: object) -> str | None:
    try:
        data = json.loads(str(lane)) if lane else None
    except ValueError:
        return None
    origin = data.get("origin") if isinstance(data, dict) else None
    return origin if isinstance(origin, str) and origin else None


def delivery_day(events: list[TrackingEvent]) -> date | None:
    """The day of the first ``delivered`` event (local where it happened), or None."""
    delivered = [e for e in events if _kind(e) == "delivered" and (e.time or e.event_date)]
    if not delivered:
        return None
    floor = datetime.max.replace(tzinfo=UTC)
    first = min(delivered, key=lambda e: e.time or floor)
    if first.event_date is not None:
        return first.event_date
    assert first.time is not None

    zone = event_zone(first)
    return (first.time.astimezone(zone) if zone is not None else first.time).date()


def _kind(event: TrackingEvent) -> str:
    return (event.event_type or event.status or "").strip().lower()


def transit_days(pickup: date, delivered: date, origin: str | None = None) -> int:
    """Business days from the pickup day (not counted) to the delivery day (counted)."""

    region = region_of(origin) if origin else US
    days = 0
    day = pickup
    while day < delivered:
        day += timedelta(days=1)
        if is_business_day(day, region) and carrier_closure(day, region) not in _CLOSED:
            days += 1
    return days


def keep(store: Store, reference: str, delivered: date | None, transit: int | None) -> None:
    """Record what tracking said of one booking (nothing delivered yet: only when asked)."""
    with store.engine.write() as tx:
        tx.run(
            "UPDATE bookings SET delivered_on = ?, transit_days = ?, tracked_at = ?"
            " WHERE reference = ?",
            (delivered.isoformat() if delivered else None, transit, now_text(), reference),
        )


async def fetch_deliveries(
    store: Store,
    client: FreightClient,
    today: date,
    *,
    limit: int = MAX_PER_RUN,
    pace: Callable[[], Awaitable[None]] | None = None,
    account: str | None = None,
) -> DeliveryRun:
    """Ask tracking for the shipments ``due`` (of ``account``: the client's profile; others'
    shipments are another account's) and keep their delivery dates. A shipment the service
    does not know is passed over; any other failure stops the run (what was kept stays) and
    is told in ``problem``."""

    asked = delivered = 0
    for one in await asyncio.to_thread(due, store, today, limit, account):
        if pace is not None:
            await pace()
        asked += 1
        try:
            events = await client.get_tracking(one.shipment_id)
        except NotFoundError:
            events = []
        except FreightError as error:
            return DeliveryRun(asked, delivered, str(error))
        day = delivery_day(events)
        transit = transit_days(one.pickup, day, one.origin) if day is not None else None
        await asyncio.to_thread(keep, store, one.reference, day, transit)
        delivered += day is not None
    return DeliveryRun(asked, delivered)
