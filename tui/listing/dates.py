"""Pickup date shortcuts (today, this week, …) and typed YYYY-MM-DD dates."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("any", "any date"),
    ("today", "today"),
    ("this-week", "this week"),
    ("this-month", "this month"),
    ("last-7-days", "last 7 days"),
    ("custom", "typed dates"),
)
"""(value, label) of each pickup range shortcut."""


def shortcut_range(name: str, today: date) -> tuple[date | None, date | None]:
    """The inclusive (from, to) of a shortcut; weeks run Monday to Sunday."""
    if name == "today":
        return today, today
    if name == "this-week":
        monday = today - timedelta(days=today.weekday())
        return monday, monday + timedelta(days=6)
    if name == "this-month":
        last = calendar.monthrange(today.year, today.month)[1]
        return today.replace(day=1), today.replace(day=last)
    if name == "last-7-days":
        return today - timedelta(days=6), today
    return None, None


def matching_shortcut(start: date | None, end: date | None, today: date) -> str:
    """The shortcut whose range is (start, end), else `custom` (`any` when both are empty)."""
    if start is None and end is None:
        return "any"
    for value, _label in SHORTCUTS:
        if value not in ("any", "custom") and shortcut_range(value, today) == (start, end):
            return value
    return "custom"


def parse_date(text: str) -> date | None:
    """A typed YYYY-MM-DD date; empty text is None; anything else raises ValueError."""
    text = text.strip()
    if not text:
        return None
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        raise ValueError("type a date as YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text} is not a calendar date") from None
