"""The day's pickups: what each carrier's driver takes on one pickup day, and what needs a hand.

Plain data in, plain data out (no Textual, no client): the caller reads the store's ledger
(every station's bookings) and, when it can, the service's shipment records, and hands both
here. ``build_day`` keeps the bookings whose pickup is on the day, joins each with its
shipment record by shipment id, groups them by carrier and flags what needs a hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from tui.domain.pickup_dates import business_day_from
from tui.ledger import UNSETTLED, BookingRecord

FLAG_NOT_CONFIRMED = "pickup_not_confirmed"
FLAG_NO_PAPERWORK = "paperwork_missing"
FLAG_OUTCOME_UNKNOWN = "outcome_unknown"
FLAG_PICKUP_MOVED = "pickup_moved"
FLAG_CANCELED = "canceled"
"""A canceled shipment on a day already closed (an open day leaves it out)."""
FLAGS: tuple[str, ...] = (
    FLAG_NOT_CONFIRMED,
    FLAG_NO_PAPERWORK,
    FLAG_OUTCOME_UNKNOWN,
    FLAG_PICKUP_MOVED,
    FLAG_CANCELED,
)
UNKNOWN_CARRIER = "(carrier unknown)"


def pickup_day(today: date) -> date:
    """The day ``freight day`` shows by default: today, or the next business day."""
    return business_day_from(today)


@dataclass(frozen=True)
class ShipmentFacts:
    """What the service's shipment record adds to a booking (every part optional)."""

    pickup_date: date | None = None
    pickup_window: str | None = None
    confirmation: str | None = None
    """The pickup's confirmation number; None while the carrier has not confirmed it."""
    pickup_note: str | None = None
    """What the service said about the pickup day (e.g. moved off a holiday)."""
    pieces: int | None = None
    weight_lb: Decimal | None = None
    freight_class: str | None = None
    hazmat: bool = False
    consignee: str | None = None
    carrier: str | None = None
    scac: str | None = None
    """The carrier's SCAC, when the service names it."""
    has_paperwork: bool = False
    canceled: bool = False
    """The service shows the shipment canceled: it leaves the day's pickups and manifests
    (a day already closed shows it, flagged canceled)."""


@dataclass(frozen=True)
class DayLine:
    """One shipment on the day's list."""

    booking: BookingRecord
    facts: ShipmentFacts | None
    flags: tuple[str, ...]
    late_addition: bool = False

    @property
    def pro_number(self) -> str | None:
        return self.booking.pro_number


@dataclass
class CarrierGroup:
    """One carrier's shipments on the day."""

    carrier: str
    lines: list[DayLine] = field(default_factory=list)

    @property
    def pieces(self) -> int:
        return sum(line.facts.pieces or 0 for line in self.lines if line.facts)

    @property
    def weight_lb(self) -> Decimal:
        return sum(
            (line.facts.weight_lb or Decimal(0) for line in self.lines if line.facts),
            Decimal(0),
        )

    @property
    def scacs(self) -> set[str]:
        """The carrier's SCACs as its bookings and the service name them (upper case)."""
        codes = {line.facts.scac for line in self.lines if line.facts is not None}
        codes |= {line.booking.lane.carrier_code for line in self.lines if line.booking.lane}
        return {code.strip().upper() for code in codes if code and code.strip()}


@dataclass(frozen=True)
class Day:
    """The day's list: carriers in name order, each with its shipments."""

    day: date
    carriers: tuple[CarrierGroup, ...]

    @property
    def flagged(self) -> list[DayLine]:
        return [line for group in self.carriers for line in group.lines if line.flags]


def _booking_day(record: BookingRecord) -> date | None:
    if record.pickup_date:
        try:
            return date.fromisoformat(record.pickup_date)
        except ValueError:
            pass
    if record.lane is not None:
        return record.lane.pickup_date
    return None


def _carrier(record: BookingRecord, facts: ShipmentFacts | None) -> str:
    if facts is not None and facts.carrier:
        return facts.carrier
    if record.lane is not None:
        return record.lane.carrier or record.lane.carrier_code or UNKNOWN_CARRIER
    return UNKNOWN_CARRIER


def _flags(record: BookingRecord, facts: ShipmentFacts | None) -> tuple[str, ...]:
    flags: list[str] = []
    if facts is None or not facts.confirmation:
        flags.append(FLAG_NOT_CONFIRMED)
    if not record.bol_number and (facts is None or not facts.has_paperwork):
        flags.append(FLAG_NO_PAPERWORK)
    if record.outcome in UNSETTLED:
        flags.append(FLAG_OUTCOME_UNKNOWN)
    asked = record.lane.pickup_date if record.lane is not None else None
    given = facts.pickup_date if facts is not None and facts.pickup_date else _booking_day(record)
    note = record.pickup_note or (facts.pickup_note if facts is not None else None)
    if note or (asked is not None and given is not None and asked != given):
        flags.append(FLAG_PICKUP_MOVED)
    return tuple(flags)


def carrier_key(name: str) -> str:
    """How a carrier's close is looked up by its name: case and outer spaces left aside (as
    ``tui.store.days`` keys a day's carrier closes)."""
    return name.strip().casefold()


def _closed(closed_at: datetime | None, carrier: datetime | None) -> datetime | None:
    """The later of the whole day's close and the carrier's own (None: neither)."""
    if closed_at is None or carrier is None:
        return closed_at or carrier
    return max(closed_at, carrier)


def build_day(
    day: date,
    bookings: Iterable[BookingRecord],
    shipments: Mapping[str, ShipmentFacts] | None = None,
    closed_at: datetime | None = None,
    carrier_closed: Mapping[str, datetime] | None = None,
) -> Day:
    """The shipments whose pickup is on ``day``, grouped by carrier.

    ``shipments`` maps a shipment id to the service's facts; its pickup date wins over the
    ledger's (the service may have moved it). Failed bookings are left out. ``closed_at`` (an
    aware datetime, the whole day's latest close) and ``carrier_closed`` (a carrier's own
    latest close by ``carrier_key`` of its name as the day groups it) mark bookings sent after
    either as late additions: one carrier's close leaves the other carriers' bookings alone.
    """
    facts_of = shipments or {}
    closes = carrier_closed or {}
    groups: dict[str, CarrierGroup] = {}
    for record in bookings:
        if record.outcome == "failed":
            continue
        facts = facts_of.get(record.shipment_id) if record.shipment_id else None
        on = facts.pickup_date if facts is not None and facts.pickup_date else None
        if (on or _booking_day(record)) != day:
            continue
        carrier = _carrier(record, facts)
        closed = _closed(closed_at, closes.get(carrier_key(carrier)))
        late = bool(closed is not None and record.sent_at is not None and record.sent_at > closed)
        flags = _flags(record, facts)
        if facts is not None and facts.canceled:
            if closed is None:
                continue
            flags = (FLAG_CANCELED,)
        line = DayLine(record, facts, flags, late)
        groups.setdefault(carrier, CarrierGroup(carrier)).lines.append(line)
    for group in groups.values():
        group.lines.sort(key=lambda line: (line.booking.pro_number or "", line.booking.reference))
    return Day(day, tuple(groups[name] for name in sorted(groups)))
