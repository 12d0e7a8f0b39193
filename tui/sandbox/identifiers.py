"""Identifiers in each carrier's own format: PRO numbers, BOL, pickup confirmations, tracking."""

from __future__ import annotations

import secrets

from tui.sandbox.check_digits import gs1_mod10, luhn_check_digit, mod7_check, mod11_check

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

#: carrier code -> (style, prefix, serial digits)
PRO_STYLES: dict[str, tuple[str, str, int]] = {
    "HGFL": ("mod7", "3", 8),  # 10 digits, mod 7 of the first 9
    "BCXP": ("luhn", "71", 8),  # 11 digits, Luhn
    "MGGC": ("mod11", "", 9),  # NNN-NNNNNN-C, mod 11 of the 6-digit base ('X' for 10)
    "CSFW": ("gs1", "5", 7),  # 9 digits, GS1 mod 10
    "LKIF": ("mod7", "8", 8),  # 10 digits, mod 7 of the first 9
    "KAML": ("luhn", "64", 8),  # 11 digits, Luhn
    "TGTL": ("plain", "TG", 7),  # load number TG + 7 digits
    "RGFB": ("plain", "RG", 8),  # load number RG + 8 digits
    "QWDL": ("plain", "QW", 8),  # chaos carrier, no check digit
}


def random_id(prefix: str, length: int = 12) -> str:
    """Return ``prefix`` plus random lowercase base-32 characters."""
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(length))


def id_from_int(prefix: str, value: int, length: int = 12) -> str:
    """Return ``prefix`` plus ``value`` written in ``length`` base-32 characters."""
    chars = []
    for _ in range(length):
        value, digit = divmod(value, 32)
        chars.append(_ALPHABET[digit])
    return prefix + "".join(reversed(chars))


def pro_number(carrier_code: str, serial: int) -> str:
    """Return the PRO (or load number) ``serial`` of a carrier's block, with its check digit."""
    style, prefix, width = PRO_STYLES[carrier_code]
    digits = f"{serial % 10**width:0{width}d}"
    if style == "mod7":
        payload = prefix + digits
        return payload + str(mod7_check(payload))
    if style == "luhn":
        payload = prefix + digits
        return payload + str(luhn_check_digit(payload))
    if style == "gs1":
        payload = prefix + digits
        return payload + str(gs1_mod10(payload))
    if style == "mod11":
        terminal, base = digits[:3], digits[3:]
        terminal = str(100 + int(terminal) % 900)
        return f"{terminal}-{base}-{mod11_check(base)}"
    return prefix + digits


def bol_number(serial: int) -> str:
    """Return a 17-digit VICS BOL number: ``04`` + 14-digit serial + GS1 mod-10 check."""
    payload = f"04{serial % 10**14:014d}"
    return payload + str(gs1_mod10(payload))


def parcel_tracking(serial: int) -> str:
    """Return a Wrenfield tracking number: ``WN`` + 17 digits + GS1 mod-10 check."""
    payload = f"1{serial % 10**16:016d}"
    return "WN" + payload + str(gs1_mod10(payload))


def terminal_code(city: str) -> str:
    """Return a 3-letter terminal code for a city (first letter, then its next consonants)."""
    letters = [c for c in city.upper() if "A" <= c <= "Z"]
    if not letters:
        return "XXX"
    code = [letters[0]]
    code += [c for c in letters[1:] if c not in "AEIOU"][:2]
    while len(code) < 3:
        code.append(letters[min(len(letters) - 1, len(code))])
    return "".join(code[:3])


def pickup_confirmation(city: str, serial: int) -> str:
    """Return a pickup confirmation: terminal code + 7 digits (``CHC4821973``)."""
    return f"{terminal_code(city)}{serial % 10**7:07d}"
