"""Pickup dates as a shipper types them: 2026-11-23, 11-23, 11/23, today, tomorrow, +2, friday;
and the business days carriers pick up on.

A business day is a weekday that is not a public holiday at the origin: US federal holidays
(observed dates) for a US origin, Canadian national and provincial ones for a Canadian origin
(`region_of` tells them apart by the postal code). The holidays come from the `holidays`
library, loaded the first time a date is judged (not at import: it takes ~0.1 s).

`next_business_day` is the one "next business day" of the client: the pickup default, the
field's refusal and the batch's ship dates all use it.
"""

from __future__ import annotations

import sys
from datetime import date, timedelta
from functools import lru_cache
from typing import Final

from tui.domain.postal import province_of
from tui.domain.safe_text import lazy_pattern

WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MAX_DAYS_AHEAD: Final = 365
FORMS: Final = "YYYY-MM-DD, MM-DD, MM/DD, today, tomorrow, +2 or a weekday"
US: Final = "US"

_ISO = lazy_pattern(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_MONTH_DAY = lazy_pattern(r"^(\d{1,2})[-/](\d{1,2})$")
_PLUS = lazy_pattern(r"^\+\s*(\d{1,3})$")


def region_of(postal_code: str) -> str:
    """Whose holidays apply at a postal code: `US`, or `CA-ON` (province) for `M5V 2T6`."""
    province = province_of(postal_code)
    return US if province is None else f"CA-{province.code}"


@lru_cache(maxsize=32)
def _holidays(region: str, year: int) -> dict[date, str]:
    import holidays

    country, _, subdivision = region.partition("-")
    try:
        found = holidays.country_holidays(country, subdiv=subdivision or None, years=year)
    except NotImplementedError:  # a region the library does not know: the country's
        found = holidays.country_holidays(country, years=year)
    return {day: name for day, name in sorted(found.items())}


def calendar_loaded() -> bool:
    """Whether the holidays library is loaded (judging a date loads it: ~0.1 s)."""
    return "holidays" in sys.modules


def load_calendar(today: date, region: str = US) -> None:
    """Load the holidays of this year and the next (in the background, after a first frame)."""
    for year in (today.year, today.year + 1):
        _holidays(region, year)


def holiday_name(day: date, region: str = US) -> str | None:
    """The public holiday `day` is in `region` (`Thanksgiving Day`), or None."""
    return _holidays(region, day.year).get(day)


def closed_reason(day: date, region: str = US) -> str | None:
    """Why carriers do not pick up on `day` (`a weekend`, `Thanksgiving Day`), or None."""
    if day.weekday() >= 5:
        return "a weekend"
    return holiday_name(day, region)


def is_business_day(day: date, region: str = US) -> bool:
    """A weekday that is not a public holiday in `region` (carriers pick up then)."""
    return closed_reason(day, region) is None


def next_business_day(after: date, region: str = US) -> date:
    """The first business day after `after` (the default pickup when `after` is today)."""
    day = after + timedelta(days=1)
    while not is_business_day(day, region):
        day += timedelta(days=1)
    return day


def business_day_from(day: date, region: str = US) -> date:
    """`day` itself when it is a business day, else the next one."""
    return day if is_business_day(day, region) else next_business_day(day, region)


def carrier_closure(day: date, region: str = US) -> str | None:
    """A weekday many carriers close on though it is no public holiday (`the day after
    Thanksgiving`, `Christmas Eve`, `New Year's Eve`): the confirmation warns of it, the
    service may move the pickup."""
    if not is_business_day(day, region):
        return None
    if region == US and holiday_name(day - timedelta(days=1), region) == "Thanksgiving Day":
        return "the day after Thanksgiving"
    if (day.month, day.day) == (12, 24):
        return "Christmas Eve"
    if (day.month, day.day) == (12, 31):
        return "New Year's Eve"
    return None


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


def _read(text: str, today: date, region: str) -> date:
    value = " ".join(text.strip().lower().split())
    words = value.split()
    if len(words) == 2 and words[0][:3] in {name[:3] for name in WEEKDAYS}:
        value = words[1]  # `Mon 2026-11-23`, a day as a form reads it back
    if not value:
        return next_business_day(today, region)
    if value in ("today", "tod"):
        return today
    if value in ("tomorrow", "tom", "tmrw"):
        return today + timedelta(days=1)
    plus = _PLUS().match(value)
    if plus:
        return today + timedelta(days=int(plus.group(1)))
    iso = _ISO().match(value)
    month_day = _MONTH_DAY().match(value)
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


def parse_pickup_date(
    text: str, today: date, *, max_days_ahead: int = MAX_DAYS_AHEAD, region: str = US
) -> date:
    """The pickup day `text` names (blank: the next business day); weekends, holidays and the
    past refused.

    `today` is the date at the origin and `region` its holidays (`region_of` the origin's
    postal code); a booking passes the carriers' shorter horizon as `max_days_ahead`.
    Raises ValueError with the message for the field.
    """
    day = _read(text, today, region)
    if day < today:
        raise ValueError(f"{short_date(day)} has passed; pick today or later")
    reason = closed_reason(day, region)
    if reason is not None:
        following = next_business_day(day, region)
        why = "carriers pick up Monday to Friday" if day.weekday() >= 5 else "carriers are closed"
        raise ValueError(f"{short_date(day)} is {reason}; {why} (next: {short_date(following)})")
    if (day - today).days > max_days_ahead:
        if max_days_ahead == MAX_DAYS_AHEAD:
            raise ValueError(f"{day.isoformat()} is more than a year ahead")
        raise ValueError(f"carriers book pickups up to {max_days_ahead} days ahead")
    return day
