"""One order of a batch: what the file says of it, what is wrong, and its own rates in the rates
table (cheapest and fastest marked, sortable, the carriers that could not take it and why);
Enter on a rate chooses it instead of the rule's choice, r asks every carrier again."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content

from tui.api.models import Rate
from tui.batch.model import OUTPUT_STATUS
from tui.batch.view import rate_line
from tui.domain.safe_text import plain
from tui.host import host_of
from tui.screens.modal import FreightModal
from tui.textual_internals import add_default_css
from tui.widgets.footer import FreightFooter
from tui.widgets.plain import Static
from tui.widgets.rates_table import NotOfferedList, RatesTable

if TYPE_CHECKING:
    from tui.batch.model import Order, OrderState, RateOption

Rerate = Callable[[], Awaitable["OrderState"]]
"""Rates the order again and gives its new state (raises what the service raised)."""


def as_rates(options: Sequence[RateOption]) -> list[Rate]:
    """The offers the batch kept for an order, as the rates table shows offers (without their
    charges: the batch keeps what choosing needs)."""

    return [
        Rate(
            id=option.id,
            status="ok" if option.ok else "unavailable",
            mode=option.mode or None,
            total=option.total,
            days=option.days,
            carrier=option.carrier,
            carrier_code=option.carrier_code or None,
            service_type=option.service or None,
            message=option.message or None,
            currency=option.currency or "USD",
        )
        for option in options
    ]


class BatchRatesTable(RatesTable):
    """The rates table of one order of a batch: Enter chooses, it does not book."""

    HELP = """\
## The order's rates

Every carrier's offer for this order when it was rated; `$` marks the cheapest (in each
currency), `»` the fastest, `✓` the rate booked. Sort with **t** total, **d** days,
**c** carrier, **s** SCAC, **v** service, **m** mode (again: reverse). **Enter** chooses the
highlighted offer for the order instead of the rule's (kept when the rules change); the
batch books it with the others.
"""


def prepare_order_view(app: App[Any]) -> None:
    """Parse the order screen's CSS ahead (its screen's, its tables' and its list's), as its
    first mount would: the review calls it once shown, so the first Enter on an order only
    composes the screen."""
    add_default_css(app, BatchOrderScreen, BatchRatesTable, NotOfferedList)


class BatchOrderScreen(FreightModal[str | None]):
    """An order's problems and rates; returns the id of the rate chosen by hand (or None)."""

    TITLE = "Batch order"

    HELP: ClassVar[str | None] = """\
## Order

The order's lines as read, what is wrong with them (row, column, reason), and every rate the
carriers gave it, cheapest first. **Enter** chooses the highlighted rate instead of the
rule's; **r** asks every carrier again for this order; **Esc** closes.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="batch_order.close", tooltip="Back to the batch"),
        Binding(
            "r", "rerate", "Rate again", id="batch_order.rerate", tooltip="Rate this order again"
        ),
    ]

    DEFAULT_CSS = """
    BatchOrderScreen > Vertical {
        width: 80;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        border-title-color: $text;
    }
    BatchOrderScreen #order-facts { height: auto; max-height: 6; padding: 0 1; }
    BatchOrderScreen #order-rates { height: auto; max-height: 12; }
    BatchOrderScreen #order-not-offered { height: auto; max-height: 6; }
    BatchOrderScreen #order-rate { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    BatchOrderScreen #order-rate.-problem { color: $text-error; }
    """

    def __init__(
        self,
        order: Order | None,
        state: OrderState,
        bookable: bool,
        rerate: Rerate | None = None,
    ) -> None:
        """``bookable``: its rate may change (not booked); ``rerate``: how to rate it again
        (None while the batch is being rated or booked)."""
        super().__init__()
        self.order = order
        self.state = state
        self.bookable = bookable
        self.rerate = rerate

    def compose(self) -> ComposeResult:

        state = self.state
        status = OUTPUT_STATUS[state.status]  # the table's word: a booking unanswered is unknown
        with Vertical() as box:
            # (a title is markup unless it is Content: the order number is the file's text)
            box.border_title = Content(f"Order {plain(state.key, limit=30)} · {status}")
            yield Static(self._facts(), id="order-facts", markup=False)
            yield BatchRatesTable(id="order-rates")
            yield NotOfferedList(id="order-not-offered")
            yield Static("", id="order-rate", markup=False)
            yield FreightFooter(compact=True)

    def _facts(self) -> str:
        order, state = self.order, self.state
        lines: list[str] = []
        if order is not None:
            rows = ", ".join(str(r) for r in order.rows)
            lines.append(
                f"To {plain(order.dest_text) or '?'} · {order.pieces} pieces · "
                f"{order.weight_lb:,} lb · rows {rows}"
            )
            if order.flags.short():
                lines.append(f"Needs {order.flags.short()} · class {order.classes}")
        if state.pro_number or state.bol_number:
            lines.append(
                f"PRO {plain(state.pro_number)} · BOL {plain(state.bol_number)} · "
                f"reference {plain(state.reference)}"
            )
        lines.extend(error.message for error in state.errors)
        lines.extend(plain(note) for note in state.notes)
        if state.rates and not self.bookable:
            lines.append("Booked (or its booking not settled): the choice stays.")
        return "\n".join(lines) or "Not rated yet: r rates it."

    @property
    def table(self) -> RatesTable:
        return self.query_one(BatchRatesTable)

    def on_mount(self) -> None:
        self._show_rates()
        self.table.focus()

    def _show_rates(self) -> None:
        table = self.table
        state = self.state
        if not self.bookable and state.chosen:
            table.booked = {state.chosen: "booked" if state.status == "booked" else "unknown"}
        table.set_rates(as_rates(state.rates))
        if not state.rates:
            table.set_status("not rated yet")
        elif state.chosen and any(r.id == state.chosen for r in table.view.offered):
            table.move_cursor(row=table.get_row_index(state.chosen), animate=False)
        self._say_choice()

    def _say_choice(self, problem: str = "") -> None:

        line = self.query_one("#order-rate", Static)
        choice = self.state.choice
        if problem:
            text = problem
        elif choice is None:
            text = "No rate chosen: Enter chooses the highlighted offer."
        else:
            how = "by hand" if self.state.chosen_by == "hand" else "by the rule"
            text = f"Chosen {how}: {plain(rate_line(choice))}"
            if self.bookable:
                text += " · Enter chooses another"
        line.update(text)
        line.set_class(bool(problem), "-problem")

    @on(RatesTable.ViewChanged, "#order-rates")
    def _view_changed(self, message: RatesTable.ViewChanged) -> None:
        self.query_one(NotOfferedList).show_rates(message.view.not_offered)

    @on(RatesTable.BookRequested, "#order-rates")
    def _picked(self, message: RatesTable.BookRequested) -> None:
        message.stop()
        rate = message.rate
        if not self.bookable:
            self._say_choice("This order is booked (or its booking unsettled): its rate stays.")
            return
        if not rate.is_ok:
            self._say_choice(f"{plain(rate.carrier)} cannot carry it: {plain(rate.message)}")
            return
        self.dismiss(rate.id)

    def action_rerate(self) -> None:
        """Ask every carrier again for this order (its rule's choice made anew)."""
        if not self.bookable:
            self._say_choice("This order is booked: it is not rated again.")
            return
        if self.rerate is None:
            self._say_choice("The batch is being rated or booked: wait for it, or stop it.")
            return
        self.table.set_status("rating…")
        self._say_choice("Asking every carrier again for this order…")
        self.run_worker(
            self._rate_again(self.rerate),
            group="batch-order-rerate",
            exclusive=True,
            exit_on_error=False,
        )

    async def _rate_again(self, rerate: Rerate) -> None:

        try:
            state = await rerate()
        except Exception as error:  # the service's answer, said where the user looks
            message = host_of(self).handle_api_error(error)
            self.table.set_status(None)
            self._say_choice(f"Not rated again: {plain(message, limit=200)}")
            return
        self.state = state
        self.table.set_status(None)
        self.query_one("#order-facts", Static).update(self._facts())
        self._show_rates()
        if state.status != "rated" and state.errors:
            self._say_choice(state.error_text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rerate":
            return self.bookable and self.order is not None and self.order.valid
        return True

    def action_close(self) -> None:
        self.dismiss(None)
