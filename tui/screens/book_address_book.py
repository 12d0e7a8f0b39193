"""Pick an address book entry to fill one end of the booking form."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets.option_list import Option

from tui.domain.postal import same_postal_code
from tui.domain.safe_text import plain
from tui.screens.modal import FreightDialog
from tui.widgets.footer import FreightFooter
from tui.widgets.plain import OptionList, Static

if TYPE_CHECKING:
    from tui.config.settings import Location


def ordered_entries(entries: Sequence[Location], postal_code: str) -> list[Location]:
    """Entries at this postal code first, then the rest, each group in book order."""
    same = [entry for entry in entries if same_postal_code(entry.postal_code, postal_code)]
    others = [entry for entry in entries if not same_postal_code(entry.postal_code, postal_code)]
    return same + others


def entry_line(entry: Location, postal_code: str) -> Text:
    """One line describing an entry, marked when it is at the shipment's postal code."""
    place = " ".join(part for part in (entry.city, entry.state, entry.postal_code) if part)
    mark = "● " if same_postal_code(entry.postal_code, postal_code) else "  "
    return Text.assemble(
        (mark, "bold green"),
        (plain(entry.label or entry.company or "(no name)"), "bold"),
        plain(f" · {entry.company} · {place}" if entry.company else f" · {place}"),
    )


class BookAddressesScreen(FreightDialog["Location | None"]):
    """A list of saved addresses; Enter fills the form end it was opened for."""

    TITLE = "Address book"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape", "dismiss(None)", "Close", id="address_book.close", tooltip="Fill nothing"
        ),
    ]

    DEFAULT_CSS = """
    BookAddressesScreen > Vertical { width: 76; max-height: 20; }
    BookAddressesScreen OptionList {
        height: auto;
        max-height: 14;
        border: none;
    }
    """

    def __init__(self, entries: Sequence[Location], postal_code: str, side_name: str) -> None:
        super().__init__()
        self.entries = ordered_entries(entries, postal_code)
        self.postal_code = postal_code
        self.side_name = side_name

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Address book → {self.side_name}"
            if self.entries:
                yield OptionList(
                    *(
                        Option(entry_line(entry, self.postal_code), id=str(index))  # Text
                        for index, entry in enumerate(self.entries)
                    ),
                    id="address-book-list",
                )
                yield Static(
                    f"● = at {plain(self.postal_code)}   enter fill   esc close",
                    classes="hint",
                    markup=False,
                )
            else:
                yield Static("The address book is empty. ctrl+t on the form saves an address.")
        yield FreightFooter()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.entries[int(event.option.id or 0)])
