"""What the Book screen does with the booking engine's outcome: the result on a booking,
the server's reasons on a refusal, a search for the booking when no usable answer came; and
the check for an earlier booking of the same rate before sending."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol, cast

from tui.api.errors import QuoteExpiredError
from tui.ledger import BookingRecord
from tui.screens.book_check import BookingCheckScreen
from tui.screens.book_draft import BookingForm

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    from tui.api.models import Booking, ParcelBooking
    from tui.booking import BookingOutcome, RefusedOutcome, UnknownOutcome
    from tui.screens.book_check import CheckResult


class BookingScreen(BookingForm, Protocol):
    """What the outcome needs of the booking screen beyond the draft's needs."""

    booked: Booking | ParcelBooking | None
    """A booking made while another screen was on top: shown when the form is back."""

    @property
    def app(self) -> App[object]: ...

    def book(self, *, checked: bool) -> None: ...

    def finish(self) -> None: ...

    def claimed(self, reference: str) -> None: ...

    def show_result(self) -> None: ...

    def show_field_errors(self, fields: dict[str, str], fallback: str) -> None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


def earlier_booking(form: BookingScreen) -> BookingRecord | None:
    """A booking of this quote and rate that was sent before and not refused, if any."""
    from tui.booking.engine import earlier_booking

    session = form.host.session
    try:
        ledger = session.ledger()
        return earlier_booking(ledger, session.profile_name, form.quote.id, form.rate.id)
    except OSError as error:
        form.notify(
            f"The booking ledger could not be read ({error.strerror or error}): "
            "earlier bookings of this rate are not checked.",
            title="Booking ledger",
            severity="warning",
        )
        return None


def show_outcome(form: BookingScreen, outcome: BookingOutcome) -> None:
    """Show what became of the booking sent, once the form is enabled again."""
    form.finish()
    if outcome.ledger_problem:
        form.notify(
            f"{outcome.ledger_problem[0].upper()}{outcome.ledger_problem[1:]}: it may "
            "not remember this booking.",
            title="Booking ledger",
            severity="warning",
        )
    if outcome.status == "booked":
        form.draft.clear()
        if outcome.booking is None:  # proven by a search, or booked before (nothing sent)
            if outcome.shipment_id:
                form.set_status(f"Already booked as shipment {outcome.shipment_id}.", True)
                form.host.open_shipment(outcome.shipment_id, outcome.found)
            return
        form.booked = outcome.booking
        if form.app.screen is cast("object", form):
            form.show_result()
        else:
            form.notify("Booked. Go back to the booking to see the result.", title="Booked")
    elif outcome.status == "refused":
        _refused(form, outcome)
    elif outcome.status == "failed":
        error = outcome.error
        from tui.api.errors import FreightError

        if isinstance(error, FreightError):
            form.set_status(form.host.handle_api_error(error) or outcome.reason, True)
        else:
            form.set_status(f"Not booked: {outcome.reason}.", True)
    else:
        _unknown(form, outcome)


def _refused(form: BookingScreen, outcome: RefusedOutcome) -> None:

    shipment = outcome.already_booked
    if shipment is not None:
        if shipment:
            form.set_status(f"Already booked as shipment {shipment}.", True)
            form.host.open_shipment(shipment)
        else:
            form.set_status(outcome.message, True)
    elif outcome.fields:
        form.show_field_errors(dict(outcome.fields), outcome.message)
    elif isinstance(outcome.error, QuoteExpiredError):
        form.set_status(f"{outcome.message} Press esc twice to get back to the quote.", True)
    else:
        form.set_status(outcome.message, True)


def _unknown(form: BookingScreen, outcome: UnknownOutcome) -> None:
    """No usable answer: say so, and search for the booking at once."""

    reference = outcome.reference
    form.set_status(
        f"No usable answer to the booking; it was NOT sent again. Searching shipments for "
        f"its reference {reference} before anything else.",
        True,
    )
    record = outcome.record
    if record is None:  # (not on a fresh reference: its "sent" line was written)
        record = BookingRecord(
            reference,
            form.host.session.profile_name,
            form.quote.id,
            form.rate.id,
            datetime.now(UTC),
            "unknown",
        )

    def checked(chosen: CheckResult | None) -> None:
        if chosen == "again":
            form.book(checked=True)
        elif chosen == "mine":
            form.claimed(reference)
        else:
            form.set_status(
                f"Not sent again. Reference {reference}: search Shipments for it before "
                "booking this rate again.",
                True,
            )

    form.app.push_screen(BookingCheckScreen(record, just_sent=True), checked)
