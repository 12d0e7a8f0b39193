"""Pick a saved address for the quote's origin or destination."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets.option_list import Option

from tui.domain.locations import LOCATION_TYPES_SHORT
from tui.domain.safe_text import plain
from tui.screens.modal import FreightModal
from tui.widgets.plain import OptionList, Static

if TYPE_CHECKING:
    from tui.config.settings import Location

Side = Literal["origin", "dest"]


def address_line(location: Location) -> str:
    """`Main DC · Acme · Chicago IL 60601 · Dock` for the list."""
    place = " ".join(part for part in (location.city, location.state) if part)
    parts = [location.label or location.company, place, location.postal_code]
    parts.append(LOCATION_TYPES_SHORT.get(location.location_type, location.location_type))
    if location.label and location.company:
        parts.insert(1, location.company)
    return plain(" · ".join(part for part in parts if part))


class QuoteAddressesScreen(FreightModal[tuple[Side, int] | None]):
    """Enter uses the address for the side named in the title; o / d choose the side."""

    TITLE = "Address book"

    DEFAULT_CSS = """
    QuoteAddressesScreen > Vertical {
        width: 90%;
        max-width: 90;
        height: auto;
        max-height: 80%;
        border: round $accent;
    }
    QuoteAddressesScreen Static {
        padding: 0 1;
        color: $text-muted;
    }
    QuoteAddressesScreen OptionList, QuoteAddressesScreen OptionList:focus {
        height: auto;
        max-height: 16;
        border: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Cancel", id="address_book.cancel", tooltip="Close"),
        Binding("o", "use('origin')", "Origin", id="address_book.origin", tooltip="Use as origin"),
        Binding(
            "d", "use('dest')", "Destination", id="address_book.dest", tooltip="Use as destination"
        ),
    ]

    def __init__(self, addresses: Sequence[Location], side: Side) -> None:
        super().__init__()
        self.addresses = list(addresses)
        self.side: Side = side

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Address book"
            yield Static(
                "enter: use for "
                + ("origin" if self.side == "origin" else "destination")
                + " · o origin · d destination · esc cancel"
            )
            yield OptionList(
                *(Option(Text(address_line(a)), id=str(i)) for i, a in enumerate(self.addresses))
            )

    def action_dismiss_none(self) -> None:
        self.dismiss(None)

    def action_use(self, side: Side) -> None:
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is not None:
            self.dismiss((side, highlighted))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss((self.side, event.option_index))
