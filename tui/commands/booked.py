"""What the store knows of listed shipments: Freight's booking reference and the batch's order
number, joined by shipment id into the records of ``freight shipments`` and ``shipment``."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui.commands.connect import ledger_account
from tui.commands.exits import UsageError
from tui.config.paths import data_dir
from tui.listing.rows import ShipmentRow
from tui.store import open_store
from tui.store.ledger import booked_shipments

if TYPE_CHECKING:
    from tui.api.models import Shipment

Booked = dict[str, tuple[str, str | None]]
"""Shipment id -> (booking reference, order number or None)."""

CHUNK = 100
"""Shipments looked up in the store at once."""


@dataclass(frozen=True, slots=True)
class BookedRow(ShipmentRow):
    """A listed shipment with what the store knows of its booking."""

    booking_reference: str | None = None
    order: str | None = None


def lookup(args: argparse.Namespace, shipment_ids: Collection[str]) -> Booked:
    """The store's bookings of these shipments for the command's account (blocking); none
    when the store cannot be read (the listing is the service's, the store only adds)."""

    if not shipment_ids:
        return {}
    try:
        account, environment = ledger_account(args)
        store = open_store(data_dir())
    except (OSError, UsageError):  # StoreError is an OSError
        return {}
    try:
        return booked_shipments(store, environment, account, shipment_ids)
    except OSError:
        return {}
    finally:
        store.close()


async def joined(
    args: argparse.Namespace, shipments: AsyncIterator[Shipment]
) -> AsyncIterator[BookedRow]:
    """The shipments as rows with their bookings, looked up ``CHUNK`` at a time."""
    chunk: list[Shipment] = []

    async def rows() -> list[BookedRow]:
        booked = await asyncio.to_thread(lookup, args, [s.id for s in chunk])
        return [row_of(shipment, booked.get(shipment.id)) for shipment in chunk]

    async for shipment in shipments:
        chunk.append(shipment)
        if len(chunk) >= CHUNK:
            for row in await rows():
                yield row
            chunk = []
    if chunk:
        for row in await rows():
            yield row


def row_of(shipment: Shipment, booked: tuple[str, str | None] | None) -> BookedRow:
    row = ShipmentRow.of(shipment)
    values = {name: getattr(row, name) for name in ShipmentRow.__dataclass_fields__}
    reference, order = booked if booked is not None else (None, None)
    return BookedRow(**values, booking_reference=reference, order=order)


def with_booking(record: dict[str, Any], booked: tuple[str, str | None] | None) -> dict[str, Any]:
    """A shipment's record (``freight shipment``) with the store's booking reference and order
    number in the fields it has; the shipper's reference is never Freight's."""
    if booked is None:
        return record
    reference, order = booked
    if "bookingReference" in record:
        record["bookingReference"] = reference
    if "order" in record:
        record["order"] = order
    if record.get("customerReference") == reference:
        record["customerReference"] = None
    return record
