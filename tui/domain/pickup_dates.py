"""Pickup dates as a shipper types them: 2026-11-23, 11-23, 11/23, today, tomorrow, +2, friday."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Final

WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MAX_DAYS_AHEAD: Final = 365
FORMS: Final = "YYYY-MM-DD, MM-DD, MM/DD, today, tomorrow, +2 or a weekday"

_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_MONTH_DAY = re.compile(r"^(\d{1,2})[-/](\d{1,2})$")
_PLUS = re.compile(r"^\+\s*(\d{1,3})$")


def is_business_day(day: date) -> bool:
    """Monday to Friday (carriers pick up on weekdays)."""
    return day.weekday() < 5


def next_business_day(today: date) -> date:
    """The first weekday after `today` (the default pickup)."""
    day = today + timedelta(days=1)
    while not is_business_day(day):
        day += timedelta(days=1)
    return day


def short_date(day: date) -> str:
    """`Mon Nov 23`."""
    return f"{WEEKDAYS[day.weekday()][:3].title()} {day:%b} {day.day}"


def _weekday(text: str, today: date) -> date | None:
    if len(text) < 2:
        return None
    matches = [index for index, name in enumerate(WEEKDAYS) if name.startswith(text)]
    if len(matches) != 1:
        return None
    return today + timedelta(days=(matches[0] - today.weekday()) % 7)


def _month_day(month: int, day: int, today: date) -> date:
    """The date nearest `today` with this month and day (01-05 in December is next January)."""
    candidates: list[date] = []
    for year in (today.year - 1, today.year, today.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    if not candidates:
        raise ValueError(f"no such day {month:02d}-{day:02d}")
    return min(candidates, key=lambda found: abs((found - today).days))


def _read(text: str, today: date) -> date:
    value = " ".join(text.strip().lower().split())
    words = value.split()
    if len(words) == 2 and words[0][:3] in {name[:3] for name in WEEKDAYS}:
        value = words[1]  # `Mon 2026-11-23`, a day as a form reads it back
    if not value:
        return next_business_day(today)
    if value in ("today", "tod"):
        return today
    if value in ("tomorrow", "tom", "tmrw"):
        return today + timedelta(days=1)
    plus = _PLUS.match(value)
    if plus:
        return today + timedelta(days=int(plus.group(1)))
    iso = _ISO.match(value)
    month_day = _MONTH_DAY.match(value)
    try:
        if iso:
            return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
        if month_day:
            return _month_day(int(month_day.group(1)), int(month_day.group(2)), today)
    except ValueError:
        raise ValueError(f"no such day {value}") from None
    weekday = _weekday(value, today)
    if weekday is not None:
        return weekday
    raise ValueError(f"type {FORMS}")


def parse_pickup_date(text: str, today: date, *, max_days_ahead: int = MAX_DAYS_AHEAD) -> date:
    """The pickup day `text` names (blank: the next business day); weekends and the past refused.

    `today` is the date at the origin; a booking passes the carriers' shorter horizon as
    `max_days_ahead`. Raises ValueError with the message for the field.
    """
    day = _read(text, today)
    if day < today:
        raise ValueError(f"{short_date(day)} has passed; pick today or later")
    if not is_business_day(day):
        following = next_business_day(day)
        raise ValueError(
            f"{short_date(day)} is a weekend; carriers pick up Monday to Friday "
            f"(next: {short_date(following)})"
        )
    if (day - today).days > max_days_ahead:
        if max_days_ahead == MAX_DAYS_AHEAD:
            raise ValueError(f"{day.isoformat()} is more than a year ahead")
        raise ValueError(f"carriers book pickups up to {max_days_ahead} days ahead")
    return day
