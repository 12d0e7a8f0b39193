"""Field validation: each rule gives a message for the field, or None when the value is fine."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.domain.validation import (
    PhoneNumber,
    parse_phone,
    parse_positive_decimal,
    parse_quantity,
    validate_email,
    validate_hhmm,
    validate_hours,
    validate_phone,
    validate_positive_decimal,
    validate_quantity,
    validate_zip,
)


@pytest.mark.parametrize("good", ["60601", "00501", "30303-1234", " 02108 "])
def test_good_zips(good: str) -> None:
    assert validate_zip(good) is None


@pytest.mark.parametrize(
    ("bad", "message"),
    [("", "enter a ZIP"), ("6060", "5 digits"), ("606011", "5 digits"), ("60601-12", "ZIP+4")],
)
def test_bad_zips_say_why(bad: str, message: str) -> None:
    error = validate_zip(bad)
    assert error is not None
    assert message in error


@pytest.mark.parametrize(
    "typed", ["(312) 555-0142", "312-555-0142", "312.555.0142", "+1 312 555 0142", "3125550142"]
)
def test_common_phone_spellings_become_e164(typed: str) -> None:
    assert parse_phone(typed) == PhoneNumber("+13125550142")


def test_phone_extension_is_kept() -> None:
    phone = parse_phone("312-555-0142 x123")
    assert phone == PhoneNumber("+13125550142", "123")
    assert phone.national == "312-555-0142 x123"
    assert parse_phone("312-555-0142 ext. 9").extension == "9"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "enter a phone"),
        ("555-0142", "10 digits"),
        ("112-555-0142", "area code 112"),
        ("411-555-0142", "area code 411"),
        ("392-555-0142", "area code 392"),
        ("312-055-0142", "exchange 055"),
        ("312-611-0142", "exchange 611"),
        ("+44 20 7946 0958", "+1"),
        ("call me", "312-555-0142"),
    ],
)
def test_bad_phones_say_why(bad: str, message: str) -> None:
    error = validate_phone(bad)
    assert error is not None
    assert message in error


@given(
    st.sampled_from("23456789"),
    st.integers(0, 8),
    st.integers(0, 9),
    st.integers(200, 999),
    st.integers(0, 9999),
)
def test_valid_nanp_numbers_round_trip(a: str, b: int, c: int, nxx: int, line: int) -> None:
    npa = f"{a}{b}{c}"
    if npa[1:] == "11" or f"{nxx}"[1:] == "11":
        return
    typed = f"({npa}) {nxx}-{line:04d}"
    phone = parse_phone(typed)
    assert phone.e164 == f"+1{npa}{nxx}{line:04d}"
    assert parse_phone(phone.national) == phone


@pytest.mark.parametrize("good", ["pat@example.com", "p.doyle+dock@acme.co.uk"])
def test_good_emails(good: str) -> None:
    assert validate_email(good) is None


@pytest.mark.parametrize("bad", ["", "pat", "pat@", "pat@example", "p at@example.com", "a@@b.com"])
def test_bad_emails(bad: str) -> None:
    assert validate_email(bad) is not None


@pytest.mark.parametrize("good", ["00:00", "08:00", "16:30", "23:59"])
def test_good_times(good: str) -> None:
    assert validate_hhmm(good) is None


@pytest.mark.parametrize("bad", ["8:00", "24:00", "12:60", "0800", "8am", ""])
def test_bad_times(bad: str) -> None:
    assert validate_hhmm(bad) == "time as HH:MM, 24-hour (08:00, 16:30)"


def test_close_must_be_after_open() -> None:
    assert validate_hours("08:00", "16:00") is None
    assert validate_hours("16:00", "08:00") == "close must be after open (16:00)"
    assert validate_hours("08:00", "08:00") == "close must be after open (08:00)"
    assert validate_hours("8", "16:00") is not None


@pytest.mark.parametrize(("typed", "value"), [("48", "48"), ("47.5", "47.5"), (".5", "0.5")])
def test_positive_decimals(typed: str, value: str) -> None:
    assert parse_positive_decimal(typed, "weight") == Decimal(value)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "enter the weight"),
        ("0", "weight must be more than 0"),
        ("-5", "weight must be more than 0"),
        ("1e3", "weight must be a number"),
        ("1,200", "weight must be a number"),
        ("NaN", "weight must be a number"),
        ("20001", "weight must be at most 20000"),
    ],
)
def test_bad_positive_decimals(bad: str, message: str) -> None:
    error = validate_positive_decimal(bad, "weight", Decimal(20000))
    assert error is not None
    assert error.startswith(message)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "enter a quantity"),
        ("0", "at least 1"),
        ("1.5", "whole number"),
        ("-1", "whole number"),
        ("1000", "at most 999"),
    ],
)
def test_bad_quantities(bad: str, message: str) -> None:
    error = validate_quantity(bad)
    assert error is not None
    assert message in error


@given(st.integers(1, 999))
def test_quantities_round_trip(quantity: int) -> None:
    assert parse_quantity(str(quantity)) == quantity


@given(st.text(max_size=12))
def test_validators_never_crash_on_any_text(text: str) -> None:
    for result in (
        validate_zip(text),
        validate_phone(text),
        validate_email(text),
        validate_hhmm(text),
        validate_positive_decimal(text, "length"),
        validate_quantity(text),
    ):
        assert result is None or (isinstance(result, str) and result)
