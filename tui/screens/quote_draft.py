"""The quote form's draft: the form it starts from (restored, or fresh from the default
origin), the throttled save as the user types, and loading a whole draft into the form."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from tui.domain.accessorials import Accessorial, parse_accessorials
from tui.domain.quote_form import QuoteDraft
from tui.drafts import damaged_note
from tui.forms.quote_marks import FieldMarks

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.timer import Timer
    from textual.widgets import Input

    from tui.host import Host
    from tui.widgets.drop_down import DropDown
    from tui.widgets.items_editor import ItemsEditor
    from tui.widgets.location_picker import LocationPicker

DRAFT_NAME = "quote"
SAVE_DELAY = 0.3

SHIPMENT_FIELDS = ("pickup_date", "po_number", "shipper_reference")
"""The shipment inputs under the grid, in order."""


class QuoteForm(Protocol):
    """What the draft and the dialogs need of the quote screen, and no more."""

    marks: FieldMarks
    accessorials: tuple[Accessorial, ...]
    emergency: tuple[str, str]
    types: dict[str, str]
    """Each end's location type as last seen (a change may offer a liftgate)."""

    @property
    def host(self) -> Host: ...

    @property
    def editor(self) -> ItemsEditor: ...

    @property
    def origin_picker(self) -> LocationPicker: ...

    @property
    def dest_picker(self) -> LocationPicker: ...

    @property
    def mode_select(self) -> DropDown: ...

    def draft(self) -> QuoteDraft: ...

    def shipment_input(self, name: str) -> Input: ...

    def revalidate(self) -> QuoteDraft: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


class QuoteDraftKeeper:
    """Starts a quote screen's form from its draft and keeps the draft as the user types."""

    def __init__(self, screen: QuoteForm) -> None:
        self.screen = screen
        self._timer: Timer | None = None
        self._pending: QuoteDraft | None = None
        self._word: tuple[str, SeverityLevel] | None = None
        """What to say of the draft the form came back from, once it is on screen."""

    def initial(self) -> QuoteDraft:
        """The draft to show first: the one saved, else a fresh one; its filled fields count
        as touched."""

        read = self.screen.host.session.drafts.read(DRAFT_NAME)
        if read.damaged:
            self._word = (damaged_note("the quote", read), "warning")
        if read.data is None:
            return self.fresh()
        draft = QuoteDraft.from_dict(read.data)
        self.screen.marks.reset(draft.filled_fields())
        if draft != self.fresh():
            when = read.saved_at.astimezone() if read.saved_at is not None else None
            saved = f" (saved {when:%a %H:%M})" if when is not None else ""
            self._word = (
                f"Restored the quote you were typing{saved}. To start afresh: ctrl+p, "
                "Clear the quote.",
                "information",
            )
        return draft

    def say_word(self) -> None:
        """Say that the form came back from its draft (or that a damaged one was kept aside)."""
        if self._word is not None:
            message, severity = self._word
            self._word = None
            self.screen.notify(message, title="Quote draft", severity=severity, timeout=8)

    def fresh(self) -> QuoteDraft:
        """An empty form from the default origin, with its usual pickup accessorials."""
        origin = self.screen.host.session.origin_sketch()  # the first frame needs no profile
        if origin is None:
            return QuoteDraft()
        usual = [a for a in parse_accessorials(origin.accessorials) if a.end != "delivery"]
        return QuoteDraft(
            origin_zip=origin.postal_code,
            origin_type=origin.location_type,
            accessorials=tuple(usual),
        )

    def changed(self) -> None:
        """The form changed: check it again, and save it soon."""
        self._pending = self.screen.revalidate()
        # A throttle, not a debounce: steady typing is still saved every SAVE_DELAY seconds.
        if self._timer is None:
            self._timer = self.screen.set_timer(SAVE_DELAY, self.flush)

    def flush(self) -> None:
        """Write the pending draft now (leaving the screen, asking for rates)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        pending, self._pending = self._pending, None
        if pending is not None:
            self.screen.host.session.drafts.save(DRAFT_NAME, pending.to_dict())

    def clear(self) -> QuoteDraft:
        """Forget the saved draft; the fresh form to load instead."""
        self.screen.host.session.drafts.clear(DRAFT_NAME)
        return self.fresh()

    async def load(self, draft: QuoteDraft) -> None:
        """Put a whole draft into the form (Clear the quote)."""
        screen = self.screen
        screen.types = {"origin": draft.origin_type, "dest": draft.dest_type}
        screen.accessorials = draft.accessorials
        screen.emergency = (draft.emergency_name, draft.emergency_phone)
        for name in SHIPMENT_FIELDS:
            screen.shipment_input(name).value = getattr(draft, name)
        screen.origin_picker.set_location(draft.origin_zip, draft.origin_type)
        screen.dest_picker.set_location(draft.dest_zip, draft.dest_type)
        screen.mode_select.value = draft.mode
        editor = screen.editor
        for row in editor.rows:
            await row.remove()
        for item in draft.items:
            await editor.add_row(item)
        screen.marks.reset(draft.filled_fields())
        self.changed()
