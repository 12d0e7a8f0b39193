"""``freight track NUMBER``: find a shipment by PRO, BOL or tracking number; status and events.

The events come from the shipment detail. TODO(lead): when ``FreightClient.get_tracking()``
is merged, read status and events from it here (see ``_tracking``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from tui.commands.connect import open_client
from tui.commands.detail import events_table
from tui.commands.exits import OK, NotFound, UsageError
from tui.commands.text import fields

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
    from tui.api.models import ShipmentQuery

    found: list[Shipment] = []
    seen = 0
    async for shipment in client.iter_shipments(ShipmentQuery.build(text=number.strip())):
        seen += 1
        if matches(shipment, number):
            found.append(shipment)
        if seen >= MAX_CANDIDATES:
            break
    return found


async def _tracking(client: FreightClient, shipment: Shipment) -> ShipmentDetail:
    """Status and events of one shipment (for now from its detail)."""
    return await client.get_shipment(shipment.id)


def _summary(detail: ShipmentDetail) -> dict[str, Any]:
    tracking = detail.tracking
    return {
        "id": detail.id,
        "status": detail.status,
        "proNumber": detail.pro_number,
        "bolNumber": detail.bol_number,
        "trackingNumber": tracking.tracking_number if tracking else None,
        "carrier": detail.carrier.name if detail.carrier else None,
        "events": [
            {
                "time": e.time.isoformat() if e.time else None,
                "status": e.status,
                "location": e.location,
                "description": e.description,
            }
            for e in sorted(detail.events, key=lambda e: (e.time is None, e.time))
        ],
    }


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print each matching shipment's status and events (JSON: one object, or a list)."""
    from tui.export import json_text

    if not _key(args.number):
        raise UsageError("NUMBER: give a PRO, BOL or tracking number (it is blank)")
    async with open_client(args) as client:
        found = await find(client, args.number)
        if not found:
            raise NotFound(f"no shipment has the PRO, BOL or tracking number {args.number!r}")
        details = [await _tracking(client, shipment) for shipment in found]
    if args.format == "json":
        summaries = [_summary(d) for d in details]
        print(json_text(summaries[0] if len(summaries) == 1 else summaries, indent=2), file=out)
        return OK
    for n, detail in enumerate(details):
        if n:
            print("", file=out)
        summary = _summary(detail)
        fields(
            [
                ("Shipment", detail.id),
                ("Status", detail.status),
                ("PRO", summary["proNumber"] or ""),
                ("BOL", summary["bolNumber"] or ""),
                ("Tracking", summary["trackingNumber"] or ""),
                ("Carrier", summary["carrier"] or ""),
            ],
            out,
        )
        print("", file=out)
        events_table(detail.events, out)
    return OK
