"""Sends one booking at a time under a fresh reference, noting each in the booking ledger."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from textual.message import Message
from textual.widget import Widget

from tui.host import Host, host_of
from tui.ledger import BookingLedger, BookingRecord, new_reference
from tui.service_call import ServiceCall, WorkerErrorsToHost

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Booking, BookingRequest, ParcelBooking, ParcelBookingRequest

log = logging.getLogger(__name__)


class BookSender(WorkerErrorsToHost, Widget):
    """An invisible helper of the booking screen: posts `Booked` or `Failed` for each send.

    Every booking goes out with a reference Freight makes up (in `reference` and
    `originReferenceNumber`, where the form left them empty) and is written to the ledger
    before it is sent and again when its outcome is known.
    """

    DEFAULT_CSS = """
    BookSender {
        display: none;
    }
    """

    class Booked(Message):
        """The service confirmed the booking."""

        def __init__(self, booking: Booking | ParcelBooking, record: BookingRecord | None) -> None:
            super().__init__()
            self.booking = booking
            self.record = record
            """The ledger's record of it (None when the ledger could not be written)."""

    class Failed(Message):
        """The booking failed, or its outcome is unknown (it is never resent here)."""

        def __init__(
            self, error: Exception, message: str, record: BookingRecord | None, reference: str
        ) -> None:
            super().__init__()
            self.error = error
            self.message = message
            """The one-line message, after the app acted on it (sign in again…)."""
            self.record = record
            """The ledger's record of it (None when the ledger could not be written)."""
            self.reference = reference
            """The reference the booking was sent with: search for it to find the shipment."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._record: BookingRecord | None = None
        self._reference = ""
        self._booking: ServiceCall[Booking | ParcelBooking] = ServiceCall(
            self,
            "booking",
            activity="booking…",
            on_answer=self._booked,
            on_error=self._failed,
            on_stopped=self._finish,
        )

    @property
    def sending(self) -> bool:
        """True from a send until its answer, error or stop."""
        return self._booking.in_flight

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    @property
    def ledger(self) -> BookingLedger:
        """The booking ledger of the session's data dir."""
        return BookingLedger.in_dir(self.host.session.data_dir)

    def send(self, request: BookingRequest | ParcelBookingRequest, *, parcel: bool) -> bool:
        """Start sending; False (and nothing sent) when a booking is already in flight."""
        if self.sending or self.host.booking_in_flight:
            return False
        self.host.booking_in_flight = True
        request, reference = with_reference(request, new_reference())
        self._reference = reference
        self._record = self._write(
            lambda: self.ledger.sent(
                self.host.session.profile_name, request.quote_id, request.rate_id, reference
            )
        )

        async def book(client: FreightClient) -> Booking | ParcelBooking:
            if parcel:
                return await client.book_parcel(cast("ParcelBookingRequest", request))
            return await client.book(cast("BookingRequest", request))

        self._booking.start(book)
        return True

    def _write(self, write: Callable[[], BookingRecord]) -> BookingRecord | None:
        """Write to the ledger; a failure is said and logged, and never stops a booking."""
        try:
            return write()
        except OSError as error:
            log.warning("booking ledger not written: %s", error)
            self.notify(
                f"The booking ledger could not be written ({error.strerror or error}).",
                title="Booking ledger",
                severity="warning",
            )
            return None

    def _booked(self, booking: Booking | ParcelBooking) -> None:
        record = sent = self._record
        if sent is not None:
            ids = booking.identifiers
            record = self._write(
                lambda: self.ledger.settle(
                    sent,
                    "booked",
                    shipment_id=ids.get("shipment_id"),
                    pro_number=ids.get("pro_number") or ids.get("tracking_number"),
                    bol_number=ids.get("bol_number"),
                    pickup_date=booking.pickup_date,
                    pickup_note=booking.pickup_date_message,
                )
            )
        self._finish()
        self.post_message(self.Booked(booking, record))

    def _failed(self, error: Exception, message: str) -> None:
        from tui.api.errors import BookingOutcomeUnknownError, ConflictError

        record = sent = self._record
        if sent is not None:
            if isinstance(error, BookingOutcomeUnknownError):
                record = self._write(lambda: self.ledger.settle(sent, "unknown", note=str(error)))
            elif isinstance(error, ConflictError):
                # Refused as a duplicate: this quote and rate are booked (by an earlier send).
                note = f"already booked: {error}"
                sid = error.shipment_id
                record = self._write(
                    lambda: self.ledger.settle(sent, "booked", shipment_id=sid, note=note)
                )
            else:
                record = self._write(
                    lambda: self.ledger.settle(sent, "failed", note=message or str(error))
                )
        self._finish()
        self.post_message(self.Failed(error, message, record, self._reference))

    def _finish(self) -> None:
        self.host.booking_in_flight = False


def with_reference(
    request: BookingRequest | ParcelBookingRequest, reference: str
) -> tuple[BookingRequest | ParcelBookingRequest, str]:
    """The request carrying the reference in `reference` and `originReferenceNumber` where the
    form left them empty; and the reference to search by (the user's own when both are taken)."""
    update: dict[str, str] = {}
    if not request.reference:
        update["reference"] = reference
    if not request.origin_reference_number:
        update["origin_reference_number"] = reference
    if not update:
        return request, request.reference or reference
    return request.model_copy(update=update), reference
