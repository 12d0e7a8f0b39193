"""The booking form's two ends and the address book: fill the focused end from an entry, or
save it to the book."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.message import Message

from tui.domain.postal import same_postal_code
from tui.domain.safe_text import plain
from tui.forms import booking as book_form
from tui.forms.book_times import MIN_PICKUP_WINDOW
from tui.host import host_of
from tui.screens.book_address_book import BookAddressesScreen
from tui.service_call import WorkerErrorsToHost
from tui.widgets.contact_form import ContactForm, Side

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from textual.app import ComposeResult

    from tui.config.settings import Location


ENDS: tuple[tuple[Side, str, tuple[str, tuple[str, str], timedelta | None]], ...] = (
    ("origin", "Origin", ("Ready", ("ready", "close"), MIN_PICKUP_WINDOW)),
    ("dest", "Destination", ("Receive", ("open", "close"), None)),
)
"""Each end: its side, its title, and its dock hours (label, names, shortest window)."""


class BookEnds(WorkerErrorsToHost, Horizontal):
    """Origin and destination side by side; the address book acts on the end last focused."""

    class Noted(Message):
        """A line for the form's status (problem: shown in red)."""

        def __init__(self, text: str, problem: bool = False) -> None:
            super().__init__()
            self.text = text
            self.problem = problem

    def __init__(
        self,
        origin_postal_code: str,
        dest_postal_code: str,
        *,
        parcel: bool,
        type_note: Callable[[Side, Location], str | None] = lambda side, entry: None,
        id: str,
    ) -> None:
        """``type_note`` says what is wrong with an entry's location type at an end (the
        rate was quoted for another), or None."""
        super().__init__(id=id)
        self._type_note = type_note
        self.postal_codes = {"origin": origin_postal_code, "dest": dest_postal_code}
        self.parcel = parcel
        self.side: Side = "origin"

    def compose(self) -> ComposeResult:
        for side, name, (label, names, window) in ENDS:
            yield ContactForm(
                side,
                f"{name} · {self.postal_codes[side]}",
                email=self.parcel,
                dock_hours=not self.parcel,
                hours_label=label,
                hours_names=names,
                min_window=window,
                id=f"book-{side}",
            )

    def end(self, side: Side) -> ContactForm:
        """The form of one end."""
        return self.query_one(f"#book-{side}", ContactForm)

    def on_descendant_focus(self) -> None:
        focused = self.screen.focused
        if focused is not None:
            for form in (self.end("origin"), self.end("dest")):
                if focused in form.walk_children():
                    self.side = form.side

    def _current(self) -> ContactForm:
        return self.end(self.side)

    async def read_book(self) -> Sequence[Location] | None:
        """The address book as the store holds it now (None, and a note, if unreadable)."""
        try:
            return await asyncio.to_thread(host_of(self).session.address_book)
        except OSError as error:
            self.post_message(
                self.Noted(f"The address book cannot be read: {plain(str(error))}", True)
            )
            return None

    def pick(self) -> None:
        """Fill the focused end from a saved address (the book read in a worker)."""
        self.run_worker(self._pick(self._current()), group="book-addresses", exclusive=True)

    async def _pick(self, form: ContactForm) -> None:

        entries = await self.read_book()
        if entries is None:
            return

        def fill(entry: Location | None) -> None:
            if entry is not None:
                form.set_values(book_form.location_values(entry, dock_hours=form.dock_hours))
                self.post_message(form.Changed(form))
                what = form.title.split(" ·")[0].lower()
                warned = self._type_note(form.side, entry)
                said = f"Filled {what} from {plain(entry.label)}."
                self.post_message(self.Noted(f"{said} {warned}" if warned else said, bool(warned)))

        title = form.title.split(" ·")[0]
        self.app.push_screen(
            BookAddressesScreen(entries, self.postal_codes[form.side], title), fill
        )

    def save(self) -> None:
        """Save the focused end to the address book (same company and ZIP: replaced)."""
        self.run_worker(self._save(self._current()), group="book-save-address")

    async def _save(self, form: ContactForm) -> None:
        """Reads and writes the store off the event loop."""
        values = form.values()
        errors = form.errors(for_booking=False)
        if not values["company"].strip() or errors:
            self.post_message(
                self.Noted("Fill in a company (and fix marked fields) before saving.", True)
            )
            return
        postal = self.postal_codes[form.side]
        entry = book_form.location_from_values(values, postal)
        session = host_of(self).session

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
            self.post_message(
                self.Noted(f"Could not save the address book: {plain(str(error))}", True)
            )
            return
        self.post_message(self.Noted(f"Saved {saved.company} ({postal}) to the address book."))
