"""Postal codes of the US and Canada: a Canadian code is read however it is typed, its first
letter names the province (holidays, time zone), and two spellings of one code are one place."""

from __future__ import annotations

import pytest

from tui.domain.pickup_dates import region_of
from tui.domain.postal import parse_postal_code, province_of, same_postal_code
from tui.domain.validation import validate_zip
from tui.forms.zip_places import today_at


@pytest.mark.parametrize("typed", ["M5V 2T6", "m5v2t6", " m5v 2t6 ", "M5V-2T6"])
def test_a_canadian_postal_code_is_read_however_it_is_typed(typed: str) -> None:
    assert parse_postal_code(typed) == "M5V 2T6"
    assert validate_zip(typed) is None


@pytest.mark.parametrize("bad", ["D5V 2T6", "W5V 2T6", "M5V 2T", "M5V2T66", "MMV 2T6"])
def test_letters_canada_post_never_uses_are_refused(bad: str) -> None:
    error = validate_zip(bad)
    assert error is not None
    assert "M5V 2T6" in error  # the message shows the Canadian form too


@pytest.mark.parametrize(
    ("code", "province", "region"),
    [
        ("A1C 5M2", "NL", "CA-NL"), ("B3H 1A1", "NS", "CA-NS"), ("C1A 4P3", "PE", "CA-PE"),
        ("E1C 4M3", "NB", "CA-NB"), ("G1R 4P5", "QC", "CA-QC"), ("H4P 2N2", "QC", "CA-QC"),
        ("J4K 1A1", "QC", "CA-QC"), ("K1A 0B1", "ON", "CA-ON"), ("L5B 2C9", "ON", "CA-ON"),
        ("m5v2t6", "ON", "CA-ON"), ("N2L 3G1", "ON", "CA-ON"), ("P3A 5K6", "ON", "CA-ON"),
        ("R3C 4T3", "MB", "CA-MB"), ("S4P 3Y2", "SK", "CA-SK"), ("T2P 2M5", "AB", "CA-AB"),
        ("V6B 4Y8", "BC", "CA-BC"), ("X1A 2P8", "NT", "CA-NT"), ("Y1A 6E6", "YT", "CA-YT"),
    ],
)  # fmt: skip
def test_the_first_letter_names_the_province_and_its_holidays(
    code: str, province: str, region: str
) -> None:
    found = province_of(code)
    assert found is not None
    assert found.code == province
    assert region_of(code) == region


def test_a_us_zip_has_no_province_and_us_holidays() -> None:
    assert province_of("60607") is None
    assert region_of("60607-1234") == "US"


def test_two_spellings_of_one_code_are_the_same_place() -> None:
    assert same_postal_code("m5v2t6", "M5V 2T6")
    assert not same_postal_code("M5V 2T6", "M5V 2T7")
    assert same_postal_code(" 60607", "60607")


def test_today_at_a_canadian_origin_is_its_provinces_date() -> None:
    from datetime import UTC, datetime

    late_evening_utc = datetime(2026, 11, 24, 2, 30, tzinfo=UTC)  # 21:30 the day before, Toronto
    assert today_at("M5V 2T6", late_evening_utc).isoformat() == "2026-11-23"
    assert today_at("V6B 4Y8", late_evening_utc).isoformat() == "2026-11-23"
    assert today_at("A1C 5M2", late_evening_utc).isoformat() == "2026-11-23"  # 23:00 in St John's
