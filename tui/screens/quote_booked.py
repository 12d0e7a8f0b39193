"""A quote whose booking already went through: restored, say so and offer a fresh quote;
rated again unchanged in the same run, ask before the Book step books it again."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from tui.screens.modal import FreightDialog
from tui.screens.yes_no import YesNo, YesNoDialog
from tui.widgets.plain import Static


class QuoteBookedScreen(FreightDialog[bool]):
    """n (or Enter) starts a new, empty quote (True); k or Esc keeps the values for another
    shipment (False)."""

    TITLE = "Quote booked"

    HELP: ClassVar[str | None] = """\
## A quote already booked

The quote that came back was booked already (the store knows its PRO). **n** or **Enter**
starts a new, empty quote; **k** or **Esc** keeps its values, to book another shipment
like it on purpose.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "new", "New quote", id="quote_booked.new", tooltip="An empty quote"),
        Binding("k,escape", "keep", "Keep", id="quote_booked.keep", tooltip="Keep these values"),
    ]

    DEFAULT_CSS = """
    QuoteBookedScreen > Vertical { width: 64; }
    QuoteBookedScreen #quote-booked-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Already booked"
            yield Static(self._text, id="quote-booked-text")
            yield Static(
                "n or enter: new quote · k or esc: keep these values for another shipment",
                id="quote-booked-hint",
            )

    def action_new(self) -> None:
        self.dismiss(True)

    def action_keep(self) -> None:
        self.dismiss(False)


class BookAgainConfirm(YesNoDialog):
    """The quote on the Book form was booked already (in this run, then rated again
    unchanged): y (or Enter) goes on to book it again on purpose; n or Esc books nothing."""

    TITLE = "Book again?"

    HELP: ClassVar[str | None] = """\
## A quote already booked

The quote this form books went through already (its PRO is said). **y** or **Enter** goes
on to book another shipment like it (the confirmation still comes); **n** or **Esc** books
nothing.
"""

    ANSWERS: ClassVar[YesNo] = YesNo(
        "book_again", "Book again", "Book another shipment like it", "No", "Book nothing"
    )
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()

    def __init__(self, text: str) -> None:
        super().__init__("Already booked", text, text_id="book-again-text")
