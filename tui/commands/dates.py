"""Pickup date ranges for ``--pickup`` shortcuts and ``--from``/``--to`` dates."""

from __future__ import annotations

from datetime import date, timedelta

from tui.commands.exits import UsageError
from tui.listing import dates as listing_dates

SHORTCUTS = tuple(
    value for value, _label in listing_dates.SHORTCUTS if value not in ("any", "custom")
)
"""The shipments screen's pickup shortcuts (weeks run Monday to Sunday)."""


def shortcut_range(name: str, today: date) -> tuple[date, date]:
    """The inclusive (from, to) of a shortcut, as the shipments screen computes it."""
    start, end = listing_dates.shortcut_range(name, today)
    if start is None or end is None:
        raise UsageError(f"--pickup: must be one of {', '.join(SHORTCUTS)}")
    return start, end


def parse_day(flag: str, text: str, today: date) -> date:
    """``YYYY-MM-DD``, ``today``, ``yesterday`` or ``tomorrow``; a UsageError names the flag."""
    word = text.strip().lower()
    relative = {"today": 0, "yesterday": -1, "tomorrow": 1}
    if word in relative:
        return today + timedelta(days=relative[word])
    try:
        if len(word) != 10:
            raise ValueError
        return date.fromisoformat(word)
    except ValueError:
        raise UsageError(f"{flag}: {text!r} is not a date YYYY-MM-DD (or today)") from None


def pickup_range(
    shortcut: str | None, start: str | None, end: str | None, today: date
) -> tuple[date | None, date | None]:
    """The pickup range asked for; a shortcut and typed dates together are a usage error."""
    if shortcut is not None:
        if start is not None or end is not None:
            raise UsageError("--pickup cannot be combined with --from or --to")
        return shortcut_range(shortcut, today)
    first = parse_day("--from", start, today) if start is not None else None
    last = parse_day("--to", end, today) if end is not None else None
    if first is not None and last is not None and last < first:
        raise UsageError("--to: must not be before --from")
    return first, last
