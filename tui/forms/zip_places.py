"""City, state and time zone of a US ZIP code from the offline `zipcodes` data, read on demand.

The data takes a second or two to read, so nothing here touches it until `load()` is called
(the quote screen does that in a thread after its first frame); until then `place()` says
nothing rather than "unknown".
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True, slots=True)
class ZipPlace:
    """Where a ZIP code is: `Chicago, IL`, and its time zone (`America/Chicago`)."""

    city: str
    state: str
    timezone: str

    @property
    def name(self) -> str:
        """`Chicago, IL`."""
        return f"{self.city}, {self.state}"


_lock = threading.Lock()
_index: dict[str, ZipPlace] | None = None


def load() -> None:
    """Read the ZIP data once (blocking: call it off the UI thread)."""
    global _index
    with _lock:
        if _index is not None:
            return
        import zipcodes

        rows = zipcodes.list_all()  # type: ignore[no-untyped-call]
        _index = {
            str(row["zip_code"]): ZipPlace(
                city=str(row.get("city") or "").title(),
                state=str(row.get("state") or ""),
                timezone=str(row.get("timezone") or ""),
            )
            for row in rows
        }


def use_index(index: dict[str, ZipPlace] | None) -> None:
    """Replace the data (tests give a few ZIPs; None forgets it, as before `load()`)."""
    global _index
    _index = index


def is_loaded() -> bool:
    """Whether `place()` can tell a known ZIP from an unknown one yet."""
    return _index is not None


def place(code: str) -> ZipPlace | None:
    """The place of a 5-digit ZIP (or ZIP+4), or None when unknown or not loaded yet."""
    if _index is None:
        return None
    return _index.get(code.strip()[:5])


def is_unknown(code: str) -> bool:
    """True only when the data is loaded and has no such ZIP."""
    return _index is not None and code.strip()[:5] not in _index


def today_at(code: str, now: datetime) -> date:
    """The date at the ZIP's time zone at `now` (aware); the local date when the zone is unknown."""
    found = place(code)
    if found is not None and found.timezone:
        # Here, not at the top: the first frame needs no zone (the ZIP data comes after it).
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            return now.astimezone(ZoneInfo(found.timezone)).date()
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return now.astimezone().date()
