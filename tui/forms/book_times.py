"""Pickup day and dock times as people type them (9am, 0900, 16:30, tomorrow, +2), checked."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta

from tui.domain.pickup_dates import (
    US,
    carrier_closure,
    next_business_day,
    parse_pickup_date,
    short_date,
)

MIN_PICKUP_WINDOW = timedelta(minutes=90)
"""Carriers want the ready-to-close pickup window at least this long (some ask two hours)."""

TIME_EXAMPLES = "a time like 9:00, 9am, 0900 or 16:30"

_CLOCK = re.compile(r"^(\d{1,2})(?:[:.h](\d{2}))?\s*([ap])\.?\s*(?:m\.?)?$|^(\d{1,2})[:.h](\d{2})$")
_DIGITS = re.compile(r"^\d{3,4}$")
_DIGITS_MERIDIEM = re.compile(r"^(\d{1,2})(\d{2})(\s*[ap])")
MAX_DAYS_AHEAD = 30
"""Carriers take pickups this many days ahead at most."""
SAME_DAY_CUTOFF = "14:00"
"""Carriers want a same-day pickup requested before about this local time."""


def parse_time_of_day(text: str) -> time:
    """`9:00`, `9am`, `9:30 PM`, `0900`, `930`, `16:30`, `noon` -> a time; ValueError otherwise."""
    value = " ".join(text.strip().lower().split())
    if value in ("noon", "midday"):
        return time(12, 0)
    value = _DIGITS_MERIDIEM.sub(r"\1:\2\3", value)  # 930am, 1030 pm
    if _DIGITS.match(value):
        hour, minute = int(value[:-2]), int(value[-2:])
        return _clock(hour, minute)
    match = _CLOCK.match(value)
    if match is None:
        raise ValueError(f"enter {TIME_EXAMPLES}")
    if match.group(4) is not None:
        return _clock(int(match.group(4)), int(match.group(5)))
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if not 1 <= hour <= 12:
        raise ValueError("with am/pm the hour is 1 to 12 (or write 24-hour time, 16:30)")
    hour = hour % 12 + (12 if match.group(3) == "p" else 0)
    return _clock(hour, minute)


def _clock(hour: int, minute: int) -> time:
    if hour > 23 or minute > 59:
        raise ValueError("a time of day is between 00:00 and 23:59")
    return time(hour, minute)


def time_text(value: time) -> str:
    """`09:00`: how a time reads back on the form (24-hour, the dock's local time)."""
    return value.strftime("%H:%M")


def check_window(
    opens: str,
    closes: str,
    *,
    minimum: timedelta | None,
    names: tuple[str, str] = ("open", "close"),
) -> str | None:
    """The message for a pair of times (both or neither; close after open; long enough), or None.

    `minimum` is the shortest window allowed (the pickup window); None only asks close > open.
    `names` are what the message calls the two times (`ready`, `close` for a pickup).
    """
    if not opens.strip() and not closes.strip():
        return None
    if not opens.strip() or not closes.strip():
        return "enter both times, or neither"
    try:
        start = parse_time_of_day(opens)
    except ValueError as error:
        return f"{names[0]}: {error}"
    try:
        end = parse_time_of_day(closes)
    except ValueError as error:
        return f"{names[1]}: {error}"
    if end <= start:
        return f"{names[1]} must be after {names[0]} ({time_text(start)})"
    if minimum is not None:
        length = _minutes(end) - _minutes(start)
        if length < minimum.total_seconds() / 60:
            return (
                f"the window {time_text(start)}–{time_text(end)} is {length} min; "
                f"carriers need at least {int(minimum.total_seconds() // 60)} min"
            )
    return None


def _minutes(value: time) -> int:
    return value.hour * 60 + value.minute


def window(opens: str, closes: str) -> tuple[time | None, time | None]:
    """The two times of a checked pair (None for a blank one)."""
    first = parse_time_of_day(opens) if opens.strip() else None
    second = parse_time_of_day(closes) if closes.strip() else None
    return first, second


def parse_pickup_day(text: str, today: date, region: str = US) -> date:
    """A pickup day as the shared parser reads it, within the carriers' booking horizon;
    `region` names the origin's holidays (`pickup_dates.region_of`)."""
    if not text.strip():
        raise ValueError("enter the pickup day (YYYY-MM-DD, today, tomorrow, +2 or a weekday)")
    return parse_pickup_date(text, today, max_days_ahead=MAX_DAYS_AHEAD, region=region)


def day_note(day: date, today: date, quoted: date | None, region: str = US) -> str:
    """The day read back, with what to know: same-day cut-off, a day many carriers close,
    a day other than the quote's."""
    note = day_text(day)
    if day == today:
        note += f" · same day: carriers want it asked before about {SAME_DAY_CUTOFF}"
    closure = carrier_closure(day, region)
    if closure is not None:
        note += f" · {closure}: many carriers are closed, the pickup may move"
    if quoted is not None and day != quoted:
        note += f" · quoted for {day_text(quoted)}: the carrier may re-rate"
    return note


def day_text(day: date) -> str:
    """`Mon 2026-11-23`: a pickup day as the form shows it back."""
    return f"{day:%a %Y-%m-%d}"


def closed_day_text(
    day: date, carrier: str, closed_at: datetime, station: str, printed: Sequence[str]
) -> str:
    """What the Book screen says before sending a booking onto a pickup day already closed
    (``freight day close``): when and where, and what was sent that it comes after."""
    manifests = sum(1 for name in printed if name.startswith("manifest-"))
    sent = (
        f"its manifest{'s were' if manifests != 1 else ' was'} sent"
        if manifests
        else "its manifests may have been sent"
    )
    when = closed_at.astimezone().strftime("%H:%M")
    return (
        f"{short_date(day)} is already closed for {carrier}: {sent} (closed {when} by "
        f"{station}). A booking now is a late addition the driver may not expect. Book anyway?"
    )


def pickup_day_of(typed: date | None, today: date, region: str = US) -> date:
    """The day a booking is picked up: the one typed, else (blank) the next business day."""
    return typed if typed is not None else next_business_day(today, region)
