"""The booking form itself: both ends, the pickup, their checks, the request they make, and
the draft that keeps what is typed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from textual import on
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Input

from tui.domain.pickup_dates import region_of
from tui.forms import booking as book_form
from tui.host import host_of
from tui.screens.book_addresses import BookEnds
from tui.screens.book_draft import BookDraft, Fill, Part, prefill
from tui.widgets.contact_form import ContactForm
from tui.widgets.pickup_form import PickupForm

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.widget import Widget

    from tui.api.models import Quote, Rate, RateRequest
    from tui.config.settings import Location


class BookBody(VerticalScroll):
    """Origin, destination and pickup of one booking; what is typed goes to the draft."""

    def __init__(
        self,
        quote: Quote,
        rate: Rate,
        request: RateRequest,
        *,
        parcel: bool,
        today: Callable[[], date],
    ) -> None:
        super().__init__(id="book-body")
        self.quote = quote
        self.rate = rate
        self.request = request
        self.parcel = parcel
        self._today = today
        self.draft = BookDraft(
            lambda: host_of(self).session.drafts,
            (quote, rate, request),
            self._values,
            self.set_timer,
        )

    def compose(self) -> ComposeResult:
        request = self.request
        yield BookEnds(
            request.origin_postal_code,
            request.dest_postal_code,
            parcel=self.parcel,
            type_note=lambda side, entry: book_form.type_note(request, side, entry),
            id="book-ends",
        )
        yield PickupForm(
            self._today,
            quoted=request.pickup_date,
            schedule=not self.parcel,
            region=region_of(request.origin_postal_code),
            id="book-pickup-form",
        )

    @property
    def ends(self) -> BookEnds:
        return self.query_one(BookEnds)

    @property
    def pickup(self) -> PickupForm:
        return self.query_one("#book-pickup-form", PickupForm)

    def _part(self, part: Part) -> ContactForm | PickupForm:
        if part == "pickup":
            return self.pickup
        return self.ends.end(part)

    def _values(self) -> dict[Part, dict[str, Any]]:
        return {part: self._part(part).values() for part in ("origin", "dest", "pickup")}

    def schedule_pickup(self) -> bool:
        """Whether a pickup is to be scheduled (never for parcel)."""
        if self.parcel:
            return False
        return self.query_one("#book-pickup", Checkbox).value

    # -- filling and the draft ----------------------------------------------------------

    def fill(self, book: Sequence[Location]) -> tuple[str, bool] | None:
        """Prefill from ``book``, restore the draft over it; the draft's note, if any."""
        default_origin = host_of(self).session.profile.default_origin
        self._put(prefill(book, self.request, default_origin, hours=not self.parcel))
        restored, note, problem = self.draft.restore()
        self._put(restored)
        self._hours()
        request = self.request
        ends = (
            ("origin", book_form.find_location(book, request.origin_postal_code, default_origin)),
            ("dest", book_form.find_location(book, request.dest_postal_code)),
        )
        types = [
            said
            for side, entry in ends
            if entry is not None and (said := book_form.type_note(request, side, entry))
        ]
        if types:  # the type of a place filled from the book is not the quote's
            return " ".join([*types, *([note] if note else [])]), True
        return None if note is None else (note, problem)

    def _put(self, fill: Fill) -> None:
        for part, values in fill:
            self._part(part).set_values(values)

    def on_unmount(self) -> None:
        self.draft.save()

    @on(ContactForm.Changed)
    @on(PickupForm.Changed)
    @on(Checkbox.Changed, "#book-pickup")
    def _changed(self, event: ContactForm.Changed | PickupForm.Changed | Checkbox.Changed) -> None:
        if isinstance(event, Checkbox.Changed):
            self._hours()
        self.draft.schedule()

    def _hours(self) -> None:
        """The origin's ready–close window is needed when a pickup is scheduled."""
        if not self.parcel:
            self.ends.end("origin").hours_required = self.schedule_pickup()

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    def section(self, step: int) -> None:
        """Focus the first field of the next (step 1) or previous (-1) part of the form."""
        sections: list[Widget] = [self.ends.end("origin"), self.ends.end("dest"), self.pickup]
        focused = self.screen.focused
        current = next(
            (
                i
                for i, part in enumerate(sections)
                if focused is not None and focused in part.walk_children()
            ),
            -1 if step > 0 else len(sections),
        )
        target = sections[(current + step) % len(sections)]
        first = next((w for w in target.query(Input) if w.focusable), None)
        if first is not None:
            first.focus()
            self.scroll_to_widget(target, animate=False)

    # -- checks and the request ---------------------------------------------------------

    def check(self) -> int:
        """Show every field's problem (blanks count) and focus the first; how many there are."""
        origin, dest, pickup = self.ends.end("origin"), self.ends.end("dest"), self.pickup
        errors = (origin.errors(for_booking=True), dest.errors(for_booking=True), pickup.errors())
        origin.show_errors(errors[0])
        dest.show_errors(errors[1])
        pickup.show_errors(errors[2])
        count = sum(len(found) for found in errors)
        if count:
            first = (
                origin.first_invalid(errors[0])
                or dest.first_invalid(errors[1])
                or pickup.first_invalid(errors[2])
            )
            if first is not None:
                first.focus()
        return count

    def request_for(self) -> Any:
        """The booking request the form makes (RequestValidationError if the service's
        model refuses it)."""
        quote, rate = self.quote, self.rate
        origin, dest = self.ends.end("origin").values(), self.ends.end("dest").values()
        day = self.pickup.pickup_date()
        reference = self.pickup.values()["reference"]
        if self.parcel:
            return book_form.parcel_request(quote, rate, origin, dest, day, reference)
        return book_form.booking_request(
            quote, rate, origin, dest, self.schedule_pickup(), day, reference
        )

    def show_field_errors(self, fields: dict[str, str]) -> list[str]:
        """Show the service's field errors at their fields; the ones no field shows."""
        found, other = book_form.field_errors(fields)
        for part in ("origin", "dest", "pickup"):
            self._part(part).show_errors(found[part])
        return other
