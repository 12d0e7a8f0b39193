"""``freight track NUMBER``: find a shipment by PRO, BOL or tracking number; status and events.

The search finds the number; a server whose search does not match it (ids, on some) is asked
for the shipment by id. The events come from the tracking endpoint (``get_tracking``: the
shipment detail's own on a server without one).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from tui.api.errors import ApiError, NotFoundError, RequestValidationError
from tui.api.models import ShipmentQuery
from tui.commands.connect import open_client
from tui.commands.detail import day_text, events_table
from tui.commands.exits import OK, NotFound, UsageError
from tui.commands.fields import TRACK_FIELDS, output_of, write_records
from tui.commands.text import fields
from tui.listing.detail_text import pickup_day
from tui.listing.tracking_events import events_shown

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Shipment, ShipmentDetail

MAX_CANDIDATES = 200


def _key(text: str | None) -> str:
    return "".join((text or "").split()).upper()


def matches(shipment: Shipment, number: str) -> bool:
    """True when the PRO, BOL, tracking number or id is ``number`` (case and spaces ignored)."""
    wanted = _key(number)
    own = (shipment.pro_number, shipment.bol_number, shipment.tracking_number, shipment.id)
    return any(_key(value) == wanted for value in own if value)


async def find(client: FreightClient, number: str) -> list[Shipment]:
    """The shipments the free-text search returns whose numbers are exactly ``number``."""

    found: list[Shipment] = []
    seen = 0
    async for shipment in client.iter_shipments(ShipmentQuery.build(text=number.strip())):
        seen += 1
        if matches(shipment, number):
            found.append(shipment)
        if seen >= MAX_CANDIDATES:
            break
    return found


async def by_id(client: FreightClient, number: str) -> ShipmentDetail | None:
    """The shipment whose id is ``number`` (GET /shipments/{id}), or None when there is none."""

    try:
        return await client.get_shipment(number.strip())
    except (NotFoundError, RequestValidationError):
        return None


async def _tracking(client: FreightClient, detail: ShipmentDetail) -> ShipmentDetail:
    """The detail with the tracking endpoint's events when it has more than the detail's."""

    try:
        events = await client.get_tracking(detail.id)
    except ApiError:
        return detail
    return detail.model_copy(update={"events": events_shown(detail.events, events)})


def _last_event(detail: ShipmentDetail) -> str:
    """`2026-11-22T07:40-06:00 in-transit Arrived at terminal, Memphis, TN` (the newest)."""
    dated = [e for e in detail.events if e.time is not None]
    if not dated:
        return ""
    event = max(dated, key=lambda e: e.time or 0)
    moment = event.time.isoformat(timespec="minutes") if event.time else ""
    words = " ".join(p for p in (event.status, event.description) if p)
    return f"{moment} {words}" + (f", {event.location}" if event.location else "")


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print each matching shipment's status and events (JSON: always a list of shipments,
    one or several, so a script reads one shape)."""

    output = output_of(args, TRACK_FIELDS, args.format)
    if not _key(args.number):
        raise UsageError("NUMBER: give a PRO, BOL or tracking number (it is blank)")
    async with open_client(args) as client:
        found = await find(client, args.number)
        details = [await client.get_shipment(shipment.id) for shipment in found]
        if not details:
            detail = await by_id(client, args.number)
            if detail is None:
                raise NotFound(
                    f"no shipment has the PRO, BOL, tracking number or id {args.number!r}"
                )
            details = [detail]
        details = [await _tracking(client, detail) for detail in details]
    if output.format != "table":
        records = [TRACK_FIELDS.record(d, output.fields) for d in details]
        write_records(records, output.format, out)
        return OK
    for n, detail in enumerate(details):
        if n:
            print("", file=out)
        tracking, carrier = detail.tracking, detail.carrier
        fields(
            [
                ("Shipment", detail.id),
                ("Status", detail.status),
                ("PRO", detail.pro_number or ""),
                ("BOL", detail.bol_number or ""),
                ("Tracking", (tracking.tracking_number if tracking else None) or ""),
                ("Carrier", (carrier.name if carrier else None) or ""),
                ("Pickup", day_text(pickup_day(detail))),
                ("Delivery", day_text(tracking.delivery_date if tracking else None)),
                ("Last event", _last_event(detail) or "none listed"),
            ],
            out,
        )
        if detail.events:
            print("", file=out)
            events_table(detail.events, out)
    return OK
