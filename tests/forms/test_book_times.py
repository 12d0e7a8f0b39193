"""Times and pickup days as people type them on the booking form, read without a UI."""

from __future__ import annotations

import re
from datetime import date, time

import pytest

from tui.forms.book_times import (
    MIN_PICKUP_WINDOW,
    check_window,
    day_note,
    parse_pickup_day,
    parse_time_of_day,
)

FRIDAY = date(2026, 11, 20)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("9:00", time(9)),
        ("9am", time(9)),
        ("9 AM", time(9)),
        ("0900", time(9)),
        ("930", time(9, 30)),
        ("16:30", time(16, 30)),
        ("4:30 p.m.", time(16, 30)),
        ("1030pm", time(22, 30)),
        ("12am", time(0)),
        ("12pm", time(12)),
        ("noon", time(12)),
    ],
)
def test_times_typed_every_usual_way(typed: str, meant: time) -> None:
    assert parse_time_of_day(typed) == meant


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("9", "enter a time like 9:00, 9am, 0900 or 16:30"),  # 9 in the morning or evening?
        ("25:00", "between 00:00 and 23:59"),
        ("13pm", "with am/pm the hour is 1 to 12"),
        ("soon", "enter a time like"),
    ],
)
def test_unreadable_times_say_how_to_write_one(typed: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_time_of_day(typed)


def test_the_pickup_window_is_checked_for_order_and_length() -> None:
    assert check_window("9am", "4pm", minimum=MIN_PICKUP_WINDOW) is None
    assert check_window("", "", minimum=MIN_PICKUP_WINDOW) is None
    assert check_window("9am", "", minimum=None) == "enter both times, or neither"
    names = ("ready", "close")
    assert (
        check_window("1600", "9am", minimum=None, names=names)
        == "close must be after ready (16:00)"
    )
    assert check_window("9am", "10am", minimum=MIN_PICKUP_WINDOW) == (
        "the window 09:00–10:00 is 60 min; carriers need at least 90 min"
    )
    assert check_window("9am", "10:30", minimum=MIN_PICKUP_WINDOW) is None
    assert check_window("9am", "10am", minimum=None) is None  # receiving hours: any length
    unreadable = check_window("nine", "5pm", minimum=None, names=names)
    assert unreadable is not None
    assert unreadable.startswith("ready: enter a time like")


@pytest.mark.parametrize(
    ("typed", "day"),
    [
        ("today", FRIDAY),
        ("+3", date(2026, 11, 23)),
        ("mon", date(2026, 11, 23)),
        ("Friday", date(2026, 11, 20)),  # a weekday name on that day is today
        ("2026-11-24", date(2026, 11, 24)),
        ("11/24", date(2026, 11, 24)),
        ("11-25", date(2026, 11, 25)),
        ("Tue 2026-11-24", date(2026, 11, 24)),  # as the form reads a day back
    ],
)
def test_pickup_days_typed_as_dates_or_shortcuts(typed: str, day: date) -> None:
    assert parse_pickup_day(typed, FRIDAY) == day


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        (
            "tomorrow",
            "Sat Nov 21 is a weekend; carriers pick up Monday to Friday (next: Mon Nov 23)",
        ),
        ("2026-11-19", "Thu Nov 19 has passed; pick today or later"),
        ("2027-03-01", "up to 30 days ahead"),
        ("2/30", "no such day"),
        ("someday", "type YYYY-MM-DD, MM-DD, MM/DD, today, tomorrow, +2 or a weekday"),
    ],
)
def test_weekends_past_far_and_unreadable_days_are_refused(typed: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        parse_pickup_day(typed, FRIDAY)


def test_the_day_read_back_says_what_to_know() -> None:
    monday = date(2026, 11, 23)
    assert day_note(monday, FRIDAY, None) == "Mon 2026-11-23"
    assert day_note(monday, FRIDAY, monday) == "Mon 2026-11-23"
    assert day_note(FRIDAY, FRIDAY, monday) == (
        "Fri 2026-11-20 · same day: carriers want it asked before about 14:00"
        " · quoted for Mon 2026-11-23: the carrier may re-rate"
    )


def test_a_day_many_carriers_close_is_named_under_the_field() -> None:
    wednesday = date(2026, 11, 25)
    assert day_note(date(2026, 11, 27), wednesday, None) == (
        "Fri 2026-11-27 · the day after Thanksgiving: many carriers are closed, the pickup may move"
    )
    with pytest.raises(ValueError, match="Thu Nov 26 is Thanksgiving Day"):
        parse_pickup_day("thu", wednesday)
    with pytest.raises(ValueError, match="Wed Jul 1 is Canada Day"):
        parse_pickup_day("2026-07-01", date(2026, 6, 29), "CA-QC")
