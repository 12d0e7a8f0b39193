"""The periods a report covers: a calendar month (the default), 30 days, a quarter or a year.

A period is whole UTC days, as ``freight report --since/--until`` reads them: bookings sent
from its first day's midnight up to the midnight after its last day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final, Literal

Length = Literal["month", "30 days", "quarter", "year"]

LENGTHS: Final[tuple[Length, ...]] = ("month", "30 days", "quarter", "year")
"""The lengths a period steps through, shortest first."""

_MONTHS: Final = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


@dataclass(frozen=True)
class Period:
    """Days ``first`` to ``last`` (both included), named for people."""

    length: Length
    first: date
    last: date

    @property
    def since(self) -> datetime:
        """The first moment in the period (midnight UTC of its first day)."""
        return datetime.combine(self.first, time(), UTC)

    @property
    def until(self) -> datetime:
        """The first moment after it (midnight UTC after its last day)."""
        return datetime.combine(self.last + timedelta(days=1), time(), UTC)

    @property
    def label(self) -> str:
        """``November 2026``, ``2026 Q4``, ``2026``, or ``29 Oct – 27 Nov 2026``."""
        if self.length == "month":
            return f"{_MONTHS[self.first.month - 1]} {self.first.year}"
        if self.length == "quarter":
            return f"{self.first.year} Q{(self.first.month - 1) // 3 + 1}"
        if self.length == "year":
            return str(self.first.year)
        start = f"{self.first.day} {_MONTHS[self.first.month - 1][:3]}"
        if self.first.year != self.last.year:
            start += f" {self.first.year}"
        return f"{start} – {self.last.day} {_MONTHS[self.last.month - 1][:3]} {self.last.year}"

    def weeks(self, through: date | None = None) -> list[str]:
        """The weeks it touches (up to the day ``through``, when given), as the reports name
        them (ISO weeks: ``2026-W50``)."""
        last = min(self.last, through) if through is not None else self.last
        days = (self.first + timedelta(days=n) for n in range((last - self.first).days + 1))
        return list(dict.fromkeys(iso_week(day) for day in days))


def iso_week(day: date) -> str:
    """The ISO 8601 week of ``day`` as the reports name it: 2026-12-07 is ``2026-W50``, and
    2027-01-01 is ``2026-W53`` (the week belongs to the year of its Thursday)."""
    year, week, _ = day.isocalendar()
    return f"{year:04d}-W{week:02d}"


def _month_start(year: int, month: int) -> date:
    """The first day of a month counted from year 0 (month may run past 12 or below 1)."""
    index = year * 12 + month - 1
    return date(index // 12, index % 12 + 1, 1)


def period(length: Length, today: date, back: int = 0) -> Period:
    """The period of ``length`` holding ``today``, or ``back`` periods before it (negative:
    after). 30 days end today."""
    if length == "30 days":
        last = today - timedelta(days=30 * back)
        return Period(length, last - timedelta(days=29), last)
    months = {"month": 1, "quarter": 3, "year": 12}[length]
    this = _month_start(today.year, today.month - (today.month - 1) % months)
    first = _month_start(this.year, this.month - months * back)
    after = _month_start(first.year, first.month + months)
    return Period(length, first, after - timedelta(days=1))
