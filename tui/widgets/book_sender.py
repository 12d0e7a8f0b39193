"""Sends one booking at a time and says how it went; nothing sends while one is in flight."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message
from textual.widget import Widget

from tui.host import Host, host_of
from tui.service_call import WorkerErrorsToHost

if TYPE_CHECKING:
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

        def __init__(self, error: Exception) -> None:
            super().__init__()
            self.error = error

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sending = False

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    def send(self, request: BookingRequest | ParcelBookingRequest, *, parcel: bool) -> bool:
        """Start sending; False (and nothing sent) when a booking is already in flight."""
        if self.sending or self.host.booking_in_flight:
            return False
        self.sending = True
        self.host.booking_in_flight = True
        self.host.set_activity("booking", "booking…")
        self._book(request, parcel)
        return True

    @work(exclusive=True, group="booking", exit_on_error=False)
    async def _book(self, request: Any, parcel: bool) -> None:
        try:
            client = await self.host.session.client()
            if parcel:
                booking: Booking | ParcelBooking = await client.book_parcel(request)
            else:
                booking = await client.book(request)
        except Exception as error:
            self._finish()
            self.post_message(self.Failed(error))
            return
        except BaseException:
            self._finish()
            raise
        self._finish()
        self.post_message(self.Booked(booking))

    def _finish(self) -> None:
        self.sending = False
        self.host.booking_in_flight = False
        self.host.set_activity("booking", None)
