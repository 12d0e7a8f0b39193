"""Check digits of freight identifiers (GS1, Luhn, mod 7, mod 11) and parcel tracking numbers."""

from __future__ import annotations

# tui/sandbox/check_digits.py keeps its own copy of these digits on purpose (the sandbox is an
# independent model of the service, importing nothing of the client).


def _digits(payload: str) -> list[int]:
    if not payload or not payload.isascii() or not payload.isdigit():
        raise ValueError("payload must be one or more digits")
    return [int(c) for c in payload]


def gs1_mod10(payload: str) -> int:
    """GS1 check digit: weights 3,1,3,1… from the rightmost payload digit."""
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(_digits(payload))))
    return (10 - total % 10) % 10


def _luhn_sum(digits: list[int], double_first_from_right: bool) -> int:
    total = 0
    for i, d in enumerate(reversed(digits)):
        if (i % 2 == 0) == double_first_from_right:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total


def luhn_check_digit(payload: str) -> int:
    """The Luhn digit that makes `payload + digit` valid."""
    return (10 - _luhn_sum(_digits(payload), double_first_from_right=True) % 10) % 10


def luhn_valid(number: str) -> bool:
    """Whether `number` (check digit last) passes the Luhn test."""
    try:
        digits = _digits(number)
    except ValueError:
        return False
    return len(digits) >= 2 and _luhn_sum(digits, double_first_from_right=False) % 10 == 0


def mod7_check(payload: str) -> int:
    """Mod 7 check digit (XPO style): the payload as a number modulo 7."""
    _digits(payload)
    return int(payload) % 7


def mod11_check(payload: str) -> str:
    """Mod 11 check character (YRC style): '0'-'9', or 'X' for 10."""
    _digits(payload)
    remainder = int(payload) % 11
    check = 0 if remainder == 0 else 11 - remainder
    return "X" if check == 10 else str(check)


def gs1_valid(number: str) -> bool:
    """Whether the last digit of `number` is the GS1 check digit of the rest."""
    if len(number) < 2 or not number.isascii() or not number.isdigit():
        return False
    return gs1_mod10(number[:-1]) == int(number[-1])


def _ups_value(char: str) -> int:
    return int(char) if char.isdigit() else (ord(char) - 63) % 10


def ups_tracking_valid(number: str) -> bool:
    """Whether `number` is a well-formed UPS `1Z` tracking number with a correct check digit."""
    text = number.strip().upper()
    if len(text) != 18 or not text.startswith("1Z") or not text.isascii() or not text.isalnum():
        return False
    body = text[2:17]
    total = sum(_ups_value(c) * (2 if i % 2 == 1 else 1) for i, c in enumerate(body))
    return (10 - total % 10) % 10 == _ups_value(text[17]) and text[17].isdigit()


def fedex_express_valid(number: str) -> bool:
    """Whether `number` is a 12-digit FedEx Express number (weights 3,1,7; sum mod 11 mod 10)."""
    if len(number) != 12 or not number.isascii() or not number.isdigit():
        return False
    weights = (3, 1, 7)
    total = sum(int(c) * weights[i % 3] for i, c in enumerate(number[:11]))
    return total % 11 % 10 == int(number[11])


def fedex_ground_valid(number: str) -> bool:
    """Whether `number` is a 15-digit FedEx Ground number (GS1 mod 10 over the first 14)."""
    return len(number) == 15 and gs1_valid(number)


def usps_impb_valid(number: str) -> bool:
    """Whether `number` is a 22-digit USPS IMpb number starting 92-95 with a GS1 check digit."""
    return len(number) == 22 and number[:2] in {"92", "93", "94", "95"} and gs1_valid(number)
