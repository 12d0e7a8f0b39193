"""Business days of the carriers the sandbox stands for: weekends and holidays are closed.

The holidays are the public ones at the origin from the `holidays` library (US federal for a
US place, national and provincial for a Canadian one, observed dates), plus the days LTL
carriers close though they are no public holiday: the day after Thanksgiving and Christmas
Eve in the US. (The sandbox keeps its own calendar: it imports nothing of the client.)
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

import holidays as library

US = "US"


@lru_cache(maxsize=64)
def holidays(year: int, region: str = US) -> dict[date, str]:
    """Carrier holidays of ``year`` in ``region`` (``US`` or ``CA-ON``), by date."""

    country, _, subdivision = region.partition("-")
    try:
        public = library.country_holidays(country, subdiv=subdivision or None, years=year)
    except NotImplementedError:
        public = library.country_holidays(country, years=year)
    days = dict(public.items())
    if country == US:
        thanksgiving = next(day for day, name in days.items() if name == "Thanksgiving Day")
        days.setdefault(thanksgiving + timedelta(days=1), "the day after Thanksgiving")
        days.setdefault(date(year, 12, 24), "Christmas Eve")
    return days


def region(country: str, state: str) -> str:
    """The holiday region of a place: ``US`` for any US ZIP, ``CA-ON`` for Ontario."""
    return f"CA-{state}" if country == "CA" and state else US


def closed_reason(day: date, region: str = US) -> str | None:
    """Why carriers do not work on ``day`` ("a Saturday", "Thanksgiving Day"), or None."""
    if day.weekday() >= 5:
        return "a " + day.strftime("%A")
    return holidays(day.year, region).get(day)


def is_business_day(day: date, region: str = US) -> bool:
    """Whether carriers pick up and deliver on ``day``."""
    return closed_reason(day, region) is None


def next_business_day(day: date, *, include: bool = True, region: str = US) -> date:
    """``day`` itself if it is a business day and ``include``, else the next one."""
    if not include:
        day += timedelta(days=1)
    while not is_business_day(day, region):
        day += timedelta(days=1)
    return day


def add_business_days(day: date, count: int, region: str = US) -> date:
    """The business day ``count`` business days after ``day`` (``day`` itself not counted)."""
    moved = 0
    while moved < count:
        day += timedelta(days=1)
        if is_business_day(day, region):
            moved += 1
    return day
