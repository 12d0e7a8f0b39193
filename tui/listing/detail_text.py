"""One shipment written out as Rich text: places, items, tracking, documents.

Every string from the server goes through `plain` (no escapes, no control characters) and into
`Text`, never a markup string.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from rich.text import Text

from tui.domain.safe_text import plain
from tui.listing.accessorials import accessorials_of
from tui.listing.columns import money
from tui.listing.status import status_text

if TYPE_CHECKING:
    from tui.api.models import Address, Document, Shipment, ShipmentDetail, ShipmentItem


def _number(value: Decimal | None) -> str:
    if value is None:
        return "?"
    return f"{value.normalize():f}" if value == value.to_integral_value() else f"{value}"


def address_line(address: Address) -> str:
    """`Acme Dock Co, 1200 W Lake St, Chicago IL 60601`."""
    place = " ".join(p for p in (address.city, address.state, address.postal_code) if p)
    parts = [p for p in (address.company, address.address, address.address2, place) if p]
    return plain(", ".join(parts)) or "—"


def title_line(detail: ShipmentDetail, listing: Shipment | None) -> Text:
    """`4415-227893-5 · LKIF · ◑ confirmed` (the carrier from the listing when missing)."""
    line = Text(plain(detail.pro_number or detail.id), style="bold")
    carrier = detail.carrier or (listing.carrier if listing is not None else None)
    if carrier is not None and (carrier.scac or carrier.name):
        line.append(" · " + plain(carrier.scac or carrier.name))
    line.append(" · ")
    line.append_text(status_text(detail.status))
    return line


def carrier_line(detail: ShipmentDetail, listing: Shipment | None) -> Text:
    """`Carrier Lakeshore Interstate (LKIF) · ltl · total 329.09` from detail or listing."""
    text = Text("Carrier ", style="bold")
    carrier = detail.carrier or (listing.carrier if listing is not None else None)
    parts = []
    if carrier is not None and (carrier.name or carrier.scac):
        name = carrier.name or carrier.scac or ""
        parts.append(f"{name} ({carrier.scac})" if carrier.scac and carrier.name else name)
    else:
        parts.append("unknown (open from the list to see it)")
    mode = detail.mode or (listing.mode if listing is not None else None)
    if mode:
        parts.append(mode)
    cost = detail.cost or (listing.cost if listing is not None else None)
    if cost is not None and cost.total is not None:
        parts.append(f"total {money(cost.total, cost.currency)}")
    text.append(plain(" · ".join(parts)))
    return text


def places_text(detail: ShipmentDetail) -> Text:
    text = Text()
    text.append("From ", style="bold")
    text.append(address_line(detail.origin) + "\n")
    text.append("To   ", style="bold")
    text.append(address_line(detail.destination))
    return text


def item_line(item: ShipmentItem) -> str:
    """`2 × pallet 800 lb 48×40×48 cl 70 Machine parts`."""
    parts = [f"{item.quantity or 1} × {item.package or 'unit'}", f"{_number(item.weight)} lb"]
    if item.length is not None and item.width is not None and item.height is not None:
        parts.append(f"{_number(item.length)}×{_number(item.width)}×{_number(item.height)} in")
    if item.freight_class is not None:
        parts.append(f"cl {_number(item.freight_class)}")
    if item.hazardous:
        parts.append("HAZMAT")
    if item.description:
        parts.append(item.description)
    return plain(" ".join(parts))


def items_text(detail: ShipmentDetail) -> Text:
    text = Text("Items", style="bold")
    if not detail.items:
        text.append("  none listed", style="dim")
    for item in detail.items:
        text.append("\n  " + item_line(item))
    return text


def accessorials_text(detail: ShipmentDetail) -> Text:
    """`Accessorials  Residential delivery · Liftgate at delivery · Delivery appointment`."""
    text = Text("Accessorials  ", style="bold")
    names = accessorials_of(detail.raw)
    if names:
        text.append(" · ".join(names))
    else:
        text.append("none listed", style="dim")
    return text


def tracking_text(detail: ShipmentDetail, listing: Shipment | None) -> Text:
    text = Text("Tracking  ", style="bold")
    tracking = detail.tracking
    number = (tracking.tracking_number if tracking else None) or (
        listing.tracking_number if listing is not None else None
    )
    text.append(plain((tracking.status if tracking and tracking.status else detail.status) or "—"))
    if number:
        text.append(f" · {plain(number)}")
    pickup = pickup_day(detail)
    if tracking is not None or pickup is not None:
        delivery = tracking.delivery_date if tracking is not None else None
        text.append(f" · pickup {_day(pickup)} · delivery {_day(delivery)}")
    refs = [
        ("BOL", detail.bol_number),
        ("pickup conf.", detail.pickup_confirmation),
        ("quote", detail.quote_id),
        ("ref", detail.reference),
        ("id", detail.id),
    ]
    known = [f"{label} {value}" for label, value in refs if value]
    if known:
        text.append("\n" + plain(" · ".join(known)), style="dim")
    if detail.pickup_date_message:
        text.append("\n⚠ " + plain(detail.pickup_date_message), style="bold")
    return text


def pickup_day(detail: ShipmentDetail) -> date | None:
    """The pickup day as the list and the CSV give it: the detail's `pickupDate`, else the
    tracking's pickup moment, both as the service wrote them (the day at the dock)."""
    if detail.pickup_date is not None:
        return detail.pickup_date
    tracking = detail.tracking
    moment = tracking.pickup_date if tracking is not None else None
    return moment.date() if moment is not None else None


def _day(value: date | None) -> str:
    """`Mon 11-30`: a day at the dock (a date-time as the service wrote it, not moved to the
    viewer's zone: the pickup day must read the same in the list, the CSV and here)."""
    if value is None:
        return "—"
    day = value.date() if isinstance(value, datetime) else value
    return f"{day:%a %m-%d}"


def document_label(document: Document) -> str:
    """`bol · BOL.pdf (pdf)`, as plain text (show it as `Text`, never as markup)."""
    name = document.name or document.url.rsplit("/", 1)[-1]
    kind = document.type or "document"
    fmt = f" ({document.format})" if document.format else ""
    return plain(f"{kind} · {name}{fmt}")
