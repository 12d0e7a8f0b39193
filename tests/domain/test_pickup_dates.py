"""Pickup dates as typed: shortcuts, the three date forms, weekends and the past refused."""

from __future__ import annotations

import re
from datetime import date

import pytest

from tui.domain.pickup_dates import next_business_day, parse_pickup_date, short_date

FRIDAY = date(2026, 11, 20)
MONDAY = date(2026, 11, 23)


def test_the_default_is_the_next_business_day() -> None:
    assert next_business_day(FRIDAY) == MONDAY
    assert next_business_day(MONDAY) == date(2026, 11, 24)
    assert parse_pickup_date("", FRIDAY) == MONDAY
    assert parse_pickup_date("  ", MONDAY) == date(2026, 11, 24)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("today", MONDAY),
        ("Tomorrow", date(2026, 11, 24)),
        ("+2", date(2026, 11, 25)),
        ("+ 3", date(2026, 11, 26)),
        ("friday", date(2026, 11, 27)),
        ("fri", date(2026, 11, 27)),
        ("mon", MONDAY),  # today is that weekday: today
        ("2026-12-01", date(2026, 12, 1)),
        ("12-01", date(2026, 12, 1)),
        ("12/1", date(2026, 12, 1)),
    ],
)
def test_shortcuts_and_date_forms(text: str, expected: date) -> None:
    assert parse_pickup_date(text, MONDAY) == expected


def test_a_month_and_day_early_next_year_is_next_year() -> None:
    assert parse_pickup_date("01-05", date(2026, 12, 21)) == date(2027, 1, 5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sat", "Sat Nov 28 is a weekend; carriers pick up Monday to Friday (next: Mon Nov 30)"),
        ("+5", "Sat Nov 28 is a weekend"),
        ("11-20", "Fri Nov 20 has passed; pick today or later"),
        ("2026-11-22", "Sun Nov 22 has passed"),
        ("2026-02-30", "no such day 2026-02-30"),
        ("13/01", "no such day 13/01"),
        ("2029-01-02", "more than a year ahead"),
        ("next week", "type YYYY-MM-DD, MM-DD, MM/DD, today, tomorrow, +2 or a weekday"),
        ("t", "type YYYY-MM-DD"),
    ],
)
def test_bad_dates_are_refused_with_a_message_for_the_field(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_pickup_date(text, MONDAY)


def test_short_date() -> None:
    assert short_date(MONDAY) == "Mon Nov 23"
