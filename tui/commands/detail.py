"""``freight shipment ID``: one shipment's detail, and its documents saved to a folder."""

from __future__ import annotations

import argparse
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from tui.commands.connect import open_client
from tui.commands.exits import FAILED, OK, UsageError
from tui.commands.fields import DETAIL_FIELDS, output_of, write_records
from tui.commands.text import fields, money, table
from tui.domain.safe_text import plain
from tui.listing.detail_text import pickup_day

if TYPE_CHECKING:
    from tui.api.models import Address, ShipmentDetail, TrackingEvent


def address_text(address: Address) -> str:
    """Company, street, city, state and ZIP on one line."""
    place = " ".join(p for p in (address.state, address.postal_code) if p)
    parts = (address.company, address.address, address.address2, address.city, place)
    return ", ".join(p for p in parts if p)


def events_table(events: list[TrackingEvent], out: TextIO) -> None:
    """The events, oldest first, as a table (or a line saying there are none)."""
    if not events:
        print("No events yet.", file=out)
        return
    ordered = sorted(events, key=lambda e: (e.time is None, e.time))
    rows = [
        [
            e.time.isoformat(timespec="minutes") if e.time else "",
            e.status or "",
            e.location or "",
            e.description or "",
        ]
        for e in ordered
    ]
    table(("TIME", "STATUS", "LOCATION", "DESCRIPTION"), rows, out)


def print_detail(detail: ShipmentDetail, out: TextIO) -> None:
    """The detail as labelled lines, then items, events and documents."""
    carrier, cost, tracking = detail.carrier, detail.cost, detail.tracking
    fields(
        [
            ("Shipment", detail.id),
            ("Status", detail.status),
            ("Mode", detail.mode or ""),
            ("PRO", detail.pro_number or ""),
            ("BOL", detail.bol_number or ""),
            ("Tracking", (tracking.tracking_number or "") if tracking else ""),
            ("Pickup conf.", detail.pickup_confirmation or ""),
            ("Reference", detail.reference or ""),
            ("Carrier", " ".join(p for p in (carrier.name, carrier.scac) if p) if carrier else ""),
            ("Total", money(cost.total, cost.currency) if cost else ""),
            ("Created", detail.created_date.isoformat() if detail.created_date else ""),
            ("Pickup", day_text(pickup_day(detail))),
            *([("Pickup note", detail.pickup_date_message)] if detail.pickup_date_message else []),
            ("Delivery", day_text(tracking.delivery_date if tracking else None)),
            ("From", address_text(detail.origin)),
            ("To", address_text(detail.destination)),
            ("Quote", detail.quote_id or ""),
        ],
        out,
    )
    if detail.items:
        print("", file=out)
        rows = [
            [
                str(item.quantity or ""),
                item.package or "",
                f"{item.weight} lb" if item.weight is not None else "",
                "x".join(str(d) for d in (item.length, item.width, item.height) if d is not None),
                str(item.freight_class or ""),
                item.description or "",
            ]
            for item in detail.items
        ]
        table(("QTY", "PACKAGE", "WEIGHT/UNIT", "LxWxH IN", "CLASS", "DESCRIPTION"), rows, out)
    print("", file=out)
    events_table(detail.events, out)
    if detail.documents:
        print("", file=out)
        rows = [[d.type or "", d.format or "", d.name or "", d.url] for d in detail.documents]
        table(("DOCUMENT", "FORMAT", "NAME", "URL"), rows, out)


def _folder(text: str) -> Path:
    return Path(text).expanduser()


def day_text(value: object) -> str:
    """`2026-11-30`: a pickup or delivery day as the service wrote it (the day at the dock,
    as the list and the CSV give it)."""

    if isinstance(value, datetime):
        return value.date().isoformat()
    return value.isoformat() if isinstance(value, date) else ""


async def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Print the shipment; with ``--documents`` save them and list the files on stderr."""

    output = output_of(args, DETAIL_FIELDS, args.format)
    if not args.shipment_id:
        raise UsageError("say which shipment: freight shipment ID (see freight shipments)")
    async with open_client(args) as client:
        detail = await client.get_shipment(args.shipment_id)
        if output.format == "table":
            print_detail(detail, out)
        else:
            import asyncio

            from tui.commands.booked import lookup, with_booking

            booked = await asyncio.to_thread(lookup, args, [detail.id])
            record = with_booking(
                DETAIL_FIELDS.record(detail, output.fields), booked.get(detail.id)
            )
            write_records([record], output.format, out, one=True)
        if args.documents is None:
            return OK
        if not detail.documents:
            print(f"Shipment {plain(detail.id)} has no documents to save.", file=err)
            return FAILED
        from tui.api.errors import FreightError
        from tui.documents import save_documents

        folder = _folder(args.documents)
        try:
            saved = await save_documents(client.download_document, detail.documents, folder)
        except (OSError, FreightError) as exc:  # a full disk, a document too large or gone
            reason = plain(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
            print(f"freight: could not save the documents in {plain(folder)}: {reason}", file=err)
            return FAILED
    for document in saved:
        print(f"Saved {document.kind} ({document.format}): {plain(document.path)}", file=err)
    return OK
