"""Exact money: Decimal dollars rounded half up to the cent, shown with thousands separators."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_money(value: Decimal | int | str) -> Decimal:
    """`value` as dollars and cents (ROUND_HALF_UP); floats are refused, they are not exact."""
    if isinstance(value, float):
        raise TypeError("money must not be a float")
    amount = value if isinstance(value, Decimal) else Decimal(value)
    if not amount.is_finite():
        raise ValueError("money must be a finite amount")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def format_money(amount: Decimal) -> str:
    """`1216` -> `1,216.00`; negatives keep their sign (`-462.31`)."""
    return f"{to_money(amount):,.2f}"


def format_usd(amount: Decimal) -> str:
    """`1216` -> `$1,216.00`; negatives as `-$462.31`."""
    money = to_money(amount)
    sign = "-" if money < 0 else ""
    return f"{sign}${abs(money):,.2f}"
