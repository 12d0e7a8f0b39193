"""Sends one booking at a time and says how it went; nothing sends while one is in flight."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.message import Message
from textual.widget import Widget

from tui.host import Host, host_of
from tui.service_call import ServiceCall, WorkerErrorsToHost

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Booking, BookingRequest, ParcelBooking, ParcelBookingRequest


class BookSender(WorkerErrorsToHost, Widget):
    """An invisible helper of the booking screen: posts `Booked` or `Failed` for each send."""

    DEFAULT_CSS = """
    BookSender {
        display: none;
    }
    """

    class Booked(Message):
        """The service confirmed the booking."""

        def __init__(self, booking: Booking | ParcelBooking) -> None:
            super().__init__()
            self.booking = booking

    class Failed(Message):
        """The booking failed, or its outcome is unknown (it is never resent here)."""

        def __init__(self, error: Exception, message: str) -> None:
            super().__init__()
            self.error = error
            self.message = message
            """The one-line message, after the app acted on it (sign in again…)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
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

    def send(self, request: BookingRequest | ParcelBookingRequest, *, parcel: bool) -> bool:
        """Start sending; False (and nothing sent) when a booking is already in flight."""
        if self.sending or self.host.booking_in_flight:
            return False
        self.host.booking_in_flight = True

        async def book(client: FreightClient) -> Booking | ParcelBooking:
            if parcel:
                return await client.book_parcel(cast("ParcelBookingRequest", request))
            return await client.book(cast("BookingRequest", request))

        self._booking.start(book)
        return True

    def _booked(self, booking: Booking | ParcelBooking) -> None:
        self._finish()
        self.post_message(self.Booked(booking))

    def _failed(self, error: Exception, message: str) -> None:
        self._finish()
        self.post_message(self.Failed(error, message))

    def _finish(self) -> None:
        self.host.booking_in_flight = False
