"""Before a quote and rate go out again: search for the earlier booking and show what is found."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets.option_list import Option

from tui.booking import search_terms
from tui.domain.money import format_amount
from tui.domain.safe_text import plain, plain_lines
from tui.host import Hosted
from tui.listing.status import status_label
from tui.screens.modal import FreightDialog
from tui.service_call import ServiceCall
from tui.widgets.plain import OptionList, Static

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Shipment
    from tui.booking import BookedOutcome, Candidate, UnknownOutcome
    from tui.ledger import BookingRecord

CheckResult = Literal["again", "mine"]
"""How the dialog ended: book again anyway, or the user said a candidate is theirs."""

SHOWN = 5
"""Shipments listed in the dialog at once; more scroll."""

CARRIER_WIDTH = 22
"""Room for the carrier's name on a found shipment's line (one line at 80 columns)."""


def shipment_line(shipment: Shipment) -> str:
    """`PRO7001 · 11-20 · confirmed · Maple Leaf Freight · 1,234.50 CAD` (created, local):
    plain text (the server's words with no control characters; show it as text, not markup)."""
    parts = [plain(shipment.pro_number or shipment.id, limit=40)]
    if shipment.created_date is not None:
        parts.append(shipment.created_date.astimezone().strftime("%m-%d"))
    parts.append(plain(status_label(shipment.status), limit=30))
    if shipment.carrier is not None and (shipment.carrier.name or shipment.carrier.scac):
        name = plain(shipment.carrier.name or shipment.carrier.scac or "")
        parts.append(name if len(name) <= CARRIER_WIDTH else name[: CARRIER_WIDTH - 1] + "…")
    cost = shipment.cost
    if cost is not None and cost.total is not None:
        parts.append(format_amount(cost.total, cost.currency))
    return plain(" · ".join(part for part in parts if part))


def candidate_prompt(candidate: Candidate) -> Text:
    """A candidate's two lines: the shipment, then why it may be the booking (plain text)."""
    shipment = candidate.shipment
    ends = " → ".join(
        code for code in (shipment.origin.postal_code, shipment.destination.postal_code) if code
    )
    why = f"{ends} · {candidate.why}" if ends else candidate.why
    return Text.assemble(shipment_line(shipment), "\n  ", (plain(why), "dim"))


class BookingCheckScreen(Hosted, FreightDialog[CheckResult | None]):
    """Searches for an earlier booking of this quote and rate and shows what it found.

    A shipment that shows the booking's reference (or its PRO) is the booking: the ledger
    records it and Enter opens it. Shipments that may be it (search hits without the
    reference, and shipments created since it was sent on the same lane) are listed for the
    user to judge: `y` says the highlighted one is theirs. Dismisses with "again" only when
    the user, having seen the search's answer, chose to book again; "mine" when they claimed
    a candidate; None when nothing was decided (Esc).
    """

    TITLE = "Booking check"

    HELP = """\
## Earlier booking

This quote and rate were sent before, and Freight is not sure how that ended (or it was
booked). Freight searched the shipments for the reference it sent the booking with.

- A shipment that shows the reference (or the booking's PRO) **is** the booking: Freight
  records it as booked. **Enter** or **o** opens it.
- When none does, shipments that **may** be it are listed: other hits of the search, and
  shipments created since the booking was sent on the same lane (origin, destination,
  carrier, pickup day). **↑ ↓** choose one, **y** says "this is mine" (it is then recorded
  as booked), **Enter** opens it to look first.
- **r** searches again (a service may list a new shipment a little later).
- **b** books again anyway: only after the search has answered. It may make a second
  shipment.
- **Esc** goes back; nothing is sent.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,o", "open", "Open shipment", id="check.open", tooltip="Open it"),
        Binding("y", "mine", "This is mine", id="check.mine", tooltip="It is my booking"),
        Binding("r", "search", "Search again", id="check.search", tooltip="Search again"),
        Binding("b", "book_again", "Book again", id="check.book", tooltip="Book again anyway"),
        Binding("escape", "cancel", "Back", id="check.back", tooltip="Back, nothing sent"),
    ]

    DEFAULT_CSS = """
    BookingCheckScreen > Vertical {
        width: 76;
        max-height: 100%;
        border: thick $warning;
    }
    BookingCheckScreen #check-intro {
        height: auto;
        margin-bottom: 1;
    }
    BookingCheckScreen #check-found {
        height: auto;
    }
    BookingCheckScreen #check-candidates {
        height: auto;
        max-height: 10;
        display: none;
    }
    BookingCheckScreen #check-candidates.-shown {
        display: block;
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
        self.outcome: BookedOutcome | UnknownOutcome | None = None
        """What the last search made of it (None until a search has answered)."""
        self._searching: ServiceCall[BookedOutcome | UnknownOutcome] = ServiceCall(
            self,
            "booking-check",
            activity="searching…",
            on_answer=self._answered,
            on_error=self._search_failed,
        )
        self._claiming: ServiceCall[BookedOutcome] = ServiceCall(
            self, "booking-claim", on_answer=self._claimed, on_error=self._search_failed
        )

    @property
    def found(self) -> list[Shipment] | None:
        """The shipments the last search showed: the booking, or the candidates (None until a
        search has answered)."""
        outcome = self.outcome
        if outcome is None:
            return None
        if outcome.status == "booked":
            return [outcome.found] if outcome.found is not None else []
        return [candidate.shipment for candidate in outcome.candidates]

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """What may be the booking (none once the booking is proven)."""
        outcome = self.outcome
        return outcome.candidates if outcome is not None and outcome.status == "unknown" else ()

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Booking outcome unknown" if self.just_sent else "Booked before?"
            yield Static(self._intro(), id="check-intro", markup=False)
            yield Static("", id="check-found", markup=False)
            yield OptionList(id="check-candidates", disabled=True)
            yield Static("", id="check-hint", markup=False)

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
                f" as {plain(number)}." if number else "."
            )
        else:
            head = f"This quote and rate were sent on {when} and no answer said how it ended."
        return Text.assemble(
            (head, "bold"),
            "\nReference sent with it: ",
            (plain(record.reference), "bold"),
            f"\nQuote {plain(record.quote_id)} · rate {plain(record.rate_id)}",
        )

    # -- the search -----------------------------------------------------------------------

    def action_search(self) -> None:
        """Search for the booking's reference (and PRO), then its lane, again."""

        terms = search_terms(self.record)
        self.outcome = None
        self._show_candidates(())
        self._show(Text(f"Searching shipments for {' and '.join(terms)}…"))
        session = self.host.session
        record = self.record

        async def settle(client: FreightClient) -> BookedOutcome | UnknownOutcome:
            return await session.booking_engine(client).settle(record)

        self._searching.start(settle)
        self.refresh_bindings()

    def _answered(self, outcome: BookedOutcome | UnknownOutcome) -> None:

        self.outcome = outcome
        terms = " or ".join(search_terms(self.record))  # what was searched for
        if outcome.record is not None:
            self.record = outcome.record
        if outcome.status == "booked":
            self._show_candidates(())
            if outcome.found is None:
                self._show(
                    Text.assemble(
                        (f"No shipment listed for {terms} (yet).", "bold"),
                        "\nThe ledger says it was booked: search again in a minute (r).",
                    )
                )
            else:
                self._show(
                    Text.assemble(
                        (f"Found 1 shipment for {terms}:", "bold"),
                        f"\n  {shipment_line(outcome.found)}",
                        "\nIt carries the booking's reference or PRO"
                        + ("." if outcome.earlier else ": the ledger now says booked."),
                    )
                )
        elif outcome.candidates:
            count = len(outcome.candidates)
            self._show(
                Text.assemble(
                    (f"No shipment shows {terms}.", "bold"),
                    f"\n{count} shipment{'s' if count != 1 else ''} may be it. "
                    f"{'Is one of them' if count != 1 else 'Is it'} yours?",
                )
            )
            self._show_candidates(outcome.candidates)
        else:
            self._show_candidates(())
            since = ""
            sent = self.record.sent_at
            if self.record.lane is not None and sent is not None:
                since = f", nor on its lane since {sent.astimezone().strftime('%H:%M')}"
            self._show(
                Text.assemble(
                    (f"No shipment found for {terms}{since}.", "bold"),
                    "\nThe booking may not have gone through, or the service has not "
                    "listed it yet: search again in a minute (r) before booking again.",
                )
            )
        self.refresh_bindings()

    def _show_candidates(self, candidates: tuple[Candidate, ...]) -> None:
        options = self.query_one("#check-candidates", OptionList)
        options.clear_options()
        options.add_options(
            Option(candidate_prompt(candidate), id=str(index))
            for index, candidate in enumerate(candidates)
        )
        options.set_class(bool(candidates), "-shown")
        options.disabled = not candidates  # hidden, it must not take the focus (and Enter)
        if candidates:
            options.highlighted = 0
            options.focus()

    def _search_failed(self, error: Exception, message: str) -> None:
        self.outcome = None
        self._show_candidates(())
        self._show(
            Text.assemble(
                ("The search failed: ", "bold"),
                plain_lines(message or str(error)),
                "\nPress r to search again. Booking again needs a search that answered "
                "(or ask for new rates).",
            )
        )
        self.refresh_bindings()

    def _show(self, text: Text) -> None:
        self.query_one("#check-found", Static).update(text)
        hint = ["r search again", "esc back"]
        if self.found:
            hint.insert(0, "⏎ open" if self.candidates else "⏎ open it")
        if self.candidates:
            hint.insert(1, "y mine")
        if self.outcome is not None:
            hint.insert(-1, "b book again anyway")
        self.query_one("#check-hint", Static).update(" · ".join(hint))

    # -- choices --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[Any, ...]) -> bool | None:
        if action == "open":
            return bool(self.found)
        if action == "mine":
            return bool(self.candidates) and not self._claiming.in_flight
        if action == "book_again":
            return self.outcome is not None
        return True

    def _highlighted(self) -> Candidate | None:
        candidates = self.candidates
        if not candidates:
            return None
        index = self.query_one("#check-candidates", OptionList).highlighted
        return candidates[index] if index is not None and index < len(candidates) else None

    @on(OptionList.OptionSelected, "#check-candidates")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Open the shipment found, or the highlighted candidate (to look before saying)."""
        candidate = self._highlighted()
        shipment = candidate.shipment if candidate is not None else None
        if shipment is None and self.found:
            shipment = self.found[0]
        if shipment is not None:
            self.dismiss(None)
            self.host.open_shipment(shipment.id, shipment)

    def action_mine(self) -> None:
        """The highlighted candidate is this booking: record it as booked."""
        candidate = self._highlighted()
        if candidate is None:
            return
        session = self.host.session
        record = self.record

        async def claim(client: FreightClient) -> BookedOutcome:
            engine = session.booking_engine(client)
            return await engine.confirm(record, candidate.shipment, candidate.why)

        self._claiming.start(claim)
        self.refresh_bindings()

    def _claimed(self, outcome: BookedOutcome) -> None:
        if outcome.ledger_problem:
            self.notify(
                f"Not recorded: {outcome.ledger_problem}.",
                title="Booking ledger",
                severity="warning",
            )
        shipment = outcome.found
        self.dismiss("mine")
        if shipment is not None:
            self.host.open_shipment(shipment.id, shipment)

    def action_book_again(self) -> None:
        """Go on to the booking confirmation (only once a search has answered)."""
        if self.outcome is not None:
            self.dismiss("again")

    def action_cancel(self) -> None:
        """Back to the form; nothing is sent."""
        self._searching.cancel()
        self.dismiss(None)
