"""One order of a batch: what the file says of it, what is wrong, and its own rates; Enter
on a rate chooses it instead of the rule's choice."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from tui.batch.model import RateOption
from tui.domain.money import format_money
from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.screens.modal import FreightModal
from tui.widgets.footer import FreightFooter
from tui.widgets.virtual_table import VirtualTable

if TYPE_CHECKING:
    from tui.batch.model import Order, OrderState


def _columns(chosen: str) -> list[Column[RateOption]]:
    return [
        Column("mark", "", lambda r: "✓" if r.id == chosen else "", width=1),
        Column("carrier", "Carrier", lambda r: r.carrier, min_width=10, max_width=26, flex=True),
        Column("code", "SCAC", lambda r: r.carrier_code, width=4, priority=-1),
        Column(
            "service",
            "Service",
            lambda r: r.service if r.ok else plain(r.message, limit=60),
            min_width=8,
            max_width=24,
            flex=True,
        ),
        Column(
            "days",
            "Days",
            lambda r: str(r.days) if r.days is not None and r.ok else "",
            sort_key=lambda r: r.days,
            width=4,
            justify="right",
        ),
        Column(
            "total",
            "Total",
            lambda r: f"{format_money(r.total)} {r.currency}" if r.ok else "",
            sort_key=lambda r: (not r.ok, r.currency, r.total if r.ok else Decimal(0)),
            min_width=8,
            max_width=14,
            justify="right",
        ),
    ]


class BatchOrderScreen(FreightModal[str | None]):
    """An order's problems and rates; returns the id of the rate chosen by hand (or None)."""

    HELP: ClassVar[str | None] = """\
## Order

The order's lines as read, what is wrong with them (row, column, reason), and every rate the
carriers gave it, cheapest first; ✓ marks the one chosen. **Enter** chooses the highlighted
rate instead (kept when the rules change). **Esc** closes.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="batch_order.close", tooltip="Back to the batch"),
    ]

    DEFAULT_CSS = """
    BatchOrderScreen > Vertical {
        width: 78;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        border-title-color: $text;
    }
    BatchOrderScreen #order-facts { height: auto; max-height: 8; padding: 0 1; }
    BatchOrderScreen #order-rates { height: auto; max-height: 12; }
    BatchOrderScreen #order-rate { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, order: Order | None, state: OrderState, bookable: bool) -> None:
        super().__init__()
        self.order = order
        self.state = state
        self.bookable = bookable

    def compose(self) -> ComposeResult:
        state = self.state
        with Vertical() as box:
            box.border_title = f"Order {plain(state.key, limit=30)} · {state.status}"
            yield Static(self._facts(), id="order-facts", markup=False)
            rated = sorted(state.rates, key=lambda r: (not r.ok, r.currency, r.total, r.carrier))
            if rated:
                table = VirtualTable[RateOption](
                    _columns(state.chosen), lambda r: r.id, id="order-rates"
                )
                yield table
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
        return "\n".join(lines) or "Not rated yet: r rates the batch."

    def on_mount(self) -> None:
        found = self.query("#order-rates")
        if found:
            table = cast("VirtualTable[RateOption]", found.first(VirtualTable))
            table.set_rows(
                sorted(self.state.rates, key=lambda r: (not r.ok, r.currency, r.total, r.carrier))
            )
            if self.state.chosen:
                table.move_cursor_to_key(self.state.chosen)
            table.focus()

    @on(VirtualTable.RowHighlighted, "#order-rates")
    def _highlighted(self, message: VirtualTable.RowHighlighted) -> None:
        from tui.batch.view import rate_line

        rate = cast("RateOption | None", message.row)
        if rate is not None:
            text = rate_line(rate) if rate.ok else f"{rate.carrier}: {plain(rate.message)}"
            self.query_one("#order-rate", Static).update(text)

    @on(VirtualTable.RowSelected, "#order-rates")
    def _picked(self, message: VirtualTable.RowSelected) -> None:
        rate = cast("RateOption", message.row)
        if not self.bookable:
            self.notify("This order is booked: its rate cannot change.", timeout=4)
            return
        if not rate.ok:
            self.notify(f"{rate.carrier} cannot carry it: {rate.message}", timeout=5)
            return
        self.dismiss(rate.id)

    def action_close(self) -> None:
        self.dismiss(None)
