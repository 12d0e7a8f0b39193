"""The last look before a batch is booked: how many orders, the total per currency, where.
In PRODUCTION the count and each currency's total are typed back before anything is sent."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input

from tui.domain.money import format_money
from tui.screens.modal import FreightDialog
from tui.widgets.plain import Static


def _amount(text: str, currency: str) -> Decimal | None:
    value = text.strip().upper().removesuffix(currency).strip().replace(",", "")
    try:
        return Decimal(value)
    except InvalidOperation:
        return None


class BatchConfirmScreen(FreightDialog[bool]):
    """Enter books the batch (in PRODUCTION once the count and totals are typed); Esc not."""

    TITLE = "Book the batch"

    HELP: ClassVar[str | None] = """\
## Book the batch

The number of orders to book and their total in each currency (never added across
currencies). **Enter** books them, each once, under its own reference; **Esc** goes back,
nothing sent. In **PRODUCTION** real shipments are booked and billed: type the number of
orders, then each currency's total, to confirm.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Book", id="batch_confirm.book", tooltip="Book the batch"),
        Binding("escape", "cancel", "Back", id="batch_confirm.back", tooltip="Nothing is sent"),
    ]

    DEFAULT_CSS = """
    BatchConfirmScreen > Vertical { width: 64; border: thick $accent; }
    /* the header's PRODUCTION colour */
    BatchConfirmScreen.-production > Vertical { border: thick $error; }
    BatchConfirmScreen #batch-confirm-text { height: auto; margin-bottom: 1; }
    BatchConfirmScreen Input { margin-bottom: 1; }
    BatchConfirmScreen #batch-confirm-problem { height: auto; color: $text-error; }
    BatchConfirmScreen #batch-confirm-hint { height: auto; color: $text-muted; }
    """

    def __init__(
        self, count: int, totals: dict[str, Decimal], environment: str, profile: str
    ) -> None:
        super().__init__()
        self.count = count
        self.totals = dict(sorted(totals.items()))
        self.environment = environment
        self.profile = profile

    @property
    def production(self) -> bool:
        """Whether real shipments would be booked."""
        return self.environment == "PRODUCTION"

    def compose(self) -> ComposeResult:
        amounts = " · ".join(f"{format_money(v)} {c}" for c, v in self.totals.items())
        noun = "order" if self.count == 1 else "orders"
        text = (
            f"Book {self.count} {noun} for {amounts or 'nothing'}\n"
            f"on {self.environment} (profile {self.profile}), each once, with its BOL and labels "
            "saved in one folder."
        )
        with Vertical() as box:
            box.border_title = "Book the batch"
            yield Static(text, id="batch-confirm-text", markup=False)
            if self.production:
                yield Input(placeholder=f"type the number of orders ({self.count})", id="count")
                # (ids by place: a currency code is the server's text, not an identifier)
                for index, currency in enumerate(self.totals):
                    yield Input(placeholder=f"type the total in {currency}", id=f"total-{index}")
                yield Static("", id="batch-confirm-problem", markup=False)
            hint = "Enter books · Esc goes back, nothing sent"
            if self.production:
                hint = "Type them, then Enter books · Esc goes back, nothing sent"
            yield Static(hint, id="batch-confirm-hint", markup=False)

    def on_mount(self) -> None:
        self.set_class(self.production, "-production")
        if self.production:
            self.query_one("#count", Input).focus()

    @on(Input.Submitted)
    def _submitted(self, message: Input.Submitted) -> None:
        self._enter_goes_on(message, self.action_confirm)

    def problem(self) -> str | None:
        """What is not typed right yet (PRODUCTION), or None."""
        if not self.production:
            return None
        if self.query_one("#count", Input).value.strip() != str(self.count):
            return f"Type the number of orders: {self.count}."
        for index, (currency, amount) in enumerate(self.totals.items()):
            typed = self.query_one(f"#total-{index}", Input).value
            if _amount(typed, currency) != amount:
                return f"Type the total in {currency} as shown."
        return None

    def action_confirm(self) -> None:
        problem = self.problem()
        if problem is not None:
            self.query_one("#batch-confirm-problem", Static).update(problem)
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
