"""The booking form and the address book: fill one end from an entry, or save one end to it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tui.domain.postal import same_postal_code
from tui.domain.safe_text import plain
from tui.forms import booking as book_form
from tui.screens.book_address_book import BookAddressesScreen

if TYPE_CHECKING:
    from tui.config.settings import Location
    from tui.screens.book_draft import BookingForm
    from tui.widgets.contact_form import ContactForm


def postal_code(screen: BookingForm, form: ContactForm) -> str:
    """The shipment's ZIP at this end of the form."""
    if form.side == "origin":
        return screen.request.origin_postal_code
    return screen.request.dest_postal_code


def address_picker(
    screen: BookingForm, form: ContactForm, entries: Sequence[Location]
) -> tuple[BookAddressesScreen, Callable[[Location | None], None]]:
    """The address book dialog over ``entries`` (as the store holds them) for ``form``'s end,
    and what fills ``form`` from the pick."""

    def fill(entry: Location | None) -> None:
        if entry is not None:
            values = book_form.location_values(entry, dock_hours=form.dock_hours)
            form.set_values(values)
            screen.draft.schedule()
            screen.set_status(f"Filled {form.title.split(' ·')[0].lower()} from {entry.label}.")

    title = form.title.split(" ·")[0]
    return BookAddressesScreen(entries, postal_code(screen, form), title), fill


async def save_to_book(screen: BookingForm, form: ContactForm) -> None:
    """Save ``form``'s end to the address book in the store (same company and ZIP, as the
    store holds it now: replaced). Reads and writes the store off the event loop."""
    values = form.values()
    errors = form.errors(for_booking=False)
    if not values["company"].strip() or errors:
        screen.set_status("Fill in a company (and fix marked fields) before saving.", True)
        return
    postal = postal_code(screen, form)
    entry = book_form.location_from_values(values, postal)
    session = screen.host.session

    def save() -> Location:
        book = session.address_book()
        same = [
            old
            for old in book
            if old.company == entry.company and same_postal_code(old.postal_code, postal)
        ]
        kept = entry
        if same:  # what the form does not show (label, city, location type…) stays as it was
            kept = same[0].model_copy(update=book_form.shown_fields(entry, same[0], values))
        session.save_address(kept, same)
        return kept

    try:
        saved = await asyncio.to_thread(save)
    except OSError as error:
        screen.set_status(f"Could not save the address book: {plain(str(error))}", True)
        return
    screen.set_status(f"Saved {saved.company} ({postal}) to the address book.")
