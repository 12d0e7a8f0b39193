"""Before a quote and rate go out again: search for the earlier booking and show what is found."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from tui.domain.money import format_amount
from tui.host import Host, host_of
from tui.ledger import BookingLedger, BookingRecord
from tui.listing.status import status_label
from tui.screens.modal import FreightModal
from tui.service_call import ServiceCall

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Shipment

SHOWN = 5
"""Shipments listed in the dialog; more are counted."""


def search_terms(record: BookingRecord) -> list[str]:
    """What to search for: the booking's reference, and its PRO when one is known."""
    terms = [record.reference]
    if record.pro_number and record.pro_number not in terms:
        terms.append(record.pro_number)
    return terms


async def find_booking(client: FreightClient, terms: Sequence[str]) -> list[Shipment]:
    """The shipments a search for any of the terms finds (first page of each, no repeats)."""
    found: dict[str, Shipment] = {}
    for term in terms:
        page = await client.search_shipments({"text": term})
        for shipment in page.shipments:
            found.setdefault(shipment.id, shipment)
    return list(found.values())


CARRIER_WIDTH = 22
"""Room for the carrier's name on a found shipment's line (one line at 80 columns)."""


def shipment_line(shipment: Shipment) -> str:
    """`PRO7001 · 11-20 · confirmed · Maple Leaf Freight · 1,234.50 CAD` (created, local)."""
    parts = [shipment.pro_number or shipment.id]
    if shipment.created_date is not None:
        parts.append(shipment.created_date.astimezone().strftime("%m-%d"))
    parts.append(status_label(shipment.status))
    if shipment.carrier is not None and (shipment.carrier.name or shipment.carrier.scac):
        name = shipment.carrier.name or shipment.carrier.scac or ""
        parts.append(name if len(name) <= CARRIER_WIDTH else name[: CARRIER_WIDTH - 1] + "…")
    cost = shipment.cost
    if cost is not None and cost.total is not None:
        parts.append(format_amount(cost.total, cost.currency))
    return " · ".join(part for part in parts if part)


class BookingCheckScreen(FreightModal[bool]):
    """Searches for an earlier booking of this quote and rate and shows what it found.

    Dismisses with True only when the user, having seen the search's answer, chose to book
    again; Enter opens the shipment found; Esc goes back with nothing sent.
    """

    HELP = """\
## Earlier booking

This quote and rate were sent before, and Freight is not sure how that ended (or it was
booked). Freight searched the shipments for the reference it sent the booking with.

- **Enter** or **o** opens the shipment found.
- **r** searches again (a service may list a new shipment a little later).
- **b** books again anyway: only after the search has answered. It may make a second
  shipment.
- **Esc** goes back; nothing is sent.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,o", "open", "Open shipment", id="check.open", tooltip="Open it"),
        Binding("r", "search", "Search again", id="check.search", tooltip="Search again"),
        Binding("b", "book_again", "Book again", id="check.book", tooltip="Book again anyway"),
        Binding("escape", "cancel", "Back", id="check.back", tooltip="Back, nothing sent"),
    ]

    DEFAULT_CSS = """
    BookingCheckScreen > Vertical {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $warning;
        padding: 0 1;
    }
    BookingCheckScreen #check-intro {
        height: auto;
        margin-bottom: 1;
    }
    BookingCheckScreen #check-found {
        height: auto;
    }
    BookingCheckScreen #check-hint {
        color: $text-muted;
        margin-top: 1;
        height: auto;
    }
    """

    def __init__(self, record: BookingRecord, *, just_sent: bool) -> None:
        """`just_sent`: the booking was sent a moment ago and got no usable answer."""
        super().__init__()
        self.record = record
        self.just_sent = just_sent
        self.found: list[Shipment] | None = None
        """What the last search found (None until a search has answered)."""
        self._searching: ServiceCall[list[Shipment]] = ServiceCall(
            self,
            "booking-check",
            activity="searching…",
            on_answer=self._answered,
            on_error=self._search_failed,
        )

    @property
    def host(self) -> Host:
        """The app, as far as this dialog may use it."""
        return host_of(self)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Booking outcome unknown" if self.just_sent else "Booked before?"
            yield Static(self._intro(), id="check-intro")
            yield Static("", id="check-found")
            yield Static("", id="check-hint")

    def on_mount(self) -> None:
        self.action_search()

    def _intro(self) -> Text:
        record = self.record
        sent = record.sent_at or record.time
        when = sent.astimezone().strftime("%Y-%m-%d %H:%M")
        if self.just_sent:
            head = "No usable answer came to the booking. It was NOT sent again."
        elif record.outcome == "booked":
            number = record.pro_number or record.shipment_id
            head = f"This quote and rate were booked on {when}" + (
                f" as {number}." if number else "."
            )
        else:
            head = f"This quote and rate were sent on {when} and no answer said how it ended."
        return Text.assemble(
            (head, "bold"),
            "\nReference sent with it: ",
            (record.reference, "bold"),
            f"\nQuote {record.quote_id} · rate {record.rate_id}",
        )

    # -- the search -----------------------------------------------------------------------

    def action_search(self) -> None:
        """Search for the booking's reference (and PRO) again."""
        terms = search_terms(self.record)
        self.found = None
        self._show(Text(f"Searching shipments for {' and '.join(terms)}…"))
        self._searching.start(lambda client: find_booking(client, terms))
        self.refresh_bindings()

    def _answered(self, shipments: list[Shipment]) -> None:
        self.found = shipments
        terms = " or ".join(search_terms(self.record))
        if not shipments:
            self._show(
                Text.assemble(
                    (f"No shipment found for {terms}.", "bold"),
                    "\nThe booking may not have gone through, or the service has not "
                    "listed it yet: search again in a minute (r) before booking again.",
                )
            )
        else:
            text = Text.assemble(
                (f"Found {len(shipments)} shipment{'s' if len(shipments) != 1 else ''} "
                 f"for {terms}:", "bold")
            )  # fmt: skip
            for shipment in shipments[:SHOWN]:
                text.append(f"\n  {shipment_line(shipment)}")
            if len(shipments) > SHOWN:
                text.append(f"\n  … and {len(shipments) - SHOWN} more")
            self._show(text)
            self._note_found(shipments)
        self.refresh_bindings()

    def _note_found(self, shipments: list[Shipment]) -> None:
        """One shipment found by the reference Freight made up: that is the booking."""
        if len(shipments) != 1 or self.record.outcome == "booked":
            return
        shipment = shipments[0]
        with suppress(OSError):  # the dialog still shows it; the ledger keeps "unknown"
            self.record = BookingLedger.in_dir(self.host.session.data_dir).settle(
                self.record,
                "booked",
                shipment_id=shipment.id,
                pro_number=shipment.pro_number,
                bol_number=shipment.bol_number,
                note=f"found by searching for {self.record.reference}",
            )

    def _search_failed(self, error: Exception, message: str) -> None:
        self.found = None
        self._show(
            Text.assemble(
                ("The search failed: ", "bold"),
                message or str(error),
                "\nPress r to search again. Booking again needs a search that answered "
                "(or ask for new rates).",
            )
        )
        self.refresh_bindings()

    def _show(self, text: Text) -> None:
        self.query_one("#check-found", Static).update(text)
        hint = ["r search again", "esc back"]
        if self.found:
            hint.insert(0, "⏎ open it")
        if self.found is not None:
            hint.insert(-1, "b book again anyway")
        self.query_one("#check-hint", Static).update(" · ".join(hint))

    # -- choices --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[Any, ...]) -> bool | None:
        if action == "open":
            return bool(self.found)
        if action == "book_again":
            return self.found is not None
        return True

    def action_open(self) -> None:
        """Open the (first) shipment found."""
        if self.found:
            shipment = self.found[0]
            self.dismiss(False)
            self.host.open_shipment(shipment.id, shipment)

    def action_book_again(self) -> None:
        """Go on to the booking confirmation (only once a search has answered)."""
        if self.found is not None:
            self.dismiss(True)

    def action_cancel(self) -> None:
        """Back to the form; nothing is sent."""
        self._searching.cancel()
        self.dismiss(False)
