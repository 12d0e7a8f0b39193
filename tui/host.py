"""The app as screens and widgets see it: session, activity, errors and navigation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from textual.dom import DOMNode
    from textual.worker import Worker

    from tui.api.models import (
        Booking,
        BookingRequest,
        ParcelBooking,
        ParcelBookingRequest,
        Quote,
        Rate,
        RateRequest,
        Shipment,
    )
    from tui.session import Session

    AnyBooking = Booking | ParcelBooking
    """A confirmed booking of either mode (freight or parcel)."""
    AnyBookingRequest = BookingRequest | ParcelBookingRequest
    """A booking request of either mode, as sent."""

LastRates = tuple["RateRequest", "str | None", "Quote"]
"""The last rates shown: request, mode filter and quote (for F3 after leaving them)."""


class Host(Protocol):
    """What a screen or widget may ask of the app; nothing else of it is theirs to touch.

    It is also the one navigator: a screen moves the user on by asking the host (`show_rates`,
    `start_booking`, `show_booked`, `open_shipment`…), never by importing and pushing the next
    screen itself. Dialogs that answer their own screen (pickers, confirmations) stay the
    screen's own.
    """

    @property
    def session(self) -> Session:
        """Who the app talks to: profile, environment, client."""

    @property
    def activity_text(self) -> str:
        """What is in flight, as the header shows it."""

    booking_in_flight: bool
    """True while a booking request is sent (quitting asks, a second one waits)."""
    last_rates: LastRates | None
    """The last rates shown, for F3."""

    def set_activity(self, key: str, text: str | None) -> None:
        """Show what is in flight in the header; None clears that entry."""

    def handle_api_error(self, error: BaseException) -> str:
        """Act on errors every screen shares (sign in again…); return a one-line message."""

    def show_quote(self, *, new: bool = False) -> None:
        """Go to the quote form; `new` starts it empty (the default origin stays)."""

    def show_rates(
        self, request: RateRequest | None = None, mode_filter: str | None = None
    ) -> None:
        """Go to the rates of `request` (asked for anew, `mode_filter` showing one mode), or
        with no request, back to the rates last shown."""

    def start_booking(self, quote: Quote, rate: Rate, request: RateRequest) -> None:
        """Open the booking form for one rate of a quote (`request`: what was rated)."""

    def show_booked(
        self, booking: AnyBooking, rate: Rate, request: AnyBookingRequest | None = None
    ) -> None:
        """Show a confirmed booking's result in place of its booking form (`request`: what
        was sent, to tell a pickup day the service moved)."""

    def show_shipments(self, search: str | None = None) -> None:
        """Go to the shipments list, optionally searching."""

    def show_batch(self, path: str | None = None) -> None:
        """Go to the batch of orders; with `path`, open that order file there."""

    def show_day(self) -> None:
        """Go to the Day screen: the pickup day per carrier."""

    def show_reports(self) -> None:
        """Go to the reports: spend and carriers from the bookings in the store."""

    def open_shipment(self, shipment_id: str, listing: Shipment | None = None) -> None:
        """Show one shipment's detail."""

    def show_sign_in(self, message: str | None = None) -> None:
        """Ask for credentials on top of the current screen."""

    def hold_input(self) -> Callable[[], None]:
        """Keep keys and pastes waiting until the returned function is called (a screen
        mounting the rest of itself after its first frame); then they go on, in order."""

    def file_saved(self, path: Path, *more: Path, mime_type: str | None = None) -> str:
        """Files one user action wrote (a document, several, an export, batch results): in
        a browser (``freight serve``) they also go to it as one download (several: one
        zip). Returns the sentence saying what the browser was given ("" in a terminal)."""

    @property
    def delivers_files(self) -> bool:
        """True in a browser (``freight serve``), where saved files also go to the browser."""

    def worker_failed(self, worker: Worker[Any]) -> None:
        """The safety net: a worker died of an error nothing caught; say so, log it."""


def host_of(node: DOMNode) -> Host:
    """The host of a mounted screen or widget (the running app)."""
    return cast(Host, node.app)


class Hosted:
    """Mixin for screens and widgets: ``self.host``, the app as far as they may use it."""

    @property
    def host(self) -> Host:
        """The app, as far as this screen or widget may use it."""
        return host_of(cast("DOMNode", self))
