"""What proves a listed shipment is the booking, and what only makes it a candidate."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from tui.api.models import Shipment
from tui.booking.proof import carries, on_lane, postal, proven, shows
from tui.ledger import BookingRecord, Lane

SENT = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)
LANE = Lane("60607", "H4P 2N2", "Maple Leaf Freight", "MLFT", date(2026, 11, 19))


def _record(**fields: Any) -> BookingRecord:
    return BookingRecord(
        "FRT0123456789", "acme", "q1", "r1", SENT, "unknown", sent_at=SENT, lane=LANE, **fields
    )


def _listed(**fields: Any) -> Shipment:
    entry = {
        "id": "s1",
        "createdDate": (SENT + timedelta(seconds=5)).isoformat(),
        "origin": {"postalCode": "60607-1234"},
        "destination": {"postalCode": "h4p2n2"},
        "carrier": {"name": "Maple Leaf Freight", "scac": "MLFT"},
        "pickupDate": "2026-11-19",
        **fields,
    }
    return Shipment.model_validate(entry)


def test_postal_codes_compare_as_a_person_reads_them() -> None:
    assert postal("60607-1234") == postal(" 60607 ") == "60607"
    assert postal("h4p 2n2") == postal("H4P-2N2") == "H4P2N2"
    assert postal("") is None


def test_the_reference_is_found_anywhere_in_the_entry_but_only_whole() -> None:
    assert shows({"refs": [{"kind": "po", "value": " frt0123456789 "}]}, "FRT0123456789")
    assert not shows({"notes": "see FRT0123456789 and more"}, "FRT0123456789")
    deep: Any = "FRT0123456789"
    for _ in range(3_000):  # deeper than Python's recursion limit
        deep = [deep]
    assert shows(deep, "FRT0123456789")
    wide = {"first": "FRT0123456789"} | {f"k{n}": "x" for n in range(100_000)}
    assert not shows(wide, "FRT0123456789")  # a bounded walk: past its budget, not looked at


def test_a_hit_proves_the_booking_only_with_its_reference_or_its_pro() -> None:
    record = _record(pro_number="PRO77")
    assert carries(_listed(refs=["FRT0123456789"]), record)
    assert carries(_listed(proNumber="pro77"), record)
    assert carries(_listed(id="s9"), _record(shipment_id="s9"))
    assert not carries(_listed(reference="PO-1"), record)
    # Two shipments showing the reference prove neither; the PRO decides between them.
    twins = [_listed(id="a", refs=["FRT0123456789"]), _listed(id="b", refs=["FRT0123456789"])]
    assert proven(twins, _record()) is None
    assert proven([*twins, _listed(id="c", proNumber="PRO77")], record) is not None


def test_a_candidate_shares_the_lane_and_was_created_after_the_booking_was_sent() -> None:
    assert on_lane(_listed(), LANE, SENT) == "same lane, created after the booking was sent"
    created_late = (SENT - timedelta(minutes=5)).isoformat()  # a clock a little behind
    assert on_lane(_listed(createdDate=created_late), LANE, SENT) is not None
    created_before = (SENT - timedelta(hours=1)).isoformat()
    assert on_lane(_listed(createdDate=created_before), LANE, SENT) is None
    assert on_lane(_listed(destination={"postalCode": "30303"}), LANE, SENT) is None
    assert on_lane(_listed(carrier={"name": "Prairie Lines", "scac": "PRLN"}), LANE, SENT) is None
    assert on_lane(_listed(pickupDate="2026-11-17"), LANE, SENT) is None
    assert on_lane(_listed(pickupDate="2026-11-20"), LANE, SENT) is not None  # moved later
    one_end = _listed(destination={})
    assert on_lane(one_end, LANE, SENT) == "same origin, created after the booking was sent"
    no_ends = _listed(origin={}, destination={})
    assert on_lane(no_ends, LANE, SENT) is None  # nothing ties it to this booking
    undated = _listed(createdDate=None)
    assert on_lane(undated, LANE, SENT) == "same lane, no creation time listed"
