"""A shipment's tracking timeline as Rich text: newest first, in the viewer's local time."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rich.text import Text

from tui.domain.safe_text import plain
from tui.listing.status import status_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tui.api.models import TrackingEvent

_FLOOR = datetime.min.replace(tzinfo=UTC)


def local_when(moment: datetime | None) -> str:
    """`Mon 11-23 14:05 CST`: the moment on the viewer's clock, named by its zone."""
    if moment is None:
        return "time unknown"
    return moment.astimezone().strftime("%a %m-%d %H:%M %Z")


def events_shown(
    recorded: Sequence[TrackingEvent], tracked: Sequence[TrackingEvent]
) -> list[TrackingEvent]:
    """The events the app and the CLI show: the tracking endpoint's (``tracked``) when it has
    more than the shipment record's, else the record's, so both name them alike."""
    return list(tracked if len(tracked) > len(recorded) else recorded)


def timeline_text(events: Sequence[TrackingEvent], *, source: str = "") -> Text:
    """`Tracking events` then one line per event, newest first (events with no time last).

    `source` is a dim note on the heading (e.g. where the events came from).
    """
    text = Text("Tracking events", style="bold")
    if source:
        text.append(f"  {source}", style="dim")
    if not events:
        text.append("  none yet", style="dim")
        return text
    ordered = sorted(events, key=lambda e: e.time or _FLOOR, reverse=True)
    for event in ordered:
        text.append(f"\n  {local_when(event.time)}  ")
        text.append_text(status_text(event.status or ""))
        details = " · ".join(
            part for part in (event.description, event.location) if part and part != event.status
        )
        if details:
            text.append(f"  {plain(details)}")
    return text
