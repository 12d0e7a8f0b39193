"""Hazardous materials data of an item: UN number, hazard class, packing group, NMFC item."""

from __future__ import annotations

import re
from typing import Final

from tui.domain.safe_text import lazy_pattern

PACKING_GROUPS: Final = ("I", "II", "III")
_UN = lazy_pattern(r"^(UN|NA)?\s*-?\s*(\d{4})$")
_CLASS = lazy_pattern(r"^(\d)(?:\.(\d))?([A-S])?$")
_DIVISIONS: Final[dict[str, tuple[str, ...]]] = {
    "1": ("1", "2", "3", "4", "5", "6"),
    "2": ("1", "2", "3"),
    "4": ("1", "2", "3"),
    "5": ("1", "2"),
    "6": ("1", "2"),
}
_PG_NUMBERS: Final = {"1": "I", "2": "II", "3": "III"}
_NMFC = lazy_pattern(r"^(\d{1,6})(?:\s*[-.]\s*(\d{1,2}))?$")


def _matched(
    text: str, pattern: re.Pattern[str], blank: str, wrong: str, *, zero: tuple[int, str]
) -> re.Match[str]:
    """``text``, trimmed and in upper case, matched by ``pattern``; ``ValueError`` with
    ``blank`` when it is empty, with ``wrong`` when it does not match or its group
    ``zero[0]`` is the all-zero ``zero[1]``."""
    value = text.strip().upper()
    if not value:
        raise ValueError(blank)
    match = pattern.match(value)
    if match is None or match.group(zero[0]) == zero[1]:
        raise ValueError(wrong)
    return match


def parse_un_number(text: str) -> str:
    """`UN1203` from `UN1203`, `un 1203`, `1203` or `NA1993` (NA numbers are US-only)."""
    match = _matched(
        text,
        _UN(),
        "UN number: required for hazardous freight, like UN1203",
        "UN number: UN and 4 digits, like UN1203",
        zero=(2, "0000"),
    )
    return f"{match.group(1) or 'UN'}{match.group(2)}"


def parse_hazard_class(text: str) -> str:
    """A DOT hazard class 1-9, or a division such as `2.1`, `6.1`, `1.4G`."""
    match = _matched(
        text,
        _CLASS(),
        "hazard class: required for hazardous freight, 1 to 9 (or 2.1…)",
        "hazard class: 1 to 9, or a division like 2.1, 4.3, 6.1",
        zero=(1, "0"),
    )
    number, division, group = match.groups()
    if division is not None and division not in _DIVISIONS.get(number, ()):
        known = _DIVISIONS.get(number)
        if known is None:
            raise ValueError(f"hazard class: class {number} has no divisions")
        choices = ", ".join(f"{number}.{d}" for d in known)
        raise ValueError(f"hazard class: class {number} divisions are {choices}")
    if group is not None and number != "1":
        raise ValueError("hazard class: only class 1 (explosives) takes a letter, like 1.4G")
    return match.string


def parse_packing_group(text: str) -> str | None:
    """`I`, `II` or `III` (also `1`-`3`, `PG II`); blank is none (class 2 and 7 have none)."""
    value = text.strip().upper().removeprefix("PG").strip()
    if not value:
        return None
    value = _PG_NUMBERS.get(value, value)
    if value not in PACKING_GROUPS:
        raise ValueError("packing group: I, II or III")
    return value


def parse_nmfc(text: str) -> str | None:
    """An NMFC item number (`156600`, with a sub like `156600-03`); blank is none."""
    value = text.strip()
    if not value:
        return None
    match = _NMFC().match(value)
    if match is None:
        raise ValueError("NMFC item: up to 6 digits, with a sub like 156600-03")
    item, sub = match.groups()
    return f"{item}-{int(sub):02d}" if sub else item


def hazmat_line(un_number: str, hazard_class: str, packing_group: str | None) -> str:
    """`HM UN1203 · 3 · PG II`, as the BOL shows it."""
    parts = [f"HM {un_number}", hazard_class]
    if packing_group:
        parts.append(f"PG {packing_group}")
    return " · ".join(parts)


def shipping_name_problem(un_number: str, description: str) -> str | None:
    """Why hazardous freight with ``un_number`` cannot go with ``description`` as its proper
    shipping name (a blank one: the BOL would name it by its package, ``Drum freight``), or
    None when it can."""
    if description.strip():
        return None
    number = un_number.strip() or "hazardous freight"
    return (
        f"{number} needs its proper shipping name as the description "
        "(e.g. Paint, flammable); the BOL must name hazardous freight"
    )
