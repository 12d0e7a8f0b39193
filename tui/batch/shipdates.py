"""Ship dates as order files write them, and the pickup day a carrier can take.

Whether ``03/04/2026`` is March or April is decided once per file: day first when any date in
the column has a first part above 12 (or the file writes decimal commas, as European files do),
else month first. A date in the past, or not a business day at the origin (a weekend, a public
holiday: ``tui.domain.pickup_dates``), moves to the next business day.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from typing import Final

from tui.batch.values import strip_marks
from tui.domain.pickup_dates import carrier_closure, closed_reason
from tui.domain.pickup_dates import next_business_day as following

MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january", "janvier", "januar", "enero", "ene"),
            ("feb", "february", "fevrier", "février", "februar", "febrero", "fev", "fév"),
            ("mar", "march", "mars", "märz", "marz", "marzo", "mrz"),
            ("apr", "april", "avril", "abril", "avr"),
            ("may", "mai", "mayo"),
            ("jun", "june", "juin", "juni", "junio"),
            ("jul", "july", "juillet", "juli", "julio", "juil"),
            ("aug", "august", "août", "aout", "agosto", "ago"),
            ("sep", "sept", "september", "septembre", "septiembre"),
            ("oct", "october", "octobre", "oktober", "octubre", "okt"),
            ("nov", "november", "novembre", "noviembre"),
            ("dec", "december", "décembre", "decembre", "dezember", "diciembre", "dez", "dic"),
        ),
        start=1,
    )
    for name in names
}

_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?$")
_NUMERIC = re.compile(r"^(\d{1,2})([-/.])(\d{1,2})\2(\d{2}|\d{4})(?:[ T].*)?$")
_WORDY = re.compile(r"[a-zà-ÿ]+\.?|\d+", re.IGNORECASE)


def day_first(texts: Iterable[str], *, european: bool = False) -> bool:
    """Whether the numeric dates of a column put the day first (``25/11/2026``)."""
    for text in texts:
        found = _NUMERIC.match(strip_marks(text))
        if found is None:
            continue
        if found[2] == ".":
            return True
        first, second = int(found[1]), int(found[3])
        if first > 12 >= second:
            return True
        if second > 12 >= first:
            return False
    return european


def parse_ship_date(text: str, *, day_first: bool = False) -> date:
    """A date from ``2026-11-25``, ``11/25/2026``, ``25.11.2026``, ``11/25/26``, ``Nov 25, 2026``,
    ``25 nov. 2026``. Raises ValueError with the reason."""
    value = strip_marks(text)
    if not value:
        raise ValueError("is blank")
    serial = excel_serial(value)
    if serial is not None:
        return serial
    try:
        iso = _ISO.match(value)
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        numeric = _NUMERIC.match(value)
        if numeric:
            first, second, year = int(numeric[1]), int(numeric[3]), int(numeric[4])
            if year < 100:
                year += 2000
            if numeric[2] == "." or day_first:
                return date(year, second, first)
            return date(year, first, second)
        return _wordy(value)
    except ValueError as exc:
        if str(exc).startswith("is "):
            raise
        raise ValueError("is not a date (e.g. 2026-11-25 or 11/25/2026)") from None


_EXCEL_EPOCH: Final = date(1899, 12, 30)
"""Day 0 of Excel's date serials (its 1900 system, whose day 60 is a leap day 1900 lacks)."""
_SERIALS: Final = (36526, 73051)
"""The serials read as dates: 2000-01-01 to 2099-12-31 (a 5-digit number in a date column)."""


def excel_serial(text: str) -> date | None:
    """The date an Excel serial number names (``46367`` is 2026-12-11), as a General-format
    cell or a CSV saved from one writes it; None when the text is not one."""
    whole = text.removesuffix(".0")
    if not (whole.isascii() and whole.isdigit() and len(whole) == 5):
        return None
    number = int(whole)
    if not _SERIALS[0] <= number <= _SERIALS[1]:
        return None
    return _EXCEL_EPOCH + timedelta(days=number)


def _wordy(value: str) -> date:
    month = year = day = None
    for token in _WORDY.findall(value.lower()):
        token = token.rstrip(".")
        if token.isdigit():
            number = int(token)
            if len(token) == 4:
                year = number
            elif day is None:
                day = number
        elif token in MONTHS and month is None:
            month = MONTHS[token]
    if month is None or year is None or day is None:
        raise ValueError("is not a date (e.g. 2026-11-25 or 11/25/2026)")
    return date(year, month, day)


def next_business_day(after: date, region: str = "US") -> date:
    """The first business day after ``after`` (weekends and the region's holidays skipped)."""

    return following(after, region)


def pickup_day(wanted: date | None, today: date, region: str = "US") -> tuple[date, str | None]:
    """The day to ask a pickup for, and a note when it is not the day the file asked for.

    None (no date in the file) is the next business day after ``today``, as the quote form's
    default; a past date moves to the next business day after today; a weekend or holiday (of
    the origin's ``region``: ``US``, ``CA-ON``…) to the next business day after it.
    """

    if wanted is None:
        return next_business_day(today, region), None
    if wanted < today:
        moved = next_business_day(today, region)
        return moved, f"ship date {wanted.isoformat()} has passed: moved to {moved.isoformat()}"
    reason = closed_reason(wanted, region)
    if reason is not None:
        moved = next_business_day(wanted, region)
        return moved, f"ship date {wanted.isoformat()} is {reason}: moved to {moved.isoformat()}"
    return wanted, None


def closure_note(day: date, region: str = "US") -> str | None:
    """A note when ``day`` is a business day many carriers close on all the same (Christmas
    Eve, New Year's Eve, the day after Thanksgiving): the pickup stays, but it may move, as
    the Book screen warns of it."""

    closure = carrier_closure(day, region)
    if closure is None:
        return None
    return f"pickup {day.isoformat()} is {closure}: many carriers close, the pickup may move"
