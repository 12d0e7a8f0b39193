"""The periods the Reports screen steps through: whole UTC days, named for people."""

from __future__ import annotations

from datetime import UTC, date, datetime

from tui.reports.periods import iso_week, period

TODAY = date(2026, 11, 28)


def test_a_month_a_quarter_a_year_and_30_days_hold_today_or_step_back() -> None:
    month = period("month", TODAY)
    assert (month.first, month.last, month.label) == (date(2026, 11, 1), date(2026, 11, 30),
                                                      "November 2026")  # fmt: skip
    assert month.since == datetime(2026, 11, 1, tzinfo=UTC)
    assert month.until == datetime(2026, 12, 1, tzinfo=UTC)
    assert period("month", TODAY, 11).label == "December 2025"
    assert period("month", TODAY, -1).label == "December 2026"
    assert period("quarter", TODAY).label == "2026 Q4"
    assert period("quarter", TODAY, 4).first == date(2025, 10, 1)
    assert period("year", TODAY, 1).last == date(2025, 12, 31)
    days = period("30 days", TODAY)
    assert (days.first, days.last, days.label) == (date(2026, 10, 30), TODAY,
                                                   "30 Oct – 28 Nov 2026")  # fmt: skip
    assert period("30 days", TODAY, 1).last == date(2026, 10, 29)


def test_weeks_are_named_as_the_reports_name_them_across_new_year() -> None:
    december = period("30 days", date(2026, 1, 3))  # 5 Dec 2025 – 3 Jan 2026
    assert december.weeks() == ["2025-W49", "2025-W50", "2025-W51", "2025-W52", "2026-W01"]
    assert period("month", TODAY).weeks(through=date(2026, 11, 20))[-1] == "2026-W47"


def test_weeks_are_iso_weeks() -> None:
    assert iso_week(date(2026, 12, 7)) == "2026-W50"  # %W says W49
    assert iso_week(date(2027, 1, 1)) == "2026-W53"  # %W says 2027-W00
    assert iso_week(date(2026, 1, 1)) == "2026-W01"  # %W says 2026-W00
    assert period("month", date(2026, 12, 7)).weeks()[-1] == "2026-W53"
