"""The last look before a booking is sent: carrier, total, pickup, extras, hazmat, environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input

from tui.domain.money import format_price
from tui.domain.safe_text import plain, plain_lines
from tui.screens.modal import FreightDialog
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tui.api.models import Rate

PRODUCTION_WORD = "BOOK"
"""What must be typed to confirm a booking in PRODUCTION."""


class BookConfirmScreen(FreightDialog[bool]):
    """Enter books (in PRODUCTION only after typing BOOK); Esc goes back to the form."""

    TITLE = "Confirm booking"

    HELP = """\
## Confirm booking

Check carrier, service, total, the pickup day and window, every extra service
(liftgate, appointment…) and hazardous item, and the environment. **Enter** sends the booking once;
**Esc** goes back to the form. In **PRODUCTION** a real shipment is booked and billed:
type `BOOK` and press Enter.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Book", id="confirm.book", tooltip="Send the booking"),
        Binding("escape", "cancel", "Back", id="confirm.back", tooltip="Back to the form"),
    ]

    DEFAULT_CSS = """
    BookConfirmScreen > Vertical { width: 72; border: thick $accent; }
    BookConfirmScreen #confirm-banner {
        height: auto;
        text-align: center;
        text-style: bold;
        margin-bottom: 1;
    }
    BookConfirmScreen.-production > Vertical {
        border: thick #d70000;
    }
    BookConfirmScreen.-production #confirm-banner {
        background: #d70000;
        color: #ffffff;
    }
    BookConfirmScreen #confirm-word {
        margin-top: 1;
    }
    BookConfirmScreen #confirm-closed {
        margin-top: 1;
        color: $error;
    }
    BookConfirmScreen #confirm-hint {
        color: $text-muted;
        margin-top: 1;
    }
    """

    def __init__(
        self,
        rate: Rate,
        environment: str,
        rows: Sequence[tuple[str, str]] = (),
        *,
        day_check: bool = False,
    ) -> None:
        """``day_check``: nothing is confirmed until `day_checked` says whether the pickup
        day is already closed."""
        super().__init__()
        self._day_pending = day_check
        self._closed_day: str | None = None
        """What to say of a closed pickup day (None: open, or not known yet)."""
        self._waiting = False
        """Enter was pressed before the day was known."""
        self._asked_again = False
        self.rate = rate
        self.environment = environment
        self.rows = list(rows)
        """(label, text) of what else is booked: pickup, extras, hazmat, references."""
        self.production = environment == "PRODUCTION"
        self._decided = False

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Confirm booking"
            yield Static(self._banner(), id="confirm-banner")
            yield Static(self._details(), id="confirm-details", markup=False)
            closed = Static("", id="confirm-closed")
            closed.display = False
            yield closed
            if self.production:
                yield Input(
                    placeholder=f"type {PRODUCTION_WORD} to book for real",
                    id="confirm-word",
                    max_length=10,
                )
            hint = (
                f"type {PRODUCTION_WORD}, enter to book · esc back"
                if self.production
                else "enter book · esc back to the form"
            )
            yield Static(hint, id="confirm-hint")

    def on_mount(self) -> None:
        self.set_class(self.production, "-production")
        if self._closed_day is not None:  # known before the dialog was up
            self._show_closed(self._closed_day)

    def _banner(self) -> Text:
        if self.production:
            return Text("PRODUCTION · a real shipment will be booked and billed")
        return Text(f"{self.environment} · test booking, no real shipment")

    def _details(self) -> Table:
        rate = self.rate
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        carrier = f"{rate.carrier} ({rate.carrier_code})" if rate.carrier_code else rate.carrier
        # A str cell of a Rich table is markup: the carrier's words go in as Text.
        table.add_row("Carrier", Text(plain(carrier)))
        table.add_row(
            "Service", Text(plain(" · ".join(p for p in (rate.service_type, rate.mode) if p)))
        )
        table.add_row("Total", Text(format_price(rate.total, rate.currency), style="bold"))
        days = "unknown" if rate.days is None else f"{rate.days} day{'s' if rate.days != 1 else ''}"
        table.add_row("Transit", days)
        for label, text in self.rows:
            flagged = (label == "Hazmat" and text != "none") or "⚠" in text
            table.add_row(label, Text(plain_lines(text), style="bold" if flagged else ""))
        table.add_row("Environment", Text(self.environment, style="bold"))
        return table

    @on(Input.Submitted, "#confirm-word")
    def _word_submitted(self) -> None:
        self.action_confirm()

    def action_confirm(self) -> None:
        """Book, once; in PRODUCTION only after the word was typed."""
        if self._decided:
            return
        if self.production and not self._word_typed(
            PRODUCTION_WORD, "#confirm-word", "#confirm-hint", "book"
        ):
            return
        if self._day_pending:
            self._waiting = True
            self._hint(Text("checking whether the pickup day is closed…"))
            return
        if self._closed_day is not None and not self._asked_again:
            self._asked_again = True
            self._hint(Text("The day is closed: enter again to book anyway · esc back", "bold red"))
            return
        self._decided = True
        self.dismiss(True)

    def day_checked(self, closed: str | None) -> None:
        """The store said whether the pickup day is closed (``closed``: what to say of it).
        An Enter pressed meanwhile books an open day; a closed one asks first."""
        self._day_pending = False
        if closed is None:
            if self._waiting:
                self.action_confirm()
            return
        self._closed_day = closed
        if self.is_mounted:
            self._show_closed(closed)

    def _show_closed(self, closed: str) -> None:
        shown = self.query_one("#confirm-closed", Static)
        shown.update(Text(f"⚠ {plain_lines(closed)}", style="bold"))
        shown.display = True
        self._hint(Text("enter, then enter again, to book anyway · esc back"))

    def _hint(self, text: Text) -> None:
        self.query_one("#confirm-hint", Static).update(text)

    def action_cancel(self) -> None:
        """Back to the form, nothing sent."""
        if not self._decided:
            self._decided = True
            self.dismiss(False)
