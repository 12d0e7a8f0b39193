"""The booking form's starting values and its draft: prefill, restore, debounced save."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tui.forms import booking as book_form

if TYPE_CHECKING:
    from textual.timer import Timer

    from tui.api.models import Quote, Rate, RateRequest
    from tui.host import Host
    from tui.widgets.contact_form import ContactForm

DRAFT_DELAY = 0.3
"""Seconds of quiet after a change before the draft is written."""


class BookingForm(Protocol):
    """What the draft and address-book helpers need of the booking screen, and no more."""

    quote: Quote
    rate: Rate
    request: RateRequest
    parcel: bool

    @property
    def host(self) -> Host: ...

    @property
    def origin(self) -> ContactForm: ...

    @property
    def dest(self) -> ContactForm: ...

    @property
    def draft(self) -> BookDraft: ...

    def schedule_pickup(self) -> bool: ...

    def set_schedule_pickup(self, value: bool) -> None: ...

    def set_status(self, text: str, problem: bool = False) -> None: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...


class BookDraft:
    """Fills a booking screen's form (address book, then draft) and keeps its draft."""

    def __init__(self, screen: BookingForm) -> None:
        self.screen = screen
        self._timer: Timer | None = None
        self._pending: dict[str, Any] | None = None

    def prefill(self) -> None:
        """Each end from the address book entry for its ZIP (origin: the default origin too)."""
        screen = self.screen
        profile = screen.host.session.profile
        book = profile.address_book
        origin = book_form.find_location(
            book, screen.request.origin_postal_code, profile.default_origin
        )
        if origin is not None:
            values = book_form.location_values(origin, dock_hours=not screen.parcel)
            screen.origin.set_values(values)
        dest = book_form.find_location(book, screen.request.dest_postal_code)
        if dest is not None:
            screen.dest.set_values(book_form.location_values(dest, dock_hours=False))

    def restore(self) -> None:
        """Put back what was typed for this quote (or this lane) and not sent."""
        screen = self.screen
        draft = screen.host.session.drafts.load(book_form.DRAFT_NAME)
        if not draft:
            return
        fit = book_form.draft_fits(draft, screen.quote, screen.rate, screen.request)
        if fit == "other":
            return
        if isinstance(draft.get("origin"), dict):
            screen.origin.set_values(draft["origin"])
        if isinstance(draft.get("dest"), dict):
            screen.dest.set_values(draft["dest"])
        if not screen.parcel and isinstance(draft.get("schedule_pickup"), bool):
            screen.set_schedule_pickup(draft["schedule_pickup"])
        if fit == "lane":
            screen.set_status(
                f"Restored what you typed earlier for {screen.request.origin_postal_code} → "
                f"{screen.request.dest_postal_code} (quote {draft.get('quote_id')})."
            )
        else:
            screen.set_status("Restored your unsent booking form.")

    def schedule(self) -> None:
        """Save the form's values after DRAFT_DELAY (a newer change restarts the wait)."""
        screen = self.screen
        self._pending = book_form.draft_data(
            screen.quote,
            screen.rate,
            screen.request,
            screen.origin.values(),
            screen.dest.values(),
            screen.schedule_pickup(),
        )
        if self._timer is not None:
            self._timer.stop()
        self._timer = screen.set_timer(DRAFT_DELAY, self.save)

    def save(self) -> None:
        """Write the pending values to the draft store now (after the wait, and on leaving)."""
        data, self._pending = self._pending, None
        if data is not None:
            self.screen.host.session.drafts.save(book_form.DRAFT_NAME, data)

    def clear(self) -> None:
        """Forget the draft (the booking was sent)."""
        self._pending = None
        self.screen.host.session.drafts.clear(book_form.DRAFT_NAME)
