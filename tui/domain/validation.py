"""Field checks for forms: ZIP (or Canadian postal code), phone, email, dock hours, weights,
dimensions and quantities.

Style: each `parse_*` returns the clean value or raises ValueError whose text is the message to
show at the field; each `validate_*` wraps it and returns that message, or None when valid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import NamedTuple, ParamSpec

from tui.domain.postal import parse_postal_code
from tui.domain.safe_text import lazy_pattern

_P = ParamSpec("_P")

HHMM_RE = lazy_pattern(r"^([01]\d|2[0-3]):[0-5]\d$")
EMAIL_RE = lazy_pattern(r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)*\.[A-Za-z]{2,}$")
_EXTENSION_RE = lazy_pattern(r"\s*(?:x|ext\.?|extension)\s*(\d{1,6})\s*$", re.IGNORECASE)
_PHONE_CHARS_RE = lazy_pattern(r"^\+?[\d\s().-]+$")
DECIMAL_RE = lazy_pattern(r"^\d+(\.\d*)?$|^\.\d+$")

MAX_QUANTITY = 999


def parse_zip(text: str) -> str:
    """A US ZIP or ZIP+4 (`60601`, `60601-1234`), kept as text for its leading zeros, or a
    Canadian postal code (`M5V 2T6`, however typed): `tui.domain.postal`."""
    return parse_postal_code(text)


class PhoneNumber(NamedTuple):
    """A North American number in E.164 (`+13125550142`) with an optional extension."""

    e164: str
    extension: str | None = None

    @property
    def national(self) -> str:
        """`312-555-0142` (with ` x123` when there is an extension)."""
        digits = self.e164[2:]
        text = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
        return f"{text} x{self.extension}" if self.extension else text


def parse_phone(text: str) -> PhoneNumber:
    """A NANP phone in any common spelling, as E.164 plus extension."""
    value = text.strip()
    if not value:
        raise ValueError("enter a phone number")
    extension: str | None = None
    match = _EXTENSION_RE().search(value)
    if match:
        extension = match.group(1)
        value = value[: match.start()].strip()
    if not _PHONE_CHARS_RE().match(value):
        raise ValueError("phone like 312-555-0142 (optional x123)")
    digits = re.sub(r"\D", "", value)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    elif value.startswith("+"):
        raise ValueError("only +1 (US/Canada) numbers")
    if len(digits) != 10:
        raise ValueError("phone needs 10 digits, like 312-555-0142")
    npa, nxx = digits[:3], digits[3:6]
    if npa[0] in "01" or npa[1:] == "11" or npa[1] == "9":
        raise ValueError(f"area code {npa} does not exist")
    if nxx[0] in "01" or nxx[1:] == "11":
        raise ValueError(f"exchange {nxx} is not valid")
    return PhoneNumber(e164=f"+1{digits}", extension=extension)


def parse_email(text: str) -> str:
    """An email address (a light shape check; the mail server decides the rest)."""
    value = text.strip()
    if not value:
        raise ValueError("enter an email address")
    if not EMAIL_RE().match(value):
        raise ValueError("email like name@example.com")
    return value


def parse_hhmm(text: str) -> str:
    """A 24-hour `HH:MM` time (`08:00`, `16:30`)."""
    value = text.strip()
    if not HHMM_RE().match(value):
        raise ValueError("time as HH:MM, 24-hour (08:00, 16:30)")
    return value


def parse_hours(open_text: str, close_text: str) -> tuple[str, str]:
    """Opening and closing `HH:MM` where closing comes after opening."""
    opens = parse_hhmm(open_text)
    closes = parse_hhmm(close_text)
    if closes <= opens:
        raise ValueError(f"close must be after open ({opens})")
    return opens, closes


def parse_positive_decimal(text: str, what: str, maximum: Decimal | None = None) -> Decimal:
    """A plain decimal number greater than 0 (no signs, exponents or thousands separators)."""
    value = text.strip()
    if not value:
        raise ValueError(f"enter the {what}")
    if value.startswith("-") and DECIMAL_RE().match(value[1:]):
        raise ValueError(f"{what} must be more than 0")
    if not DECIMAL_RE().match(value):
        raise ValueError(f"{what} must be a number like 48 or 47.5")
    try:
        number = Decimal(value)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
        raise ValueError(f"{what} must be a number like 48 or 47.5") from None
    if number <= 0:
        raise ValueError(f"{what} must be more than 0")
    if maximum is not None and number > maximum:
        raise ValueError(f"{what} must be at most {maximum}")
    return number


def parse_quantity(text: str, maximum: int = MAX_QUANTITY) -> int:
    """A whole number of handling units, at least 1."""
    value = text.strip()
    if not value:
        raise ValueError("enter a quantity")
    if not value.isascii() or not value.isdigit():
        raise ValueError("quantity must be a whole number")
    number = int(value)
    if number < 1:
        raise ValueError("quantity must be at least 1")
    if number > maximum:
        raise ValueError(f"quantity must be at most {maximum}")
    return number


def _problem(parse: Callable[_P, object], *args: _P.args, **kwargs: _P.kwargs) -> str | None:
    """The message of the ``ValueError`` that ``parse`` raises, or None when it parses."""
    try:
        parse(*args, **kwargs)
    except ValueError as error:
        return str(error)
    return None


def validate_zip(text: str) -> str | None:
    """The message for a bad ZIP, or None."""
    return _problem(parse_zip, text)


def validate_phone(text: str) -> str | None:
    """The message for a bad phone number, or None."""
    return _problem(parse_phone, text)


def validate_email(text: str) -> str | None:
    """The message for a bad email address, or None."""
    return _problem(parse_email, text)


def validate_hhmm(text: str) -> str | None:
    """The message for a bad `HH:MM` time, or None."""
    return _problem(parse_hhmm, text)


def validate_hours(open_text: str, close_text: str) -> str | None:
    """The message for bad dock hours (either time, or close not after open), or None."""
    return _problem(parse_hours, open_text, close_text)


def validate_positive_decimal(text: str, what: str, maximum: Decimal | None = None) -> str | None:
    """The message for a weight or dimension that is not a number above 0, or None."""
    return _problem(parse_positive_decimal, text, what, maximum)


def validate_quantity(text: str, maximum: int = MAX_QUANTITY) -> str | None:
    """The message for a quantity that is not a whole number of at least 1, or None."""
    return _problem(parse_quantity, text, maximum)
