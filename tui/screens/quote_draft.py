"""The quote form's draft: the form it starts from (restored, or fresh from the default
origin) and the throttled save as the user types, written off the event loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tui.domain.accessorials import parse_accessorials
from tui.domain.quote_form import QuoteDraft
from tui.drafts import BOOKED, damaged_note, draft_writer

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.timer import Timer

    from tui.session import Session

DRAFT_NAME = "quote"
SAVE_DELAY = 0.3
CLOSE_WAIT = 10.0
"""Seconds leaving the form waits at most for its last draft to reach the disk."""


class QuoteDraftKeeper:
    """Reads the quote's draft from the session's drafts and saves the form as it is typed:
    `check` reads (and checks) the form as typed, `schedule` runs a callback after a delay."""

    def __init__(
        self,
        session: Session,
        *,
        check: Callable[[], QuoteDraft],
        schedule: Callable[[float, Callable[[], None]], Timer],
    ) -> None:
        self._session = session
        self._check = check
        self._schedule = schedule
        self._timer: Timer | None = None
        self._pending: QuoteDraft | None = None
        self._writer = draft_writer(DRAFT_NAME)
        """Writes the draft on a thread, in order (see `DraftWriter`), as the booking's mark
        does (`mark_booked`)."""
        self.restored = False
        """True when the first draft came from the store (its filled fields count as touched)."""
        self.word: tuple[str, SeverityLevel] | None = None
        """What to say of the draft the form came back from, once it is on screen."""
        self.booked: str | None = None
        """The booking ledger's reference when the draft restored was booked already."""

    def initial(self) -> QuoteDraft:
        """The draft to show first: the one saved, else a fresh one."""

        read = self._session.drafts.read(DRAFT_NAME)
        if read.damaged:
            self.word = (damaged_note("the quote", read), "warning")
        if read.data is None:
            return self.fresh()
        draft = QuoteDraft.from_dict(read.data)
        self.restored = True
        booked = read.data.get(BOOKED)
        if isinstance(booked, str) and booked:
            self.booked = booked  # said by a dialog instead
        elif draft != self.fresh():
            when = read.saved_at.astimezone() if read.saved_at is not None else None
            saved = f" (saved {when:%a %H:%M})" if when is not None else ""
            self.word = (
                f"Restored the quote you were typing{saved}. To start afresh: ctrl+p, "
                "Clear the quote.",
                "information",
            )
        return draft

    def fresh(self) -> QuoteDraft:
        """An empty form from the default origin, with its usual pickup accessorials."""
        origin = self._session.origin_sketch()  # the first frame needs no profile
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
        self._pending = self._check()
        # A throttle, not a debounce: steady typing is still saved every SAVE_DELAY seconds.
        if self._timer is None:
            self._timer = self._schedule(SAVE_DELAY, self.flush)

    def flush(self) -> None:
        """Start writing the pending draft now (asking for rates; the timer's save), off the
        event loop: see `DraftWriter`."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        pending, self._pending = self._pending, None
        if pending is not None:
            self._writer.save(self._session.drafts, pending.to_dict())

    def close(self) -> None:
        """Write the pending draft and wait until every draft asked for is on disk (the form
        is leaving, maybe with the app: what was typed must be there before it exits)."""
        self.flush()
        self._writer.wait(CLOSE_WAIT)

    @property
    def writing(self) -> bool:
        """True while a draft is on its way to the disk."""
        return self._writer.busy

    def clear(self) -> QuoteDraft:
        """Forget the saved draft (after any write still on its way); the fresh form to load
        instead."""
        self.booked = None
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._pending = None
        self._writer.clear(self._session.drafts)
        return self.fresh()

    def keep_as_new(self) -> None:
        """The booked draft's values are kept for another shipment: no longer marked."""
        self.booked = None
        self._pending = self._check()
        self.flush()
