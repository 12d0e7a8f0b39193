"""Rates: every carrier's offer for a quote, with its charges, ready to book."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical
from textual.widgets import Input

from tui.api.errors import RateLimitedError
from tui.domain.modes import same_mode
from tui.domain.money import format_amount
from tui.domain.safe_text import plain, plain_lines
from tui.host import Hosted
from tui.screens.modal import FreightScreen
from tui.screens.width_class import add_width_class
from tui.service_call import ServiceCall, WorkerErrorsToHost
from tui.widgets.charges_panel import ChargesPanel
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.plain import Static
from tui.widgets.rates_table import (
    CHEAPEST,
    FASTEST,
    NotOfferedList,
    RatesTable,
    cheapest_by_currency,
)

if TYPE_CHECKING:
    from tui.api.models import Quote, Rate, RateRequest


class RatesScreen(Hosted, WorkerErrorsToHost, FreightScreen[None]):
    """Asks for rates on mount and shows the offers; Enter books the highlighted one."""

    TITLE = "Rates"

    AUTO_FOCUS = "#rates-table"

    HORIZONTAL_BREAKPOINTS = [
        (0, "-narrow"),
        (120, "-wide"),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "back",
            "Back",
            id="rates.back",
            tooltip="Cancel the request in flight, close the filter, or go back to the quote",
        ),
        Binding("slash", "filter", "Filter", id="rates.filter", tooltip="Filter by carrier"),
        Binding("b", "book", "Book", id="rates.book", tooltip="Book the highlighted offer"),
        Binding("r", "rerate", "Rate again", id="rates.retry", tooltip="Ask for rates again"),
    ]

    DEFAULT_CSS = """
    RatesScreen #rates-body {
        height: 1fr;
        layout: vertical;
    }
    RatesScreen.-wide #rates-body {
        layout: horizontal;
    }
    RatesScreen #rates-list {
        height: 1fr;
        width: 1fr;
    }
    RatesScreen #rates-table {
        min-height: 6;  /* three offers under the header, at 80x24 too */
    }
    RatesScreen #rates-list.-reasons #rates-table {
        height: auto;  /* what the offers need; the reasons below take the rest */
        max-height: 75%;
    }
    RatesScreen.-wide #rates-list.-reasons #rates-table {
        height: 1fr;  /* room enough: the offers fill it, the reasons take what they need */
        max-height: 100%;
    }
    RatesScreen.-wide #rates-not-offered {
        height: auto;
        max-height: 50%;
    }
    RatesScreen #rates-charges {
        height: auto;
        max-height: 10;
    }
    RatesScreen.-wide #rates-charges {
        width: 40;
        height: auto;
        max-height: 100%;
    }
    RatesScreen #rates-filter {
        display: none;
        margin: 0 1;
    }
    RatesScreen #rates-filter.-shown {
        display: block;
    }
    RatesScreen #rates-summary {
        height: auto;
        padding: 0 1;
    }
    RatesScreen #rates-summary.-problem {
        color: $error;
    }
    """

    def __init__(
        self, request: RateRequest, mode_filter: str | None = None, quote: Quote | None = None
    ) -> None:
        """Ask for rates for `request`, or show `quote` when it is already known (F3)."""
        super().__init__()
        self.request = request
        self.mode_filter = mode_filter
        self.quote: Quote | None = None
        self._known_quote = quote

        self._rating: ServiceCall[Quote] = ServiceCall(
            self,
            "rates",
            activity="rating…",
            on_answer=self._rates_arrived,
            on_error=self._rates_failed,
            handled_here=(RateLimitedError,),
        )

    @property
    def in_flight(self) -> bool:
        """True while rates are asked for."""
        return self._rating.in_flight

    @property
    def table(self) -> RatesTable:
        return self.query_one(RatesTable)

    def compose(self) -> ComposeResult:
        add_width_class(self)
        yield FreightHeader(self._lane())
        yield Input(
            placeholder="filter: carrier, SCAC or service",
            id="rates-filter",
            compact=True,
        )
        with Container(id="rates-body"):
            with Vertical(id="rates-list"):
                yield RatesTable(id="rates-table")
                yield NotOfferedList(id="rates-not-offered")
            yield ChargesPanel(id="rates-charges")
        yield Static("", id="rates-summary", markup=False)  # quotes carriers and errors
        yield FreightFooter()

    def on_mount(self) -> None:
        self.table.focus()
        if self._known_quote is not None:
            self.call_next(self._rates_arrived, self._known_quote)
        else:
            self.load(self.request, self.mode_filter)

    def on_unmount(self) -> None:
        self.host.set_activity("rates", None)
        if self.quote is not None:
            self.host.last_rates = (self.request, self.mode_filter, self.quote)

    def _lane(self) -> str:
        lane = f"{self.request.origin_postal_code} → {self.request.dest_postal_code}"
        return f"Quote {self.quote.id} · {lane}" if self.quote else f"Rates · {lane}"

    # -- asking for rates ---------------------------------------------------------------

    def load(self, request: RateRequest, mode_filter: str | None = None) -> None:
        """Ask for rates for `request`; any answer to an earlier request is dropped."""
        self.request = request
        self.mode_filter = mode_filter
        self.table.set_status("rating…")
        self._set_summary("Asking every carrier for rates…  esc cancels")
        self._rating.start(lambda client: client.get_rates(request))

    def cancel(self) -> None:
        """Stop the request in flight; its answer, should it still come, is dropped."""
        self._rating.cancel()
        self.table.set_status("cancelled · r to rate again")
        self._set_summary("Rates request cancelled. Press r to ask again, esc to go back.")

    def _rates_arrived(self, quote: Quote) -> None:
        self.quote = quote
        self.query_one(FreightHeader).screen_title = self._lane()
        rates = [
            rate
            for rate in quote.rates
            if self.mode_filter is None or same_mode(rate.mode, self.mode_filter)
        ]
        self.table.booked = self._ledger_marks()
        self.table.set_rates(rates)
        if not rates:
            shown = f"{self.mode_filter} " if self.mode_filter else ""
            self.table.set_status(f"no {shown}offers")
        self._show_best()

    def _ledger_marks(self) -> dict[str, str]:
        """Rate id -> booked / unknown for this quote, from the booking ledger (this profile)."""
        if self.quote is None:
            return {}
        session = self.host.session
        try:
            marks = session.ledger().marks(session.profile_name, self.quote.id)
        except OSError:
            return {}
        return dict(marks)

    def on_screen_resume(self) -> None:
        """Back from a booking: mark what the ledger now knows."""
        if self.quote is not None:
            self.table.set_booked(self._ledger_marks())

    def _rates_failed(self, error: Exception, message: str) -> None:

        if isinstance(error, RateLimitedError):
            wait = f" in {error.retry_after:g} s" if error.retry_after is not None else ""
            self.table.set_status(f"rate limited · r to retry{wait}")
            self._set_summary(f"Too many requests. Press r to try again{wait}.", problem=True)
            return
        self.table.set_status("no rates · r to retry")
        self._set_summary(message, problem=True)

    # -- what the screen shows ----------------------------------------------------------

    def _set_summary(self, text: str | Text, *, problem: bool = False) -> None:
        summary = self.query_one("#rates-summary", Static)
        summary.set_class(problem, "-problem")
        summary.update(Text(plain_lines(text)) if isinstance(text, str) else text)

    def _show_best(self) -> None:
        view = self.table.view
        by_id = {rate.id: rate for rate in self.table.rates}
        cheapest = by_id.get(view.cheapest_id or "")
        fastest = by_id.get(view.fastest_id or "")
        if cheapest is None or fastest is None:
            self._set_summary("No carrier can book this shipment as described.")
            return
        days = "?" if fastest.days is None else str(fastest.days)
        unit = "day" if fastest.days == 1 else "days"
        # One cheapest per currency: amounts in two currencies are never compared.
        cheapest_each = ", ".join(
            f"{plain(rate.carrier_code or rate.carrier)} {format_amount(rate.total, rate.currency)}"
            for rate in cheapest_by_currency(self.table.rates).values()
        )
        self._set_summary(
            Text.assemble(
                (f"{CHEAPEST} cheapest", "bold"),
                f": {cheapest_each}   ",
                (f"{FASTEST} fastest", "bold"),
                f": {plain(fastest.carrier_code or fastest.carrier)} {days} {unit}",
            )
        )

    @on(RatesTable.RateHighlighted)
    def _rate_highlighted(self, event: RatesTable.RateHighlighted) -> None:
        self.query_one(ChargesPanel).show_rate(event.rate)
        self.refresh_bindings()

    @on(RatesTable.ViewChanged)
    def _view_changed(self, event: RatesTable.ViewChanged) -> None:
        self.query_one(NotOfferedList).show_rates(event.view.not_offered)
        self.query_one("#rates-list").set_class(bool(event.view.not_offered), "-reasons")

    @on(RatesTable.BookRequested)
    def _book_requested(self, event: RatesTable.BookRequested) -> None:
        self.book(event.rate)

    # -- filter -------------------------------------------------------------------------

    @on(Input.Changed, "#rates-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.table.set_filter(event.value.strip())

    @on(Input.Submitted, "#rates-filter")
    def _filter_done(self) -> None:
        self.table.focus()

    def action_filter(self) -> None:
        """Show the filter line and type into it."""
        field = self.query_one("#rates-filter", Input)
        field.add_class("-shown")
        field.focus()

    def _close_filter(self) -> None:
        field = self.query_one("#rates-filter", Input)
        field.value = ""
        field.remove_class("-shown")
        self.table.focus()

    # -- actions ------------------------------------------------------------------------

    def action_back(self) -> None:
        """Cancel what is in flight, else close the filter, else go back to the quote."""
        if self.in_flight:
            self.cancel()
        elif self.query_one("#rates-filter", Input).has_class("-shown"):
            self._close_filter()
        else:
            self.dismiss()

    def action_rerate(self) -> None:
        """Ask for rates again for the same freight."""
        self.load(self.request, self.mode_filter)

    def action_book(self) -> None:
        """Book the highlighted offer."""
        rate = self.table.highlighted_rate
        if rate is not None:
            self.book(rate)

    def book(self, rate: Rate) -> None:
        """Open the booking form for an offer (only a bookable one)."""
        if self.quote is None:
            return
        if not rate.is_ok:
            reason = rate.message or rate.status
            self.notify(f"{rate.carrier} does not offer this shipment: {reason}", timeout=4)
            return
        if self.host.booking_in_flight:
            self.notify("A booking is being sent; wait for its answer.", timeout=4)
            return
        earlier = self.table.booked.get(rate.id)
        if earlier is not None:
            said = "was booked" if earlier == "booked" else "was sent and got no answer"
            self.notify(
                f"This offer {said} before: booking it again first searches for that booking.",
                title="Booked before?",
                severity="warning",
                timeout=6,
            )
        self.host.start_booking(self.quote, rate, self.request)

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Commands that make sense on this screen now."""
        table = self.table
        for key, label in (("total", "total"), ("days", "transit days"), ("carrier", "carrier")):
            yield SystemCommand(
                f"Sort offers by {label}",
                "Press again to reverse",
                lambda key=key: table.action_sort(key),
            )
        yield SystemCommand(
            "Filter offers", "Type part of a carrier or service", self.action_filter
        )
        if self.in_flight:
            yield SystemCommand("Cancel rating", "Stop the rates request", self.cancel)
        else:
            yield SystemCommand("Rate again", "Ask every carrier again", self.action_rerate)
        rate = table.highlighted_rate
        if rate is not None and rate.is_ok:
            yield SystemCommand(
                f"Book {rate.carrier_code} {rate.service_type or ''}".strip(),
                f"{format_amount(rate.total, rate.currency)} · open the booking form",
                self.action_book,
            )

    def check_action(self, action: str, parameters: tuple[Any, ...]) -> bool | None:
        if action == "book":
            rate = self.table.highlighted_rate if self.is_mounted else None
            if rate is not None and rate.is_ok:
                return True
            # Dimmed while the offers are on their way (the footer keeps its place for it),
            # hidden once they are here and none can be booked.
            return None if self.quote is None else False
        return True
