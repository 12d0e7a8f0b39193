"""What the service adds to the day's bookings, and the day read whole: the CLI and the Day
screen both load it here (the store's ledger and closes, then the service's records)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from pydantic import ValidationError

from tui.api.models import ShipmentQuery
from tui.day import Day, ShipmentFacts, build_day
from tui.store.days import DayCloses, closes_of
from tui.store.ledger import StoreLedger

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models.shipments import Shipment, ShipmentDetail
    from tui.ledger import BookingRecord
    from tui.store.core import Store
    from tui.store.days import DayClose


def facts_of(detail: ShipmentDetail) -> ShipmentFacts:
    """What a shipment's detail adds to its booking."""
    pieces = sum(item.quantity or 0 for item in detail.items)
    weight = sum(
        ((item.weight or Decimal(0)) * (item.quantity or 1) for item in detail.items), Decimal(0)
    )
    classes = sorted({format(item.freight_class.normalize(), "f") for item in detail.items
                      if item.freight_class is not None})  # fmt: skip
    origin = detail.origin
    window = None
    if origin.dock_hours_open or origin.dock_hours_close:
        window = f"{origin.dock_hours_open or '?'}-{origin.dock_hours_close or '?'}"
    carrier = detail.carrier
    return ShipmentFacts(
        pickup_date=detail.pickup_date,
        pickup_window=window,
        confirmation=detail.pickup_confirmation,
        pickup_note=detail.pickup_date_message,
        pieces=pieces or None,
        weight_lb=weight or None,
        freight_class=", ".join(classes) or None,
        hazmat=any(item.hazardous for item in detail.items),
        consignee=detail.destination.company,
        carrier=(carrier.name or carrier.scac) if carrier else None,
        scac=carrier.scac if carrier else None,
        has_paperwork=bool(detail.documents or detail.bol_number),
        canceled=detail.status == "canceled",
    )


LISTING_PAGE = 100
"""Shipments asked for per page of the day's listing."""

Listed = dict[str, ShipmentFacts | None]
"""The shipments the service lists on a day: id -> what its listing entry says (None when the
entry does not carry the shipment's items, so only its detail can say)."""


def listing_facts(shipment: Shipment) -> ShipmentFacts | None:
    """A listing entry's facts when it carries the shipment's items (as the sandbox's and the
    later API version's records do), read as a detail; None when only the detail can say."""

    from tui.api.models import ShipmentDetail

    if not isinstance(shipment.raw.get("items"), list):
        return None
    try:
        return facts_of(ShipmentDetail.model_validate(shipment.raw))
    except ValidationError:
        return None


async def listed_on(client: FreightClient, day: date) -> Listed:
    """The shipments the service lists on pickup day ``day`` (it may have moved a pickup
    there), a page per ``LISTING_PAGE``, with what each entry says."""

    listed: Listed = {}
    query = ShipmentQuery.build(pickup_date_from=day, pickup_date_to=day)
    async for shipment in client.iter_shipments(query, limit=LISTING_PAGE):
        listed[shipment.id] = listing_facts(shipment)
    return listed


async def facts_for(
    client: FreightClient, day: date, bookings: list[BookingRecord], listed: Listed
) -> dict[str, ShipmentFacts]:
    """The service's facts of each booking that may be on ``day``: the ledger says so, or the
    service lists its shipment on that day (``listed``). A listed entry that carries its
    facts is taken as it is; the detail is read only for the others (a listing without items,
    a booking the ledger puts on the day that the service no longer lists there)."""
    found: dict[str, ShipmentFacts] = {}
    for record in bookings:
        shipment_id = record.shipment_id
        if not shipment_id or record.outcome == "failed":
            continue
        known = listed.get(shipment_id)
        if known is not None:
            found[shipment_id] = known
        elif shipment_id in listed or record.pickup_date == day.isoformat():
            found[shipment_id] = facts_of(await client.get_shipment(shipment_id))
    return found


async def service_facts(
    client: FreightClient, day: date, bookings: list[BookingRecord]
) -> dict[str, ShipmentFacts]:
    """``facts_for`` the shipments the service lists on ``day`` and the ledger's."""
    return await facts_for(client, day, bookings, await listed_on(client, day))


@dataclass(frozen=True)
class StoredDay:
    """What the store knows of a day: every station's bookings and the day's latest closes
    (the whole day's and each closed carrier's)."""

    bookings: list[BookingRecord]
    closes: DayCloses

    @property
    def close(self) -> DayClose | None:
        """The whole day's latest close."""
        return self.closes.whole


def read_stored(
    store: Store,
    day: date,
    environment: str,
    station: str,
    listed: Collection[str] = (),
    account: str | None = None,
) -> StoredDay:
    """Every station's bookings in ``environment`` (and ``account``, a profile's name: the
    service answers for its own shipments only) that may be on ``day`` (``listed``: the
    shipments the service lists on it) and the day's latest closes in that environment
    (blocking: run it off the loop)."""

    bookings = StoreLedger(store, station, environment).on_day(day, listed, account)
    return StoredDay(bookings, closes_of(store, day, environment))


def day_from(day: date, stored: StoredDay, facts: dict[str, ShipmentFacts] | None = None) -> Day:
    """The day's list from the store's part and the service's facts (none: offline)."""
    close = stored.close
    closed_at = close.closed_at if close else None
    return build_day(day, stored.bookings, facts, closed_at, stored.closes.times())
