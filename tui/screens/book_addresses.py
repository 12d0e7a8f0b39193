"""The booking form and the address book: fill one end from an entry, or save one end to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tui.domain.postal import same_postal_code
from tui.forms import booking as book_form

if TYPE_CHECKING:
    from tui.config.settings import Location
    from tui.screens.book_address_book import BookAddressesScreen
    from tui.screens.book_draft import BookingForm
    from tui.widgets.contact_form import ContactForm


def postal_code(screen: BookingForm, form: ContactForm) -> str:
    """The shipment's ZIP at this end of the form."""
    if form.side == "origin":
        return screen.request.origin_postal_code
    return screen.request.dest_postal_code


def address_picker(
    screen: BookingForm, form: ContactForm
) -> tuple[BookAddressesScreen, Callable[[Location | None], None]]:
    """The address book dialog for ``form``'s end, and what fills ``form`` from the pick."""
    from tui.screens.book_address_book import BookAddressesScreen

    entries = screen.host.session.profile.address_book

    def fill(entry: Location | None) -> None:
        if entry is not None:
            values = book_form.location_values(entry, dock_hours=form.dock_hours)
            form.set_values(values)
            screen.draft.schedule()
            screen.set_status(f"Filled {form.title.split(' ·')[0].lower()} from {entry.label}.")

    title = form.title.split(" ·")[0]
    return BookAddressesScreen(entries, postal_code(screen, form), title), fill


def save_to_book(screen: BookingForm, form: ContactForm) -> None:
    """Save ``form``'s end to the address book (same company and ZIP: replaced)."""
    values = form.values()
    errors = form.errors(for_booking=False)
    if not values["company"].strip() or errors:
        screen.set_status("Fill in a company (and fix marked fields) before saving.", True)
        return
    postal = postal_code(screen, form)
    entry = book_form.location_from_values(values, postal)
    session = screen.host.session
    same = [
        old
        for old in session.profile.address_book
        if old.company == entry.company and same_postal_code(old.postal_code, postal)
    ]
    if same:  # what the form does not show (label, city, location type…) stays as it was
        entry = same[0].model_copy(update=book_form.shown_fields(entry, same[0], values))
    book = [old for old in session.profile.address_book if old not in same]
    try:
        session.change_profile(address_book=[*book, entry])
    except OSError as error:
        screen.set_status(f"Could not save the address book: {error}", True)
        return
    screen.set_status(f"Saved {entry.company} ({postal}) to the address book.")
