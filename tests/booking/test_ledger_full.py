"""A ledger that cannot be written stops the booking: no `sent` line, no request.

Real failures, no mocks: the ledger file is /dev/full (every write: ENOSPC), or the process
may not grow a file past a size (RLIMIT_FSIZE: EFBIG, a write cut short mid-line).
"""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.booking.conftest import Counting, booking_of, ltl_rates
from tui.api import FreightClient
from tui.booking import BookingEngine, new_reference
from tui.ledger import BookingLedger


@contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """No file of this process may grow past `size` bytes (Python ignores SIGXFSZ: EFBIG)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


@pytest.fixture
def ledger(tmp_path: Path) -> BookingLedger:
    """The JSON Lines ledger in the test's dir (these tests are about its file: the booking
    engine's other tests run on the store's ledger)."""
    return BookingLedger(tmp_path / "bookings.jsonl")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
async def test_a_full_disk_stops_the_booking_before_it_is_sent(
    client: FreightClient, counting: Counting, tmp_path: Path
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    path = tmp_path / "bookings.jsonl"
    path.symlink_to("/dev/full")
    outcome = await BookingEngine(client, BookingLedger(path), "acme").book(booking_of(quote, rate))
    assert outcome.status == "failed"
    assert outcome.reason == (
        "the booking ledger could not be written (No space left on device), so the booking "
        "was not sent"
    )
    assert outcome.retryable
    assert outcome.record is None
    assert counting.count("/book") == 0


async def test_a_file_too_large_stops_the_booking_and_leaves_no_torn_line(
    client: FreightClient, counting: Counting, ledger: BookingLedger
) -> None:
    quote, (rate, second, *_) = await ltl_rates(client)
    engine = BookingEngine(client, ledger, "acme")
    assert (await engine.book(booking_of(quote, rate))).status == "booked"
    before = ledger.path.read_bytes()
    # Room for 20 more bytes: the `sent` line is cut short mid-line, then EFBIG.
    with file_size_limit(len(before) + 20):
        outcome = await engine.book(booking_of(quote, second))
    assert outcome.status == "failed"
    assert "File too large" in outcome.reason
    assert counting.count("/book") == 1  # the first booking only
    assert ledger.path.read_bytes() == before  # the torn part was cut off again
    assert [b.outcome for b in ledger.bookings()] == ["booked"]
    # With room again, the same booking goes out.
    assert (await engine.book(booking_of(quote, second))).status == "booked"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
async def test_a_booking_confirmed_while_the_disk_fills_up_is_still_booked(
    client: FreightClient, counting: Counting, ledger: BookingLedger
) -> None:
    quote, (rate, *_) = await ltl_rates(client)
    engine = BookingEngine(client, ledger, "acme")
    reference = new_reference()
    kept = ledger.path.with_suffix(".kept")

    def fill_up() -> None:  # the disk fills while the booking is on its way
        ledger.path.rename(kept)
        ledger.path.symlink_to("/dev/full")

    counting.before_booking.append(fill_up)
    outcome = await engine.book(booking_of(quote, rate), reference=reference)
    counting.before_booking.clear()
    ledger.path.unlink()
    kept.rename(ledger.path)
    assert outcome.status == "booked"  # the service said so: never reported unknown
    assert outcome.booking is not None
    assert outcome.ledger_problem == (
        "the booking ledger could not be written (No space left on device)"
    )
    record = ledger.latest(reference)
    assert record is not None
    assert record.outcome == "sent"
    # The next run does not send it again: it finds it by its reference.
    again = await engine.book(booking_of(quote, rate), reference=reference)
    assert again.status == "booked"
    assert again.found is not None
    assert again.shipment_id == outcome.shipment_id
    record = ledger.latest(reference)
    assert record is not None
    assert record.outcome == "booked"
    assert counting.count("/book") == 1
