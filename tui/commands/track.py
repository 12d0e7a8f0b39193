"""``freight track NUMBER``: find a shipment by PRO, BOL or tracking number; status and events.

The events come from the shipment detail. TODO(lead): when ``FreightClient.get_tracking()``
is merged, read status and events from it here (see ``_tracking``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

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


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print each matching shipment's status and events (JSON: one object, or a list when
    several shipments have the number)."""
    from tui.commands.fields import TRACK_FIELDS, output_of, write_records

    output = output_of(args, TRACK_FIELDS, args.format)
    if not _key(args.number):
        raise UsageError("NUMBER: give a PRO, BOL or tracking number (it is blank)")
    async with open_client(args) as client:
        found = await find(client, args.number)
        if not found:
            raise NotFound(f"no shipment has the PRO, BOL or tracking number {args.number!r}")
        details = [await _tracking(client, shipment) for shipment in found]
    if output.format != "table":
        records = [TRACK_FIELDS.record(d, output.fields) for d in details]
        write_records(records, output.format, out, one=True)
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
            ],
            out,
        )
        print("", file=out)
        events_table(detail.events, out)
    return OK
