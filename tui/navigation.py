"""Where the user goes: the navigating half of the `Host` seam (screens ask, the app moves).

`Navigation` is a mixin of `FreightApp`: each method switches to the mode that holds the
screen asked for and pushes, pops or fills that screen. Screens never import each other; they
ask the host (`tui.host.Host`), and these methods decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

from tui import screens
from tui.screens.quote import QuoteScreen

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.screen import Screen

    from tui.api.models import Quote, Rate, RateRequest, Shipment
    from tui.host import AnyBooking, AnyBookingRequest, LastRates
    from tui.session import Session


class Navigation(App[None]):
    """Modes and screens: quote, rates, booking, result, shipments, batch, reports, sign-in,
    help."""

    session: Session
    last_rates: LastRates | None

    def show_sign_in(self, message: str | None = None) -> None:
        """Ask for credentials on top of the current screen (its input stays as it was)."""
        if not isinstance(self.screen, screens.SignInScreen):
            self.push_screen(screens.SignInScreen(message=message))

    def action_help(self) -> None:
        if isinstance(self.screen, screens.HelpScreen):
            self.screen.dismiss()  # the help key again closes it
        else:
            self.push_screen(screens.HelpScreen.for_focus(self.screen))

    def action_go(self, mode: str) -> None:
        """The keys F2-F4, F12 and alt+1-6: go to ``mode``'s screen (quote, rates, shipments,
        batch, day, reports). A dialog is answered (or closed) first."""
        if not self.screen.is_modal:
            go: dict[str, Callable[[], object]] = {
                "quote": self.show_quote,
                "rates": self.show_rates,
                "shipments": self.show_shipments,
                "batch": self.show_batch,
                "day": self.show_day,
                "reports": self.show_reports,
            }
            go[mode]()

    def show_quote(self, *, new: bool = False) -> None:
        """Go to the quote form (the first screen of the quote mode); `new` empties it."""
        base = self._first_screen_of("quote")
        if new and isinstance(base, QuoteScreen):
            base.clear_form()

    def show_rates(
        self, request: RateRequest | None = None, mode_filter: str | None = None
    ) -> None:
        """Go to the rates of `request` (asked for anew), or with none, back to the rates last
        shown, if there are any."""
        if self.current_mode != "quote":
            self.switch_mode("quote")
        if request is not None:
            self.push_screen(screens.RatesScreen(request, mode_filter=mode_filter))
            return
        if any(isinstance(screen, screens.RatesScreen) for screen in self.screen_stack):
            while not isinstance(self.screen, screens.RatesScreen):
                self.pop_screen()
        elif self.last_rates is not None:
            request, mode_filter, quote = self.last_rates
            self.push_screen(screens.RatesScreen(request, mode_filter, quote=quote))
        else:
            self.notify("No rates yet: fill in the quote and press ctrl+r.", timeout=4)

    def start_booking(self, quote: Quote, rate: Rate, request: RateRequest) -> None:
        """Open the booking form for one rate of a quote, over the rates."""
        self.push_screen(screens.BookScreen(quote, rate, request))

    def show_booked(
        self, booking: AnyBooking, rate: Rate, request: AnyBookingRequest | None = None
    ) -> None:
        """The booking's result takes the place of its form (Esc then goes to the rates)."""
        self.switch_screen(screens.ResultScreen(booking, rate, self.session.environment, request))

    def show_shipments(self, search: str | None = None) -> None:
        """Go to the shipments list, optionally searching for `search`."""
        base = self._first_screen_of("shipments")
        if search is not None and isinstance(base, screens.ShipmentsScreen):
            self.call_after_refresh(base.apply_search, search)

    def show_batch(self, path: str | None = None) -> None:
        """Go to the batch of orders; with `path`, open that order file there."""
        base = self._first_screen_of("batch")
        if path is not None and isinstance(base, screens.BatchScreen):
            self.call_after_refresh(base.open_path, path)

    def show_day(self) -> None:
        """Go to the Day screen (the pickup day per carrier)."""
        self._first_screen_of("day")

    def _first_screen_of(self, mode: str) -> Screen[Any]:
        """Switch to `mode` (if not there already) and close what is over its first screen;
        that screen."""
        if self.current_mode != mode:
            self.switch_mode(mode)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        return self.screen_stack[0]

    def show_reports(self) -> None:
        """Go to the reports (spend and carriers from the bookings in the store), read anew
        when coming back to them: bookings may have been made meanwhile."""
        if self.current_mode != "reports":
            self.switch_mode("reports")
            base = self.screen_stack[0]
            if isinstance(base, screens.ReportsScreen):
                base.read_again()
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def open_scanned(self, code: str) -> None:
        """A scanned PRO, tracking number, BOL or id: look it up from the shipments list."""
        self.show_shipments()
        base = self.screen_stack[0]
        if isinstance(base, screens.ShipmentsScreen):
            base.lookup_scanned(code)

    def open_shipment(self, shipment_id: str, listing: Shipment | None = None) -> None:
        """Show one shipment's detail in the shipments mode (over the Day, from there)."""
        if self.current_mode not in ("shipments", "day"):
            self.switch_mode("shipments")
        self.push_screen(screens.ShipmentDetailScreen(shipment_id, listing=listing))
