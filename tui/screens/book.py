"""Book: who ships and who receives, when, then one confirmed booking of the chosen rate."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType

from tui.api.errors import RequestValidationError
from tui.domain.modes import same_mode
from tui.domain.money import format_price
from tui.domain.safe_text import plain, plain_lines
from tui.drafts import draft_writer
from tui.forms import booking as book_form
from tui.forms.book_summary import confirm_rows, hazmat_problems
from tui.forms.book_times import closed_day_text, pickup_day_of
from tui.host import Hosted
from tui.screens.book_addresses import BookEnds
from tui.screens.book_body import BookBody
from tui.screens.book_check import BookingCheckScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.book_outcome import earlier_booking, quote_booked, shown
from tui.screens.modal import FreightScreen
from tui.screens.quote_booked import BookAgainConfirm
from tui.screens.quote_draft import DRAFT_NAME as QUOTE_DRAFT
from tui.service_call import ServiceCall, WorkerErrorsToHost
from tui.store.days import DayClose, closes_of
from tui.widgets.contact_form import ContactForm
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.pickup_form import PickupForm
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Quote, Rate, RateRequest
    from tui.booking import BookingOutcome
    from tui.config.settings import Location
    from tui.host import AnyBooking, AnyBookingRequest
    from tui.ledger import BookingRecord
    from tui.screens.book_check import CheckResult


LEDGER = "Booking ledger"
"""The title of a notice about the booking ledger."""


def today() -> date:
    """The local date the pickup day is checked against (tests replace it)."""
    return date.today()


class BookScreen(Hosted, WorkerErrorsToHost, FreightScreen[None]):
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
        self.booked: AnyBooking | None = None
        self._sent_request: AnyBookingRequest | None = None
        self._quote_booked: str | None = None
        """What to say when the quote was booked already in this run (asked before booking)."""
        self._sending: ServiceCall[BookingOutcome] = ServiceCall(
            self,
            "booking",
            activity="booking…",
            on_answer=self._answered,
            on_error=self._send_failed,
            on_stopped=self.finish,
        )

    @property
    def sending(self) -> bool:
        """Whether this form's booking is in flight."""
        return self._sending.in_flight

    def compose(self) -> ComposeResult:
        yield FreightHeader("Book")
        yield Static(self._title(), id="book-title")
        yield BookBody(self.quote, self.rate, self.request, parcel=self.parcel, today=today)
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
    def body(self) -> BookBody:
        """The form: both ends, the pickup and the draft of them."""
        return self.query_one(BookBody)

    @property
    def origin(self) -> ContactForm:
        return self.body.ends.end("origin")

    @property
    def dest(self) -> ContactForm:
        return self.body.ends.end("dest")

    @property
    def pickup(self) -> PickupForm:
        return self.body.pickup

    # -- filling and moving about -------------------------------------------------------

    def on_mount(self) -> None:
        body = self.body
        known = self.host.session.addresses

        def fill(book: Sequence[Location]) -> None:
            note = body.fill(book)
            if note is not None:
                self.set_status(*note)

        if known is not None:  # the book as last read: the form is filled at once
            fill(known)
        self.origin.input("company").focus()

        async def read_booked() -> None:
            """The quote booked already in this run (its draft marked): said now, asked at
            the Book key."""
            request, session = self.request, self.host.session
            codes = (request.origin_postal_code, request.dest_postal_code)
            try:
                said = await asyncio.to_thread(quote_booked, session, QUOTE_DRAFT, *codes)
            except OSError:
                return  # a store that cannot be read is said where it is used
            self._quote_booked = said
            if said is not None:
                self.notify(said, title="Quote booked", severity="warning", timeout=8)

        self.run_worker(read_booked(), group="book-quote-booked", exit_on_error=False)

        async def read_book() -> None:
            """Read the address book from the store (another station may have saved to it,
            and the next form is filled from it at once); fill the form from it if it was
            not filled yet."""
            book = await body.ends.read_book()
            if known is None:
                fill(book or [])

        body.ends.run_worker(read_book(), group="book-addresses")

    @on(BookEnds.Noted)
    def _noted(self, note: BookEnds.Noted) -> None:
        """A line from the address book for the status."""
        self.set_status(note.text, note.problem)

    def action_section(self, step: int) -> None:
        """Focus the first field of the next (step 1) or previous (-1) part of the form."""
        self.body.section(step)

    def action_address_book(self) -> None:
        """Fill the focused end of the form from a saved address (the book read in a worker)."""
        self.body.ends.pick()

    def action_save_address(self) -> None:
        """Save the focused end of the form to the address book (same company and ZIP: replaced)."""
        self.body.ends.save()

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
            self.body.draft.save()
            self.dismiss()

    def action_book(self, checked: bool = False) -> None:
        """Check every field; unless `checked`, look for an earlier booking first; then ask
        for confirmation before sending."""
        if self.sending or self.host.booking_in_flight:
            self.set_status("A booking is already being sent.", True)
            return

        count = self.body.check()
        if count:
            self.set_status(f"Fix {count} marked field{'s' if count != 1 else ''} first.", True)
            return

        refused = hazmat_problems(self.request)
        if refused:
            self.set_status("Not booked: " + "; ".join(refused) + " (quote it again)", True)
            return
        try:
            request = self.body.request_for()
        except RequestValidationError as error:
            other = self.body.show_field_errors(error.fields)
            self.set_status("; ".join(other) if other else str(error), True)
            return
        if self._quote_booked is not None and not checked:

            def again(yes: bool | None) -> None:
                if yes:
                    self._quote_booked = None  # asked: not again for this form
                    self.action_book()
                else:
                    self.set_status("Not booked again.")

            self.app.push_screen(BookAgainConfirm(self._quote_booked), again)
            return
        if checked:
            self._confirm(request)
            return
        session, quote_id, rate_id = self.host.session, self.quote.id, self.rate.id

        async def look_for_earlier() -> None:
            """Read the ledger off the event loop for an earlier booking of this quote and
            rate; ask about it, or go on to the confirmation."""
            problems: list[str] = []
            earlier = await asyncio.to_thread(
                earlier_booking, session, quote_id, rate_id, problems.append
            )
            for problem in problems:
                self.notify(problem, title=LEDGER, severity="warning")
            if earlier is None:
                self._confirm(request)
                return
            self._check(
                earlier,
                just_sent=False,
                again=partial(self._confirm, request),
                declined=(f"Not sent again (reference {earlier.reference}).", False),
            )

        self.run_worker(look_for_earlier(), group="book-earlier", exclusive=True)

    def _check(
        self,
        record: BookingRecord,
        *,
        just_sent: bool,
        again: Callable[[], None],
        declined: tuple[str, bool],
    ) -> None:
        """Search for the booking of ``record`` and let the user say how it ended: send
        ``again``, claim a shipment found, or leave it (``declined``: the status then)."""

        def after_check(chosen: CheckResult | None) -> None:
            if chosen == "again":
                again()
            elif chosen == "mine":
                self.claimed(record.reference)
            else:
                self.set_status(*declined)

        self.app.push_screen(BookingCheckScreen(record, just_sent=just_sent), after_check)

    def _confirm(self, request: Any) -> None:
        """Ask for confirmation; the dialog sends nothing until the store has said whether
        the pickup day is already closed (then it asks once more)."""
        pickup = None if self.parcel else self.body.schedule_pickup()
        rows = confirm_rows(self.request, request, pickup)
        form = self.body.pickup
        day = pickup_day_of(form.pickup_date(), today(), form.holiday_region)
        confirm = BookConfirmScreen(self.rate, self.host.session.environment, rows, day_check=True)

        def decided(confirmed: bool | None) -> None:
            if confirmed:
                self._send(request)
            else:
                self.set_status("Not booked.")

        self.app.push_screen(confirm, decided)
        self.run_worker(self._check_day(confirm, day), group="book-day", exclusive=True)

    async def _check_day(self, confirm: BookConfirmScreen, day: date) -> None:
        """Tell the confirmation whether ``day`` was closed (``freight day close``), whole or
        for this rate's carrier, in this environment's store, read off the event loop; a store
        that cannot say is a note."""
        session = self.host.session
        names = [name for name in (self.rate.carrier, self.rate.carrier_code) if name]

        def read() -> DayClose | None:
            ledger = session.ledger()
            closes = closes_of(ledger.store, day, ledger.environment)
            found = [closes.whole, *(closes.of(name) for name in names)]
            return max((c for c in found if c), key=lambda c: c.closed_at, default=None)

        try:
            closed = await asyncio.to_thread(read)
        except OSError as error:
            self.notify(
                f"Whether the day is closed is not known: {plain(str(error))}", severity="warning"
            )
            closed = None
        text = None
        if closed is not None:
            carrier = plain(self.rate.carrier or self.rate.carrier_code or "this carrier")
            text = closed_day_text(day, carrier, closed.closed_at, closed.station, closed.printed)
        confirm.day_checked(text)

    def _send(self, request: AnyBookingRequest) -> None:
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
        self.body.disabled = True
        self.refresh_bindings()
        self.set_status(f"Booking with {self.rate.carrier}… do not close Freight.")

    def finish(self) -> None:
        """The booking is answered or stopped: the form may be used again."""
        self.host.booking_in_flight = False
        if self.is_mounted:
            self.body.disabled = False
            self.refresh_bindings()

    def _send_failed(self, error: Exception, message: str) -> None:
        """The engine never raises for the service: this is e.g. no credentials to send with."""
        self.finish()
        self.set_status(message or str(error), True)

    def _answered(self, outcome: BookingOutcome) -> None:
        """Show what became of the booking sent, once the form is enabled again."""
        self.finish()
        said = shown(outcome, self.host.session.profile_name, self.quote.id, self.rate.id)
        if said.ledger_note is not None:
            self.notify(said.ledger_note, title=LEDGER, severity="warning")
        if said.booked:
            self.body.draft.clear()
            self.mark_booked(outcome.reference)
        if said.fields is not None:
            other = self.body.show_field_errors(dict(said.fields))
            self.set_status("; ".join(other) if other else said.status, True)
        elif said.api_error is not None:
            self.set_status(self.host.handle_api_error(said.api_error) or said.status, True)
        elif said.status:
            self.set_status(said.status, said.problem)
        if said.shipment is not None:
            self.host.open_shipment(said.shipment, said.found)
        if said.booking is not None:
            self.booked = said.booking
            if self.app.screen is self:
                self.show_result()
            else:
                self.notify("Booked. Go back to the booking to see the result.", title="Booked")
        if said.search is not None:
            reference = said.search.reference
            self._check(
                said.search,
                just_sent=True,
                again=partial(self.action_book, checked=True),
                declined=(
                    f"Not sent again. Reference {reference}: search Shipments for it before "
                    "booking this rate again.",
                    True,
                ),
            )

    def on_screen_resume(self) -> None:
        if self.booked is not None:
            self.show_result()

    def show_result(self) -> None:
        booking, self.booked = self.booked, None
        if booking is not None:
            self.host.show_booked(booking, self.rate, self._sent_request)

    def claimed(self, reference: str) -> None:
        """The user said a shipment a search found is this booking."""
        self.body.draft.clear()
        self.mark_booked(reference)
        self.set_status(f"Recorded as booked (you confirmed it): reference {reference}.")

    def mark_booked(self, reference: str) -> None:
        """Mark the quote's draft booked, off the event loop and after the quote form's
        writes asked for before (its one writer: never an older draft over a newer)."""
        draft_writer(QUOTE_DRAFT).mark_booked(self.host.session.drafts, reference)

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
