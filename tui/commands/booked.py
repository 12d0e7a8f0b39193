"""What the store knows of listed shipments: Freight's booking reference and the batch's order
number, joined by shipment id into the records of ``freight shipments`` and ``shipment``."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Collection
from functools import partial
from typing import TYPE_CHECKING, Any

from tui.commands.connect import ledger_account
from tui.commands.exits import UsageError
from tui.config.paths import data_dir
from tui.listing import booked as listing
from tui.listing.booked import Booked, BookedRow, row_of
from tui.store import open_store
from tui.store.ledger import booked_shipments

if TYPE_CHECKING:
    from tui.api.models import Shipment

__all__ = ["Booked", "BookedRow", "joined", "lookup", "row_of", "with_booking"]


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


def joined(
    args: argparse.Namespace, shipments: AsyncIterator[Shipment]
) -> AsyncIterator[BookedRow]:
    """The shipments as rows with their bookings in the command's store."""
    return listing.joined(partial(lookup, args), shipments)


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
