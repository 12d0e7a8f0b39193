"""What the store knows of listed shipments: Freight's booking reference and the batch's order
number, joined by shipment id into the records of ``freight shipments``, ``shipment`` and the
Shipments screen's export (each reads them from its own store)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from tui.listing.rows import ShipmentRow

if TYPE_CHECKING:
    from tui.api.models import Shipment

Booked: TypeAlias = dict[str, tuple[str, str | None]]
"""Shipment id -> (booking reference, order number or None)."""
Lookup: TypeAlias = Callable[[Collection[str]], Booked]
"""The store's bookings of these shipment ids (blocking: run on a thread)."""

CHUNK = 100
"""Shipments looked up in the store at once."""


@dataclass(frozen=True, slots=True)
class BookedRow(ShipmentRow):
    """A listed shipment with what the store knows of its booking."""

    booking_reference: str | None = None
    order: str | None = None


async def joined(lookup: Lookup, shipments: AsyncIterator[Shipment]) -> AsyncIterator[BookedRow]:
    """The shipments as rows with their bookings, looked up ``CHUNK`` at a time (on a thread:
    the store is never read on the event loop)."""
    chunk: list[Shipment] = []

    async def rows() -> list[BookedRow]:
        booked = await asyncio.to_thread(lookup, [s.id for s in chunk])
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


async def joined_with(
    load: Callable[[], Booked], shipments: AsyncIterator[Shipment]
) -> AsyncIterator[BookedRow]:
    """The shipments as rows with the bookings ``load`` reads (every one, once, on a thread),
    each as it arrives: an export's count runs with the pages, never held back a chunk."""
    booked = await asyncio.to_thread(load)
    async for shipment in shipments:
        yield row_of(shipment, booked.get(shipment.id))


def row_of(shipment: Shipment, booked: tuple[str, str | None] | None) -> BookedRow:
    """A shipment's row with its booking reference and order number (None when not booked
    by Freight here)."""
    row = ShipmentRow.of(shipment)
    values = {name: getattr(row, name) for name in ShipmentRow.__dataclass_fields__}
    reference, order = booked if booked is not None else (None, None)
    return BookedRow(**values, booking_reference=reference, order=order)
