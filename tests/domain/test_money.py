"""Money: exact cents, half up, thousands separators."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui.domain.money import format_money, format_usd, to_money


@pytest.mark.parametrize(
    ("value", "expected"), [("1216", "1216.00"), ("0.005", "0.01"), ("2.675", "2.68"), (7, "7.00")]
)
def test_to_money_rounds_half_up(value: str | int, expected: str) -> None:
    assert to_money(value) == Decimal(expected)
    assert str(to_money(value)) == expected


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError, match="float"):
        to_money(1.1)  # type: ignore[arg-type]


def test_formatting() -> None:
    assert format_money(Decimal("1216")) == "1,216.00"
    assert format_money(Decimal("-462.31")) == "-462.31"
    assert format_usd(Decimal("1216")) == "$1,216.00"
    assert format_usd(Decimal("-462.305")) == "-$462.31"
    assert format_usd(Decimal("1234567.891")) == "$1,234,567.89"


@given(st.decimals(min_value=-(10**9), max_value=10**9, allow_nan=False, allow_infinity=False))
def test_money_is_within_half_a_cent_and_formats_back(value: Decimal) -> None:
    money = to_money(value)
    assert abs(money - value) <= Decimal("0.005")
    assert Decimal(format_money(money).replace(",", "")) == money
