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


HOME_CURRENCY = "USD"
"""The currency shown with a `$` and no code; every other amount carries its code."""


def currency_of(code: str | None) -> str:
    """An ISO code in upper case; USD when none is given (the service's default)."""
    text = (code or "").strip().upper()
    return text or HOME_CURRENCY


def format_price(amount: Decimal, currency: str | None = None) -> str:
    """`$1,216.00` in USD; any other currency as `1,216.00 CAD` (the code is never left out)."""
    code = currency_of(currency)
    if code == HOME_CURRENCY:
        return format_usd(amount)
    return f"{format_money(amount)} {code}"


def format_amount(amount: Decimal, currency: str | None = None) -> str:
    """`1,216.00` in USD, `1,216.00 CAD` in any other currency: for columns of amounts."""
    code = currency_of(currency)
    text = format_money(amount)
    return text if code == HOME_CURRENCY else f"{text} {code}"
