"""Check digits the sandbox's identifiers carry (GS1 mod 10, Luhn, mod 7, mod 11), its own copy."""

from __future__ import annotations

# A deliberate copy of tui/domain/check_digits.py: the sandbox is an independent model of the
# service and imports nothing from the rest of tui, so the client's checks are tested against
# identifiers the service made by its own code, not by the client's.


def _digits(payload: str) -> list[int]:
    if not payload or not payload.isascii() or not payload.isdigit():
        raise ValueError("payload must be one or more digits")
    return [int(c) for c in payload]


def gs1_mod10(payload: str) -> int:
    """GS1 check digit: weights 3,1,3,1... from the rightmost payload digit."""
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(_digits(payload))))
    return (10 - total % 10) % 10


def luhn_check_digit(payload: str) -> int:
    """The Luhn digit that makes ``payload + digit`` valid."""
    total = 0
    for i, d in enumerate(reversed(_digits(payload))):
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return (10 - total % 10) % 10


def mod7_check(payload: str) -> int:
    """Mod 7 check digit: the payload as a number modulo 7."""
    _digits(payload)
    return int(payload) % 7


def mod11_check(payload: str) -> str:
    """Mod 11 check character: '0'-'9', or 'X' for 10."""
    _digits(payload)
    remainder = int(payload) % 11
    check = 0 if remainder == 0 else 11 - remainder
    return "X" if check == 10 else str(check)
