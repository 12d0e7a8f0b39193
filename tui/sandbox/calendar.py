"""Business days of LTL carriers: weekends and the usual carrier holidays are closed."""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache


def _observed(day: date) -> date:
    if day.weekday() == 5:
        return day - timedelta(days=1)
    if day.weekday() == 6:
        return day + timedelta(days=1)
    return day


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _last_monday_of_may(year: int) -> date:
    last = date(year, 5, 31)
    return last - timedelta(days=last.weekday())


@lru_cache(maxsize=64)
def holidays(year: int) -> dict[date, str]:
    """Carrier holidays of ``year``: New Year, Memorial Day, July 4, Labor Day,
    Thanksgiving and the Friday after, Christmas Eve and Christmas (observed dates)."""
    thanksgiving = _nth_weekday(year, 11, 3, 4)
    days = {
        _observed(date(year, 1, 1)): "New Year's Day",
        _last_monday_of_may(year): "Memorial Day",
        _observed(date(year, 7, 4)): "Independence Day",
        _nth_weekday(year, 9, 0, 1): "Labor Day",
        thanksgiving: "Thanksgiving",
        thanksgiving + timedelta(days=1): "the day after Thanksgiving",
        date(year, 12, 24): "Christmas Eve",
        _observed(date(year, 12, 25)): "Christmas Day",
    }
    return days


def closed_reason(day: date) -> str | None:
    """Why carriers do not work on ``day`` ("a Saturday", "Labor Day"), or None."""
    if day.weekday() >= 5:
        return "a " + day.strftime("%A")
    return holidays(day.year).get(day)


def is_business_day(day: date) -> bool:
    """Whether carriers pick up and deliver on ``day``."""
    return closed_reason(day) is None


def next_business_day(day: date, *, include: bool = True) -> date:
    """``day`` itself if it is a business day and ``include``, else the next one."""
    if not include:
        day += timedelta(days=1)
    while not is_business_day(day):
        day += timedelta(days=1)
    return day


def add_business_days(day: date, count: int) -> date:
    """The business day ``count`` business days after ``day`` (``day`` itself not counted)."""
    moved = 0
    while moved < count:
        day += timedelta(days=1)
        if is_business_day(day):
            moved += 1
    return day
