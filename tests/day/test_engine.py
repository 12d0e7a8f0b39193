"""The day engine: which bookings are on the day, by carrier, and what needs a hand."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from tui.day import (
    FLAG_CANCELED,
    FLAG_NO_PAPERWORK,
    FLAG_NOT_CONFIRMED,
    FLAG_OUTCOME_UNKNOWN,
    FLAG_PICKUP_MOVED,
    ShipmentFacts,
    build_day,
    carrier_key,
    pickup_day,
)
from tui.ledger import BookingRecord, Lane

DAY = date(2026, 3, 10)  # a Tuesday
SENT = datetime(2026, 3, 9, 15, 0, tzinfo=UTC)


def _record(
    reference: str,
    carrier: str,
    *,
    pickup: date = DAY,
    outcome: str = "booked",
    pro: str | None = None,
    bol: str | None = "BOL1",
    shipment: str | None = None,
    sent_at: datetime = SENT,
) -> BookingRecord:
    return BookingRecord(
        reference=reference,
        profile="p",
        quote_id="q",
        rate_id="r",
        time=sent_at,
        outcome=outcome,  # type: ignore[arg-type]
        sent_at=sent_at,
        shipment_id=shipment,
        pro_number=pro,
        bol_number=bol,
        pickup_date=pickup.isoformat(),
        lane=Lane("60601", "30301", carrier, None, pickup),
        station="desk-1",
    )


def test_default_day_skips_the_weekend() -> None:
    assert pickup_day(date(2026, 3, 14)) == date(2026, 3, 16)  # Saturday -> Monday
    assert pickup_day(DAY) == DAY


def test_day_groups_by_carrier_and_leaves_other_days_and_failures_out() -> None:
    bookings = [
        _record("A", "Beta Freight", pro="200", shipment="s1"),
        _record("B", "Alpha Lines", pro="100", shipment="s2"),
        _record("C", "Alpha Lines", pickup=date(2026, 3, 11)),
        _record("D", "Alpha Lines", outcome="failed"),
    ]
    facts = {
        "s1": ShipmentFacts(pieces=3, weight_lb=Decimal("450.5"), confirmation="PU1"),
        "s2": ShipmentFacts(pieces=2, weight_lb=Decimal("100"), confirmation="PU1"),
    }
    day = build_day(DAY, bookings, facts)
    assert [group.carrier for group in day.carriers] == ["Alpha Lines", "Beta Freight"]
    assert [line.booking.reference for line in day.carriers[0].lines] == ["B"]
    assert day.carriers[1].weight_lb == Decimal("450.5")
    assert day.carriers[1].pieces == 3
    assert day.flagged == []


def test_flags_name_what_needs_a_hand() -> None:
    bookings = [
        _record("U", "Alpha Lines", outcome="unknown", bol=None),
        _record("M", "Alpha Lines", pickup=date(2026, 3, 9), shipment="s9"),
    ]
    facts = {"s9": ShipmentFacts(pickup_date=DAY, confirmation="PU1")}
    day = build_day(DAY, bookings, facts)
    flags = {line.booking.reference: line.flags for line in day.carriers[0].lines}
    assert flags["U"] == (FLAG_NOT_CONFIRMED, FLAG_NO_PAPERWORK, FLAG_OUTCOME_UNKNOWN)
    assert flags["M"] == (FLAG_PICKUP_MOVED,)


def test_bookings_after_the_close_are_late_additions() -> None:
    closed = datetime(2026, 3, 9, 16, 0, tzinfo=UTC)
    bookings = [
        _record("E", "Alpha Lines"),
        _record("L", "Alpha Lines", sent_at=datetime(2026, 3, 9, 17, 0, tzinfo=UTC)),
    ]
    day = build_day(DAY, bookings, closed_at=closed)
    late = {line.booking.reference: line.late_addition for line in day.carriers[0].lines}
    assert late == {"E": False, "L": True}


def test_a_canceled_shipment_leaves_an_open_day_and_shows_canceled_on_a_closed_one() -> None:
    bookings = [_record("K", "Alpha Lines", shipment="s1"), _record("S", "Alpha Lines")]
    facts = {"s1": ShipmentFacts(confirmation="PU1", canceled=True)}
    open_day = build_day(DAY, bookings, facts)
    assert [line.booking.reference for line in open_day.carriers[0].lines] == ["S"]
    closed = build_day(DAY, bookings, facts, closed_at=datetime(2026, 3, 9, 16, 0, tzinfo=UTC))
    flags = {line.booking.reference: line.flags for line in closed.carriers[0].lines}
    assert flags["K"] == (FLAG_CANCELED,)


def test_a_carriers_close_makes_only_its_own_later_bookings_late() -> None:
    alpha_closed = datetime(2026, 3, 9, 16, 0, tzinfo=UTC)
    later = datetime(2026, 3, 9, 17, 0, tzinfo=UTC)
    bookings = [
        _record("A1", "Alpha Lines"),
        _record("A2", "Alpha Lines", sent_at=later),
        _record("B1", "Beta Freight"),
        _record("B2", "Beta Freight", sent_at=later),
    ]
    day = build_day(DAY, bookings, carrier_closed={carrier_key("ALPHA LINES"): alpha_closed})
    late = {line.booking.reference: line.late_addition for g in day.carriers for line in g.lines}
    assert late == {"A1": False, "A2": True, "B1": False, "B2": False}
    # The whole day's close still makes every carrier's later booking late; a carrier closed
    # after the day is late from its own, later, close.
    whole = datetime(2026, 3, 9, 16, 30, tzinfo=UTC)
    beta = {carrier_key("Beta Freight"): datetime(2026, 3, 9, 18, 0, tzinfo=UTC)}
    day = build_day(DAY, bookings, closed_at=whole, carrier_closed=beta)
    late = {line.booking.reference: line.late_addition for g in day.carriers for line in g.lines}
    assert late == {"A1": False, "A2": True, "B1": False, "B2": False}


def test_a_carrier_is_closed_by_the_name_the_day_groups_it_under() -> None:
    """The service's carrier name wins over the rate's: the close names that one."""
    closed = {carrier_key("Alpha Lines Inc"): datetime(2026, 3, 9, 16, 0, tzinfo=UTC)}
    bookings = [
        _record("A", "Alpha", shipment="s1", sent_at=datetime(2026, 3, 9, 17, 0, tzinfo=UTC))
    ]
    facts = {"s1": ShipmentFacts(carrier="Alpha Lines Inc", scac="ALPH", confirmation="PU1")}
    day = build_day(DAY, bookings, facts, carrier_closed=closed)
    assert day.carriers[0].carrier == "Alpha Lines Inc"
    assert day.carriers[0].scacs == {"ALPH"}
    assert day.carriers[0].lines[0].late_addition
    assert not build_day(DAY, bookings, carrier_closed=closed).carriers[0].lines[0].late_addition
