"""The booking ledger on its own: states, marks per profile, torn lines, concurrent writers."""

from __future__ import annotations

import multiprocessing
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tui.ledger import (
    AlreadySentError,
    BookingLedger,
    BookingRecord,
    Lane,
    needs_check,
    new_reference,
)


def _write_many(path: str, profile: str, count: int) -> None:
    ledger = BookingLedger(Path(path))
    for index in range(count):
        record = ledger.sent(profile, f"q{index}", "r1", new_reference())
        ledger.settle(record, "booked", pro_number=f"PRO{index}")


def test_references_are_one_searchable_word_and_do_not_repeat() -> None:
    references = {new_reference() for _ in range(2000)}
    assert len(references) == 2000
    assert all(re.fullmatch(r"FRT[0-9A-HJKMNP-TV-Z]{10}", ref) for ref in references)


def test_a_booking_is_sent_then_settled_and_its_last_state_wins(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    sent = ledger.sent("acme", "q1", "r1", "FRT0000000001")
    assert sent.time.tzinfo is not None
    assert [b.outcome for b in ledger.bookings()] == ["sent"]
    booked = ledger.settle(sent, "booked", shipment_id="s1", pro_number="PRO1", bol_number="B1")
    (only,) = ledger.bookings()
    assert only == booked
    assert (only.outcome, only.shipment_id, only.pro_number, only.bol_number) == (
        "booked",
        "s1",
        "PRO1",
        "B1",
    )
    assert only.sent_at == sent.sent_at
    assert only.time >= sent.time
    assert only.settled


def test_marks_are_per_profile_and_quote_and_a_refusal_marks_nothing(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    ledger.settle(ledger.sent("acme", "q1", "r1", "FRTA"), "booked", pro_number="P")
    ledger.settle(ledger.sent("acme", "q1", "r2", "FRTB"), "unknown")
    ledger.settle(ledger.sent("acme", "q1", "r3", "FRTC"), "failed", note="400: bad phone")
    ledger.sent("acme", "q2", "r1", "FRTD")  # sent, no answer recorded (the app stopped)
    ledger.settle(ledger.sent("other", "q1", "r4", "FRTE"), "booked")
    assert ledger.marks("acme", "q1") == {"r1": "booked", "r2": "unknown"}
    assert ledger.marks("acme", "q2") == {"r1": "unknown"}
    assert ledger.marks("other", "q1") == {"r4": "booked"}
    assert ledger.marks("nobody", "q1") == {}


def test_a_rate_booked_once_stays_marked_booked_after_a_later_unknown(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    ledger.settle(ledger.sent("acme", "q1", "r1", "FRTA"), "booked")
    ledger.settle(ledger.sent("acme", "q1", "r1", "FRTB"), "unknown")
    assert ledger.marks("acme", "q1") == {"r1": "booked"}


def test_what_needs_a_check_before_sending_again(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    assert needs_check(ledger.for_rate("acme", "q1", "r1")) is None
    refused = ledger.settle(ledger.sent("acme", "q1", "r1", "FRTA"), "failed")
    assert needs_check(ledger.for_rate("acme", "q1", "r1")) is None
    unknown = ledger.settle(ledger.sent("acme", "q1", "r1", "FRTB"), "unknown")
    found = needs_check(ledger.for_rate("acme", "q1", "r1"))
    assert found is not None
    assert found.reference == unknown.reference != refused.reference
    assert needs_check(ledger.for_rate("acme", "q1", "r2")) is None
    assert needs_check(ledger.for_rate("other", "q1", "r1")) is None


def test_a_torn_last_line_is_skipped_and_the_next_write_starts_a_new_line(
    tmp_path: Path,
) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    ledger.sent("acme", "q1", "r1", "FRTA")
    with ledger.path.open("a", encoding="utf-8") as handle:
        handle.write('{"v":1,"reference":"FRTB","profile":"ac')  # a crash mid-write
    assert [b.reference for b in ledger.bookings()] == ["FRTA"]
    ledger.sent("acme", "q1", "r2", "FRTC")
    assert [b.reference for b in ledger.bookings()] == ["FRTA", "FRTC"]


def test_foreign_and_odd_lines_are_skipped(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    ledger.path.write_text(
        "\n".join(
            [
                "not json",
                "[1, 2]",
                '{"outcome": "booked"}',
                '{"reference": "X", "profile": "p", "quote_id": "q", "rate_id": "r", '
                '"outcome": "booked", "time": "2026-11-20T10:00:00"}',  # naive time
                '{"reference": "Y", "profile": "p", "quote_id": "q", "rate_id": "r", '
                '"outcome": "exploded", "time": "2026-11-20T10:00:00+00:00"}',
                '{"reference": "Z", "profile": "p", "quote_id": "q", "rate_id": "r", '
                '"outcome": "booked", "time": "2026-11-20T10:00:00+00:00", "pro_number": 7}',
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    (only,) = ledger.bookings()
    assert only.reference == "Z"
    assert only.pro_number is None  # a number where text was expected: left out
    assert only.time == datetime(2026, 11, 20, 10, tzinfo=UTC)


def test_a_missing_ledger_reads_as_empty(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path / "not-yet")
    assert ledger.bookings() == []
    assert ledger.marks("acme", "q1") == {}


def test_records_round_trip_through_a_line() -> None:
    now = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)
    record = BookingRecord("FRTA", "acme", "q1", "r1", now, "unknown", sent_at=now, note="x")
    line = record.to_json()
    assert "\n" not in line
    assert BookingRecord.from_json(line) == record


def test_two_processes_writing_at_once_lose_no_line(tmp_path: Path) -> None:
    path = tmp_path / "bookings.jsonl"
    context = multiprocessing.get_context("spawn")
    writers = [
        context.Process(target=_write_many, args=(str(path), f"p{n}", 100)) for n in range(3)
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(60)
        assert writer.exitcode == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 600
    assert all(BookingRecord.from_json(line) is not None for line in lines)
    ledger = BookingLedger(path)
    for n in range(3):
        bookings = ledger.bookings(f"p{n}")
        assert len(bookings) == 100
        assert {b.outcome for b in bookings} == {"booked"}


def test_a_record_keeps_its_lane_and_what_to_search_for() -> None:
    now = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)
    lane = Lane("60607", "H4P 2N2", "Maple Leaf", "MLFT", date(2026, 11, 23))
    record = BookingRecord(
        "FRTA", "acme", "q1", "r1", now, "sent", sent_at=now, lane=lane, search_for="PO-1"
    )
    assert BookingRecord.from_json(record.to_json()) == record
    # A lane with parts of the wrong type keeps the others.
    odd = record.to_json().replace('"origin":"60607"', '"origin":60607')
    read = BookingRecord.from_json(odd)
    assert read is not None
    assert read.lane == Lane(None, "H4P 2N2", "Maple Leaf", "MLFT", date(2026, 11, 23))


def test_a_reference_is_recorded_as_sent_once_unless_it_was_refused(tmp_path: Path) -> None:
    ledger = BookingLedger.in_dir(tmp_path)
    other = BookingLedger.in_dir(tmp_path)  # another Freight on the same file
    sent = ledger.sent("acme", "q1", "r1", "FRTA")
    with pytest.raises(AlreadySentError) as again:
        other.sent("acme", "q1", "r1", "FRTA")
    assert again.value.record.outcome == "sent"
    other.settle(sent, "failed", note="400: bad phone")
    assert ledger.sent("acme", "q1", "r1", "FRTA").outcome == "sent"  # refused: free again
    assert [b.outcome for b in other.bookings()] == ["sent"]


def test_a_reader_catches_up_with_lines_appended_and_a_file_replaced(tmp_path: Path) -> None:
    reader = BookingLedger.in_dir(tmp_path)
    writer = BookingLedger.in_dir(tmp_path)
    assert reader.bookings() == []
    writer.settle(writer.sent("acme", "q1", "r1", "FRTA"), "booked")
    assert reader.latest("FRTA") is not None
    assert reader.bookings()[0].outcome == "booked"
    writer.sent("acme", "q1", "r2", "FRTB")
    assert [b.reference for b in reader.bookings()] == ["FRTA", "FRTB"]
    # Restored from a backup (another file in its place): read from the start again.
    replacement = tmp_path / "restored.jsonl"
    replacement.write_text(writer.path.read_text().splitlines()[0] + "\n", encoding="utf-8")
    replacement.replace(writer.path)
    assert [(b.reference, b.outcome) for b in reader.bookings()] == [("FRTA", "sent")]
