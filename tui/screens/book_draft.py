"""The booking form's starting values and its draft: prefill, restore, debounced save."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from tui.domain.safe_text import plain
from tui.drafts import damaged_note
from tui.forms import booking as book_form

if TYPE_CHECKING:
    from textual.timer import Timer

    from tui.api.models import Quote, Rate, RateRequest
    from tui.config.settings import Location
    from tui.host import Host
    from tui.widgets.contact_form import ContactForm
    from tui.widgets.pickup_form import PickupForm

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
    def pickup(self) -> PickupForm: ...

    @property
    def draft(self) -> BookDraft: ...

    def set_status(self, text: str, problem: bool = False) -> None: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...


class BookDraft:
    """Fills a booking screen's form (address book, then draft) and keeps its draft."""

    def __init__(self, screen: BookingForm) -> None:
        self.screen = screen
        self._timer: Timer | None = None
        self._pending: dict[str, Any] | None = None

    def fill(self, book: Sequence[Location], then: Callable[[], object]) -> None:
        """Prefill from ``book``, restore the draft over it, then ``then``."""
        self.prefill(book)
        self.restore()
        then()

    async def read_book(self, fill_then: Callable[[], object] | None) -> None:
        """Read the address book from the store (another station may have saved to it, and
        the next form is filled from it at once); with ``fill_then``, fill the form from it
        (it was not filled yet)."""
        screen = self.screen
        try:
            book = await asyncio.to_thread(screen.host.session.address_book)
        except OSError as error:
            book = []
            screen.set_status(f"The address book cannot be read: {plain(str(error))}", True)
        if fill_then is not None:
            self.fill(book, fill_then)

    def prefill(self, book: Sequence[Location]) -> None:
        """Each end from the address book entry for its ZIP (``book``: as the store holds it;
        origin: the profile's default origin too), then what the quote said of it; the pickup
        day and reference as quoted."""
        screen = self.screen
        request = screen.request
        profile = screen.host.session.profile
        hours = not screen.parcel
        origin = book_form.find_location(book, request.origin_postal_code, profile.default_origin)
        if origin is not None:
            screen.origin.set_values(book_form.location_values(origin, dock_hours=hours))
        dest = book_form.find_location(book, request.dest_postal_code)
        if dest is not None:
            screen.dest.set_values(book_form.location_values(dest, dock_hours=hours))
        for form, side in ((screen.origin, "origin"), (screen.dest, "dest")):
            quoted = book_form.request_values(request, side)
            if quoted:
                form.set_values(quoted)
        if request.pickup_date is not None:
            screen.pickup.set_values({"date": request.pickup_date.isoformat()})
        reference = book_form.quoted_reference(request)
        if reference:
            screen.pickup.set_values({"reference": reference})

    def restore(self) -> None:
        """Put back what was typed for this quote (or this lane) and not sent."""

        screen = self.screen
        read = screen.host.session.drafts.read(book_form.DRAFT_NAME)
        if read.damaged:
            screen.set_status(damaged_note("the booking form", read), True)
        draft = read.data
        if not draft:
            return
        fit = book_form.draft_fits(draft, screen.quote, screen.rate, screen.request)
        if fit == "other":
            return
        if isinstance(draft.get("origin"), dict):
            screen.origin.set_values(draft["origin"])
        if isinstance(draft.get("dest"), dict):
            screen.dest.set_values(draft["dest"])
        if isinstance(draft.get("pickup"), dict):
            screen.pickup.set_values(draft["pickup"])
        elif isinstance(draft.get("schedule_pickup"), bool):  # a draft from before the section
            screen.pickup.set_values({"schedule": draft["schedule_pickup"]})
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
            screen.pickup.values(),
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
