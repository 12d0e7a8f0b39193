"""Readers of single JSON values: numbers, whole numbers, short texts, true/false."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from tui.sandbox.errors import FieldErrors

MAX_TEXT = 200


def number(value: Any, field: str, errors: FieldErrors, maximum: Decimal) -> Decimal | None:
    """A number in (0, ``maximum``] (also written as text), or None with the error added."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            errors.add(field, "must be a number")
            return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        errors.add(field, "must be a number" if value is not None else "is required")
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        errors.add(field, "must be a number")
        return None
    if not amount.is_finite():
        errors.add(field, "must be a finite number")
        return None
    if amount <= 0:
        errors.add(field, "must be greater than 0")
        return None
    if amount > maximum:
        errors.add(field, f"must be at most {maximum}")
        return None
    return amount


def whole(value: Any) -> bool:
    """Whether ``value`` is a JSON number without a fraction (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not isinstance(value, float) or value.is_integer()


def text(value: Any, field: str, errors: FieldErrors) -> str | None:
    """A short text (numbers are taken as text); None when absent or blank."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        errors.add(field, "must be a string")
        return None
    if len(value) > MAX_TEXT:
        errors.add(field, f"must be at most {MAX_TEXT} characters")
        return None
    return value.strip() or None


def flag(value: Any, field: str, errors: FieldErrors) -> bool | None:
    """true/false (also ``"true"``, ``"yes"``, ``"no"``), None when absent."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    errors.add(field, "must be true or false")
    return None
