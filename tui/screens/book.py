"""Book: who ships and who receives, when, then one confirmed booking of the chosen rate."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Checkbox, Input

from tui.domain.modes import same_mode
from tui.domain.money import format_price
from tui.domain.pickup_dates import region_of
from tui.domain.safe_text import plain, plain_lines
from tui.forms import booking as book_form
from tui.forms.book_times import MIN_PICKUP_WINDOW
from tui.host import Host, host_of
from tui.screens import book_addresses
from tui.screens.book_draft import BookDraft
from tui.screens.book_outcome import earlier_booking, show_outcome
from tui.screens.modal import FreightScreen
from tui.service_call import ServiceCall, WorkerErrorsToHost
from tui.widgets.contact_form import ContactForm
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.pickup_form import PickupForm
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.api.models import (
        Booking,
        BookingRequest,
        ParcelBooking,
        ParcelBookingRequest,
        Quote,
        Rate,
        RateRequest,
    )
    from tui.booking import BookingOutcome
    from tui.screens.book_check import CheckResult


def today() -> date:
    """The local date the pickup day is checked against (tests replace it)."""
    return date.today()


class BookScreen(WorkerErrorsToHost, FreightScreen[None]):
    """The booking form for one rate; ctrl+s (or F10) confirms and sends it once."""

    TITLE = "Book"

    HELP = ContactForm.HELP

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f10", "book", "Book", id="book.book", tooltip="Check, confirm and book"),
        Binding(
            "ctrl+o,f5",
            "address_book",
            "Address book",
            id="book.address_book",
            tooltip="Fill this end from the address book",
        ),
        Binding(
            "ctrl+t,f6",
            "save_address",
            "Save address",
            id="book.save_address",
            tooltip="Save this end to the address book",
        ),
        Binding("escape", "back", "Back", id="book.back", tooltip="Back to the rates"),
        Binding(
            "pagedown",
            "section(1)",
            "Next section",
            show=False,
            priority=True,
            id="book.next_section",
            tooltip="Jump to the next part of the form",
        ),
        Binding(
            "pageup",
            "section(-1)",
            "Previous section",
            show=False,
            priority=True,
            id="book.previous_section",
            tooltip="Jump to the previous part of the form",
        ),
    ]

    DEFAULT_CSS = """
    BookScreen #book-title {
        padding: 0 1;
        text-style: bold;
        height: 1;
    }
    BookScreen #book-body {
        height: 1fr;
        padding: 0 1;
    }
    BookScreen #book-ends {
        height: auto;
    }
    BookScreen #book-status {
        height: auto;
        padding: 0 1;
    }
    BookScreen #book-status.-problem {
        color: $error;
        text-style: bold;
    }
    """

    def __init__(self, quote: Quote, rate: Rate, request: RateRequest) -> None:
        super().__init__()
        self.quote = quote
        self.rate = rate
        self.request = request
        self.parcel = same_mode(rate.mode, "parcel")
        self.draft = BookDraft(self)
        self._side = "origin"
        self.booked: Booking | ParcelBooking | None = None
        self._sent_request: BookingRequest | ParcelBookingRequest | None = None
        self._sending: ServiceCall[BookingOutcome] = ServiceCall(
            self,
            "booking",
            activity="booking…",
            on_answer=partial(show_outcome, self),
            on_error=self._send_failed,
            on_stopped=self.finish,
        )

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    @property
    def sending(self) -> bool:
        """Whether this form's booking is in flight."""
        return self._sending.in_flight

    def compose(self) -> ComposeResult:
        yield FreightHeader("Book")
        yield Static(self._title(), id="book-title")
        with VerticalScroll(id="book-body"):
            with Horizontal(id="book-ends"):
                yield ContactForm(
                    "origin",
                    f"Origin · {self.request.origin_postal_code}",
                    email=self.parcel,
                    dock_hours=not self.parcel,
                    hours_label="Ready",
                    hours_names=("ready", "close"),
                    min_window=MIN_PICKUP_WINDOW,
                    id="book-origin",
                )
                yield ContactForm(
                    "dest",
                    f"Destination · {self.request.dest_postal_code}",
                    email=self.parcel,
                    dock_hours=not self.parcel,
                    hours_label="Receive",
                    id="book-dest",
                )
            yield PickupForm(
                today,
                quoted=self.request.pickup_date,
                schedule=not self.parcel,
                region=region_of(self.request.origin_postal_code),
                id="book-pickup-form",
            )
        yield Static("", id="book-status", markup=False)  # quotes the server's errors
        yield FreightFooter()

    def _title(self) -> Text:
        rate = self.rate
        days = "" if rate.days is None else f" · {rate.days} day{'s' if rate.days != 1 else ''}"
        return Text.assemble(
            plain(f"Book {rate.carrier_code or rate.carrier} {rate.service_type or ''}".rstrip()),
            f" · {format_price(rate.total, rate.currency)}{days} · ",
            (self.host.session.environment, "bold reverse"),
        )

    @property
    def origin(self) -> ContactForm:
        return self.query_one("#book-origin", ContactForm)

    @property
    def dest(self) -> ContactForm:
        return self.query_one("#book-dest", ContactForm)

    @property
    def pickup(self) -> PickupForm:
        return self.query_one("#book-pickup-form", PickupForm)

    def schedule_pickup(self) -> bool:
        """Whether a pickup is to be scheduled (never for parcel)."""
        if self.parcel:
            return False
        return self.query_one("#book-pickup", Checkbox).value

    # -- draft and focus ----------------------------------------------------------------

    def on_mount(self) -> None:
        known = self.host.session.addresses
        if known is not None:  # the book as last read: the form is filled at once
            self.draft.fill(known, self._pickup_changed_hours)
        self.origin.input("company").focus()
        self.run_worker(
            self.draft.read_book(None if known is not None else self._pickup_changed_hours),
            group="book-addresses",
        )

    def on_unmount(self) -> None:
        self.draft.save()

    @on(ContactForm.Changed)
    @on(PickupForm.Changed)
    def _form_changed(self) -> None:
        self.draft.schedule()

    @on(Checkbox.Changed, "#book-pickup")
    def _pickup_changed(self) -> None:
        self._pickup_changed_hours()
        self.draft.schedule()

    def _pickup_changed_hours(self) -> None:
        if not self.parcel:
            self.origin.hours_required = self.schedule_pickup()

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()

    def on_descendant_focus(self) -> None:
        focused = self.focused
        if focused is not None:
            for form in (self.origin, self.dest):
                if focused in form.walk_children():
                    self._side = form.side

    def action_section(self, step: int) -> None:
        """Focus the first field of the next (step 1) or previous (-1) part of the form."""
        sections: list[Widget] = [self.origin, self.dest, self.pickup]
        focused = self.focused
        current = next(
            (
                i
                for i, part in enumerate(sections)
                if focused is not None and focused in part.walk_children()
            ),
            -1 if step > 0 else len(sections),
        )
        target = sections[(current + step) % len(sections)]
        first = next((w for w in target.query(Input) if w.focusable), None)
        if first is not None:
            first.focus()
            self.query_one("#book-body", VerticalScroll).scroll_to_widget(target, animate=False)

    # -- address book -------------------------------------------------------------------

    def _current_form(self) -> ContactForm:
        return self.origin if self._side == "origin" else self.dest

    def action_address_book(self) -> None:
        """Fill the focused end of the form from a saved address (the book read in a worker)."""
        form = self._current_form()

        async def pick() -> None:
            try:
                entries = await asyncio.to_thread(self.host.session.address_book)
            except OSError as error:
                self.set_status(f"The address book cannot be read: {plain(str(error))}", True)
                return
            self.app.push_screen(*book_addresses.address_picker(self, form, entries))

        self.run_worker(pick(), group="book-addresses", exclusive=True)

    def action_save_address(self) -> None:
        """Save the focused end of the form to the address book (same company and ZIP: replaced)."""
        form = self._current_form()
        self.run_worker(book_addresses.save_to_book(self, form), group="book-save-address")

    # -- booking ------------------------------------------------------------------------

    def set_status(self, text: str, problem: bool = False) -> None:
        """The line under the form (problem: in red); text, never markup (a reason may be
        the server's words)."""

        status = self.query_one("#book-status", Static)
        status.set_class(problem, "-problem")
        status.update(Text(plain_lines(text)))

    def check_action(self, action: str, parameters: tuple[Any, ...]) -> bool | None:
        return not (action in ("book", "back") and self.sending)

    def action_back(self) -> None:
        """Back to the rates (the form stays in the draft)."""
        if not self.sending:
            self.draft.save()
            self.dismiss()

    def action_book(self) -> None:
        """Check every field, then ask for confirmation before sending."""
        self.book(checked=False)

    def book(self, *, checked: bool) -> None:
        """Check the fields; unless `checked`, look for an earlier booking first; confirm."""
        if self.sending or self.host.booking_in_flight:
            self.set_status("A booking is already being sent.", True)
            return
        from tui.api.errors import RequestValidationError

        origin_errors = self.origin.errors(for_booking=True)
        dest_errors = self.dest.errors(for_booking=True)
        pickup_errors = self.pickup.errors()
        self.origin.show_errors(origin_errors)
        self.dest.show_errors(dest_errors)
        self.pickup.show_errors(pickup_errors)
        count = len(origin_errors) + len(dest_errors) + len(pickup_errors)
        if count:
            self.set_status(f"Fix {count} marked field{'s' if count != 1 else ''} first.", True)
            first = (
                self.origin.first_invalid(origin_errors)
                or self.dest.first_invalid(dest_errors)
                or self.pickup.first_invalid(pickup_errors)
            )
            if first is not None:
                first.focus()
            return
        from tui.forms.book_summary import hazmat_problems

        refused = hazmat_problems(self.request)
        if refused:
            self.set_status("Not booked: " + "; ".join(refused) + " (quote it again)", True)
            return
        try:
            request = self._request()
        except RequestValidationError as error:
            self.show_field_errors(error.fields, str(error))
            return
        earlier = None if checked else earlier_booking(self)
        if earlier is None:
            self._confirm(request)
            return
        from tui.screens.book_check import BookingCheckScreen

        def after_check(chosen: CheckResult | None) -> None:
            if chosen == "again":
                self._confirm(request)
            elif chosen == "mine":
                self.claimed(earlier.reference)
            else:
                self.set_status(f"Not sent again (reference {earlier.reference}).")

        self.app.push_screen(BookingCheckScreen(earlier, just_sent=False), after_check)

    def _confirm(self, request: Any) -> None:
        from tui.forms.book_summary import confirm_rows
        from tui.screens.book_confirm import BookConfirmScreen

        pickup = None if self.parcel else self.schedule_pickup()
        rows = confirm_rows(self.request, request, pickup)

        def decided(confirmed: bool | None) -> None:
            if confirmed:
                self._send(request)
            else:
                self.set_status("Not booked.")

        self.app.push_screen(
            BookConfirmScreen(self.rate, self.host.session.environment, rows), decided
        )

    def _request(self) -> Any:
        origin, dest = self.origin.values(), self.dest.values()
        day = self.pickup.pickup_date()
        reference = self.pickup.values()["reference"]
        if self.parcel:
            return book_form.parcel_request(self.quote, self.rate, origin, dest, day, reference)
        return book_form.booking_request(
            self.quote, self.rate, origin, dest, self.schedule_pickup(), day, reference
        )

    def show_field_errors(self, fields: dict[str, str], fallback: str) -> None:
        found, other = book_form.field_errors(fields)
        self.origin.show_errors(found["origin"])
        self.dest.show_errors(found["dest"])
        self.pickup.show_errors(found["pickup"])
        self.set_status("; ".join(other) if other else fallback, True)

    def _send(self, request: BookingRequest | ParcelBookingRequest) -> None:
        """Book through the booking engine: ledger line first, then one request."""
        if self.sending or self.host.booking_in_flight:
            self.set_status("A booking is already being sent.", True)
            return
        self.host.booking_in_flight = True
        self._sent_request = request
        lane = book_form.booking_lane(self.request, self.rate, request)
        priced = book_form.booking_priced(self.quote, self.rate, self.request)
        session = self.host.session

        async def book(client: FreightClient) -> BookingOutcome:
            engine = session.booking_engine(client)
            return await engine.book(request, lane=lane, search_unknown=False, priced=priced)

        self._sending.start(book)
        self.query_one("#book-body").disabled = True
        self.refresh_bindings()
        self.set_status(f"Booking with {self.rate.carrier}… do not close Freight.")

    def finish(self) -> None:
        """The booking is answered or stopped: the form may be used again."""
        self.host.booking_in_flight = False
        if self.is_mounted:
            self.query_one("#book-body").disabled = False
            self.refresh_bindings()

    def _send_failed(self, error: Exception, message: str) -> None:
        """The engine never raises for the service: this is e.g. no credentials to send with."""
        self.finish()
        self.set_status(message or str(error), True)

    def on_screen_resume(self) -> None:
        if self.booked is not None:
            self.show_result()

    def show_result(self) -> None:
        booking, self.booked = self.booked, None
        if booking is not None:
            self.host.show_booked(booking, self.rate, self._sent_request)

    def claimed(self, reference: str) -> None:
        """The user said a shipment a search found is this booking."""
        self.draft.clear()
        self.set_status(f"Recorded as booked (you confirmed it): reference {reference}.")

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Commands that make sense on the booking form now."""
        if not self.sending:
            yield SystemCommand(
                "Book this rate", "Check, confirm and send (ctrl+s)", self.action_book
            )
        yield SystemCommand(
            "Fill from address book", "The focused end (ctrl+o)", self.action_address_book
        )
        yield SystemCommand(
            "Save address to address book", "The focused end (ctrl+t)", self.action_save_address
        )
