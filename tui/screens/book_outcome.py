"""What the Book screen makes of the booking engine's outcome: the result on a booking, the
server's reasons on a refusal, a search for the booking when no usable answer came; and the
check for an earlier booking of the same rate before sending. Plain values, no widgets."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from tui.api.errors import QuoteExpiredError
from tui.domain.postal import same_postal_code
from tui.drafts import BOOKED, draft_writer
from tui.forms.quote_lines import booked_text
from tui.ledger import BookingRecord

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from tui.api.errors import FreightError
    from tui.api.models import Shipment
    from tui.booking import BookingOutcome, RefusedOutcome, UnknownOutcome
    from tui.host import AnyBooking
    from tui.session import Session


@dataclass(frozen=True)
class Shown:
    """What the booking form does with an outcome: a status line, and what comes next."""

    status: str = ""
    problem: bool = True
    ledger_note: str | None = None
    """The ledger could not be written: it may not remember this booking."""
    booked: bool = False
    """The draft is spent."""
    booking: AnyBooking | None = None
    """Show this booking's result."""
    shipment: str | None = None
    """Open this shipment (found: as the search listed it)."""
    found: Shipment | None = None
    fields: Mapping[str, str] | None = None
    """The service's reasons by field."""
    api_error: FreightError | None = None
    """An error every screen handles alike (the status: what the host says of it, if any)."""
    search: BookingRecord | None = None
    """No usable answer: search for this booking at once."""


def earlier_booking(
    session: Session, quote_id: str, rate_id: str, warn: Callable[[str], None]
) -> BookingRecord | None:
    """A booking of this quote and rate that was sent before and not refused, if any
    (``warn``: the ledger could not be read)."""
    from tui.booking.engine import earlier_booking

    try:
        ledger = session.ledger()
        return earlier_booking(ledger, session.profile_name, quote_id, rate_id)
    except OSError as error:
        warn(
            f"The booking ledger could not be read ({error.strerror or error}): "
            "earlier bookings of this rate are not checked."
        )
        return None


def shown(outcome: BookingOutcome, profile_name: str, quote_id: str, rate_id: str) -> Shown:
    """What to show of the booking sent (``profile_name`` and the ids: the record to search
    for when the ledger has none)."""
    note = None
    if outcome.ledger_problem:
        note = (
            f"{outcome.ledger_problem[0].upper()}{outcome.ledger_problem[1:]}: it may "
            "not remember this booking."
        )
    if outcome.status == "booked":
        if outcome.booking is not None:
            return Shown(ledger_note=note, booked=True, booking=outcome.booking)
        if outcome.shipment_id:  # proven by a search, or booked before (nothing sent)
            return Shown(
                f"Already booked as shipment {outcome.shipment_id}.",
                ledger_note=note,
                booked=True,
                shipment=outcome.shipment_id,
                found=outcome.found,
            )
        return Shown(ledger_note=note, booked=True)
    if outcome.status == "refused":
        return _refused(outcome, note)
    if outcome.status == "failed":
        from tui.api.errors import FreightError

        error = outcome.error
        if isinstance(error, FreightError):
            return Shown(outcome.reason, ledger_note=note, api_error=error)
        return Shown(f"Not booked: {outcome.reason}.", ledger_note=note)
    return _unknown(outcome, note, profile_name, quote_id, rate_id)


def _refused(outcome: RefusedOutcome, note: str | None) -> Shown:

    shipment = outcome.already_booked
    if shipment:
        return Shown(f"Already booked as shipment {shipment}.", ledger_note=note, shipment=shipment)
    if shipment is None and outcome.fields:
        return Shown(outcome.message, ledger_note=note, fields=dict(outcome.fields))
    if shipment is None and isinstance(outcome.error, QuoteExpiredError):
        return Shown(
            f"{outcome.message} Press esc twice to get back to the quote.", ledger_note=note
        )
    return Shown(outcome.message, ledger_note=note)


def _unknown(
    outcome: UnknownOutcome, note: str | None, profile_name: str, quote_id: str, rate_id: str
) -> Shown:
    """No usable answer: say so, and search for the booking at once."""

    reference = outcome.reference
    record = outcome.record
    if record is None:  # (not on a fresh reference: its "sent" line was written)
        record = BookingRecord(
            reference, profile_name, quote_id, rate_id, datetime.now(UTC), "unknown"
        )
    return Shown(
        f"No usable answer to the booking; it was NOT sent again. Searching shipments for "
        f"its reference {reference} before anything else.",
        ledger_note=note,
        search=record,
    )


MARK_WAIT = 10.0
"""Seconds reading whether the quote was booked waits at most for its draft's writes."""


def quote_booked(session: Session, draft: str, origin: str, dest: str) -> str | None:
    """What to say when the quote's ``draft`` from ``origin`` to ``dest`` is marked booked
    already (booked in this run, then rated again unchanged), as a restored one says it;
    None when it is not. Blocking: call it from a worker. Raises OSError."""
    draft_writer(draft).wait(MARK_WAIT)  # a mark (or the form's write) on its way first
    data = session.drafts.load(draft) or {}
    reference = data.get(BOOKED)
    if not isinstance(reference, str) or not reference:
        return None
    ends = (data.get("origin_zip"), data.get("dest_zip"))
    if not all(isinstance(code, str) for code in ends):
        return None
    if not (same_postal_code(str(ends[0]), origin) and same_postal_code(str(ends[1]), dest)):
        return None
    return booked_text(reference, session.ledger().latest(reference))
