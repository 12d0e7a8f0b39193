"""What proves a listed shipment is a booking, and what only makes it a candidate.

A shipment proves the booking when it shows the booking's reference (anywhere in the entry the
server sent: servers keep references under their own names) or the PRO or shipment id the
booking's answer gave. A shipment on the same lane (origin and destination postal codes,
carrier, pickup day) created after the booking was sent is a candidate: only the user can say
it is theirs. Plain functions of plain data: no client, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.api.models import Shipment
    from tui.ledger import BookingRecord, Lane

CLOCK_SKEW = timedelta(minutes=10)
"""How far the service's clock may trail ours: a shipment listed as created up to this long
before the booking was sent still counts as created after it."""
PICKUP_SLACK = timedelta(days=7)
"""A carrier may move the pickup a few days later than asked: up to this much still matches."""
_MAX_NODES = 5_000
"""How many values of one listed entry are looked through for the reference."""


def _same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and a.strip().casefold() == b.strip().casefold()  # type: ignore[union-attr]


def postal(code: str | None) -> str | None:
    """A postal code compared as a person would: case, spaces and dashes ignored, ZIP+4 as
    its five digits (``h4p 2n2`` = ``H4P2N2``, ``60607-1234`` = ``60607``)."""
    if not code:
        return None
    plain = "".join(ch for ch in code.upper() if ch.isalnum())
    if len(plain) == 9 and plain.isdigit():
        return plain[:5]
    return plain or None


def shows(value: Any, text: str) -> bool:
    """Whether ``text`` is one of the string values in a JSON-like value (whole value, case and
    surrounding blanks ignored; a bounded walk, however deep or wide the value)."""
    wanted = text.strip().casefold()
    if not wanted:
        return False
    stack = [value]
    seen = 0
    while stack and seen < _MAX_NODES:
        item = stack.pop()
        seen += 1
        if isinstance(item, str):
            if item.strip().casefold() == wanted:
                return True
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def carries(shipment: Shipment, record: BookingRecord) -> bool:
    """Whether a listed shipment is this booking beyond doubt: it shows the booking's reference,
    or the PRO or shipment id the booking's answer gave."""
    if record.shipment_id and shipment.id == record.shipment_id:
        return True
    if _same(shipment.pro_number, record.pro_number):
        return True
    if _same(shipment.reference, record.reference):
        return True
    return shows(shipment.raw, record.reference)


def carrying(shipments: Iterable[Shipment], record: BookingRecord) -> list[Shipment]:
    """Every shipment among these that carries the booking (each one a booking of it)."""
    return [shipment for shipment in shipments if carries(shipment, record)]


def proven(shipments: Iterable[Shipment], record: BookingRecord) -> Shipment | None:
    """The one shipment among these that carries the booking, if exactly one does (a reference
    two shipments show proves neither)."""
    carrying = [shipment for shipment in shipments if carries(shipment, record)]
    by_number = [
        s
        for s in carrying
        if (record.shipment_id and s.id == record.shipment_id)
        or _same(s.pro_number, record.pro_number)
    ]
    if len(by_number) == 1:
        return by_number[0]
    return carrying[0] if len(carrying) == 1 else None


def _carrier_matches(shipment: Shipment, lane: Lane) -> bool | None:
    """True or False when both sides name a carrier; None when one side does not."""
    carrier = shipment.carrier
    if carrier is None or not (carrier.name or carrier.scac):
        return None
    if not (lane.carrier or lane.carrier_code):
        return None
    return _same(carrier.scac, lane.carrier_code) or _same(carrier.name, lane.carrier)


def on_lane(shipment: Shipment, lane: Lane, sent_at: datetime | None) -> str | None:
    """Why a listed shipment may be the booking of ``lane`` sent at ``sent_at``, or None.

    It must not contradict the lane (another origin, destination, carrier or pickup day,
    or created before the booking was sent) and must share at least one of its postal codes.
    """
    created = shipment.created_date
    if created is not None and created.tzinfo is None:
        created = created.replace(tzinfo=UTC)  # a listing's time without an offset is UTC
    if created is not None and sent_at is not None and created < sent_at - CLOCK_SKEW:
        return None
    same: list[str] = []
    for end, theirs, ours in (
        ("origin", shipment.origin.postal_code, lane.origin),
        ("destination", shipment.destination.postal_code, lane.destination),
    ):
        a, b = postal(theirs), postal(ours)
        if a and b:
            if a != b:
                return None
            same.append(end)
    if not same:
        return None
    if _carrier_matches(shipment, lane) is False:
        return None
    pickup, asked = shipment.pickup_date, lane.pickup_date
    if pickup is not None and asked is not None and not asked <= pickup <= asked + PICKUP_SLACK:
        return None
    what = "same lane" if len(same) == 2 else f"same {same[0]}"
    if created is None:
        return f"{what}, no creation time listed"
    return f"{what}, created after the booking was sent"
