"""The booking form's starting values and its draft: prefill, restore, debounced save."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from tui.drafts import damaged_note, draft_writer
from tui.forms import booking as book_form

if TYPE_CHECKING:
    from textual.timer import Timer

    from tui.api.models import Quote, Rate, RateRequest
    from tui.config.settings import Location
    from tui.drafts import DraftStore

DRAFT_DELAY = 0.3
"""Seconds of quiet after a change before the draft is written."""

RESTORE_WAIT = 2.0
"""Seconds a reopened form waits at most for the last save of the draft to reach the disk."""

Part = Literal["origin", "dest", "pickup"]
"""A part of the booking form that takes values by field name."""

Fill = list[tuple[Part, dict[str, Any]]]
"""Values to put into the form, part by part, in order (a later one over an earlier)."""


def prefill(
    book: Sequence[Location],
    request: RateRequest,
    default_origin: Location | None,
    *,
    hours: bool,
) -> Fill:
    """Each end from the address book entry for its ZIP (``book``: as the store holds it;
    origin: the profile's default origin too), then what the quote said of it; the pickup
    day and reference as quoted."""
    fill: Fill = []
    origin = book_form.find_location(book, request.origin_postal_code, default_origin)
    if origin is not None:
        fill.append(("origin", book_form.location_values(origin, dock_hours=hours)))
    dest = book_form.find_location(book, request.dest_postal_code)
    if dest is not None:
        fill.append(("dest", book_form.location_values(dest, dock_hours=hours)))
    for side in ("origin", "dest"):
        quoted = book_form.request_values(request, side)
        if quoted:
            fill.append((side, quoted))
    if request.pickup_date is not None:
        fill.append(("pickup", {"date": request.pickup_date.isoformat()}))
    reference = book_form.quoted_reference(request)
    if reference:
        fill.append(("pickup", {"reference": reference}))
    return fill


class BookDraft:
    """Keeps one booking form's draft: put back what was typed, save it after a quiet spell,
    forget it once booked. Saves and removals go through the draft's one writer thread
    (`draft_writer`), so the form never waits for the disk."""

    def __init__(
        self,
        drafts: Callable[[], DraftStore],
        rated: tuple[Quote, Rate, RateRequest],
        read: Callable[[], dict[Part, dict[str, Any]]],
        set_timer: Callable[[float, Callable[[], object]], Timer],
    ) -> None:
        """``drafts``: the active profile's store; ``rated``: what the form books; ``read``:
        the form's values by part; ``set_timer``: the form's timer (stopped with it)."""
        self._drafts = drafts
        self._rated = rated
        self._read = read
        self._set_timer = set_timer
        self._timer: Timer | None = None
        self._pending: dict[str, Any] | None = None
        self._writer = draft_writer(book_form.DRAFT_NAME)
        """Writes the draft off the event loop, in the order asked (`DraftWriter`)."""

    def restore(self) -> tuple[Fill, str | None, bool]:
        """What was typed for this quote (or this lane) and not sent, and a note about it
        (problem: the draft was damaged)."""

        self._writer.wait(RESTORE_WAIT)  # the form's last save, if still on its way
        read = self._drafts().read(book_form.DRAFT_NAME)
        note = damaged_note("the booking form", read) if read.damaged else None
        draft = read.data
        if not draft:
            return [], note, note is not None
        quote, rate, request = self._rated
        fit = book_form.draft_fits(draft, quote, rate, request)
        if fit == "other":
            return [], note, note is not None
        fill: Fill = [
            (part, draft[part])
            for part in ("origin", "dest", "pickup")
            if isinstance(draft.get(part), dict)
        ]
        if not isinstance(draft.get("pickup"), dict) and isinstance(
            draft.get("schedule_pickup"), bool
        ):  # a draft from before the section
            fill.append(("pickup", {"schedule": draft["schedule_pickup"]}))
        if fit == "lane":
            return (
                fill,
                f"Restored what you typed earlier for {request.origin_postal_code} → "
                f"{request.dest_postal_code} (quote {draft.get('quote_id')}).",
                False,
            )
        return fill, "Restored your unsent booking form.", False

    def schedule(self) -> None:
        """Save the form's values after DRAFT_DELAY (a newer change restarts the wait)."""
        quote, rate, request = self._rated
        values = self._read()
        self._pending = book_form.draft_data(
            quote, rate, request, values["origin"], values["dest"], values["pickup"]
        )
        if self._timer is not None:
            self._timer.stop()
        self._timer = self._set_timer(DRAFT_DELAY, self.save)

    def save(self) -> None:
        """Write the pending values to the draft store now (after the wait, and on leaving)."""
        data, self._pending = self._pending, None
        if data is not None:
            self._writer.save(self._drafts(), data)

    def clear(self) -> None:
        """Forget the draft (the booking was sent)."""
        self._pending = None
        self._writer.clear(self._drafts())
