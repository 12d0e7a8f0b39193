"""Pickup dates as typed: shortcuts, the three date forms, weekends and the past refused."""

from __future__ import annotations

import re
from datetime import date

import pytest

from tui.domain.pickup_dates import (
    business_day_from,
    carrier_closure,
    closed_reason,
    is_business_day,
    next_business_day,
    parse_pickup_date,
    region_of,
    short_date,
)

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
        ("+ 4", date(2026, 11, 27)),
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


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        (date(2026, 11, 25), date(2026, 11, 27)),  # Thanksgiving skipped
        (date(2026, 12, 24), date(2026, 12, 28)),  # Christmas (Fri) and the weekend
        (date(2026, 7, 2), date(2026, 7, 6)),  # Independence Day observed on Fri Jul 3
        (date(2027, 7, 2), date(2027, 7, 6)),  # the weekend, then Jul 4 observed on Mon Jul 5
        (date(2027, 12, 30), date(2028, 1, 3)),  # New Year's Day 2028 observed on Fri 2027-12-31
        (date(2026, 12, 31), date(2027, 1, 4)),  # over the year end
        (date(2026, 11, 20), date(2026, 11, 23)),  # an ordinary weekend
    ],
)
def test_the_next_business_day_skips_weekends_and_federal_holidays(
    after: date, expected: date
) -> None:
    assert next_business_day(after) == expected
    assert parse_pickup_date("", after) == expected


def test_a_canadian_origin_has_canadian_holidays() -> None:
    assert region_of("M5V 2T6") == "CA-ON"
    assert region_of("h2x1y4") == "CA-QC"
    assert region_of("60607") == region_of("60607-1234") == "US"
    canada_day = date(2026, 7, 1)
    assert is_business_day(canada_day)  # in Chicago
    assert closed_reason(canada_day, "CA-ON") == "Canada Day"
    assert next_business_day(date(2026, 6, 30), "CA-ON") == date(2026, 7, 2)
    assert is_business_day(date(2026, 11, 26), "CA-ON")  # US Thanksgiving is a Canadian Thursday
    assert closed_reason(date(2026, 10, 12), "CA-ON") == "Thanksgiving Day"
    assert business_day_from(date(2026, 12, 25), "CA-ON") == date(2026, 12, 29)  # Boxing Day obs.


def test_a_holiday_is_refused_at_the_field_with_its_name_and_the_next_business_day() -> None:
    wednesday = date(2026, 11, 25)
    with pytest.raises(ValueError, match=re.escape("Thu Nov 26 is Thanksgiving Day;")) as refused:
        parse_pickup_date("tomorrow", wednesday)
    assert "(next: Fri Nov 27)" in str(refused.value)
    assert parse_pickup_date("fri", wednesday) == date(2026, 11, 27)
    with pytest.raises(ValueError, match="Wed Jul 1 is Canada Day"):
        parse_pickup_date("2026-07-01", date(2026, 6, 29), region="CA-ON")


def test_days_many_carriers_close_are_named_but_not_refused() -> None:
    assert carrier_closure(date(2026, 11, 27)) == "the day after Thanksgiving"
    assert carrier_closure(date(2026, 12, 24)) == "Christmas Eve"
    assert carrier_closure(date(2026, 12, 31)) == "New Year's Eve"
    assert carrier_closure(date(2026, 11, 25)) is None
    assert carrier_closure(date(2027, 12, 24)) is None  # Christmas observed: closed outright
