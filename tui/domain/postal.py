"""Postal codes of the two countries the service serves: US ZIPs and Canadian postal codes.

A Canadian code is `A1A 1A1` (the letters D, F, I, O, Q, U never; W and Z never first) and
is written here as Canada Post prints it: upper case, one space (`m5v2t6` is `M5V 2T6`).
Its first letter names the province, which decides the holidays at a Canadian origin and
its time zone (the province's main one: a code says no more offline).
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

ZIP_RE: Final = re.compile(r"^\d{5}(-\d{4})?$")
CANADIAN_RE: Final = re.compile(
    r"^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])[\s-]?(\d[ABCEGHJ-NPRSTV-Z]\d)$"
)


class Province(NamedTuple):
    """A Canadian province or territory: `ON`, `Ontario`, its main time zone."""

    code: str
    name: str
    timezone: str


_ON: Final = Province("ON", "Ontario", "America/Toronto")
_QC: Final = Province("QC", "Quebec", "America/Toronto")
PROVINCES: Final[dict[str, Province]] = {
    "A": Province("NL", "Newfoundland and Labrador", "America/St_Johns"),
    "B": Province("NS", "Nova Scotia", "America/Halifax"),
    "C": Province("PE", "Prince Edward Island", "America/Halifax"),
    "E": Province("NB", "New Brunswick", "America/Moncton"),
    "G": _QC, "H": _QC, "J": _QC,
    "K": _ON, "L": _ON, "M": _ON, "N": _ON, "P": _ON,
    "R": Province("MB", "Manitoba", "America/Winnipeg"),
    "S": Province("SK", "Saskatchewan", "America/Regina"),
    "T": Province("AB", "Alberta", "America/Edmonton"),
    "V": Province("BC", "British Columbia", "America/Vancouver"),
    "X": Province("NT", "Northwest Territories", "America/Edmonton"),
    "Y": Province("YT", "Yukon", "America/Whitehorse"),
}  # fmt: skip
"""The province of a postal code's first letter (X is NT or NU: NT's holidays)."""


def canadian(text: str) -> str | None:
    """`M5V 2T6` for `M5V 2T6`, `m5v2t6`, `M5V-2T6`; None when it is not a Canadian code."""
    found = CANADIAN_RE.match(text.strip().upper())
    return f"{found[1]} {found[2]}" if found else None


def is_canadian(text: str) -> bool:
    """Whether `text` is a Canadian postal code (any case, with or without its space)."""
    return canadian(text) is not None


def province_of(text: str) -> Province | None:
    """The province of a Canadian postal code, None for anything else."""
    code = canadian(text)
    return PROVINCES[code[0]] if code else None


def country_of(text: str) -> str:
    """`CA` for a Canadian postal code, else `US`."""
    return "CA" if is_canadian(text) else "US"


def parse_postal_code(text: str) -> str:
    """A US ZIP or ZIP+4 (kept as typed, for its leading zeros) or a Canadian postal code
    (written `M5V 2T6`). Raises ValueError with the message for the field."""
    value = text.strip()
    if not value:
        raise ValueError("enter a ZIP code")
    if ZIP_RE.match(value):
        return value
    found = canadian(value)
    if found is not None:
        return found
    raise ValueError("ZIP is 5 digits, or ZIP+4 like 60601-1234 (Canada: M5V 2T6)")


def same_postal_code(a: str, b: str) -> bool:
    """Whether two codes name the same place as a person reads them: case and the Canadian
    space do not matter (`m5v2t6` is `M5V 2T6`)."""
    return (canadian(a) or a.strip()) == (canadian(b) or b.strip())
