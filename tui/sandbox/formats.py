"""Formats the service reads: dock hours (12- or 24-hour), dates, postal codes, hazmat fields."""

from __future__ import annotations

import re
from datetime import date

HOURS_TEXT = "a time like 9:00 AM, 09:00 AM, 04:00 PM or 16:00"
_TWELVE = re.compile(r"^(\d{1,2}):([0-5]\d)\s*([ap])\.?\s*m\.?$", re.IGNORECASE)
_TWENTY_FOUR = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)(?::00)?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
US_ZIP = re.compile(r"^\d{5}(-\d{4})?$")
CA_POSTAL = re.compile(r"^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$")
HAZMAT_ID = re.compile(r"^(UN|NA)?\s?-?(\d{4})$", re.IGNORECASE)
HAZARD_CLASS = re.compile(r"^[1-9](\.[1-6])?[A-Z]?$")
PACKING_GROUPS = {"i": "I", "ii": "II", "iii": "III", "1": "I", "2": "II", "3": "III"}


def dock_time(value: str) -> str | None:
    """``HH:MM`` (24-hour) for ``9:00 AM``, ``09:00 am``, ``4:00PM`` or ``16:00``, else None."""
    text = value.strip()
    match = _TWELVE.match(text)
    if match:
        hour, minute, half = int(match.group(1)), match.group(2), match.group(3).lower()
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
        return f"{hour:02d}:{minute}"
    match = _TWENTY_FOUR.match(text)
    if match:
        return f"{int(match.group(1)):02d}:{match.group(2)}"
    return None


def iso_date(value: str) -> date | None:
    """The date of ``YYYY-MM-DD`` text, else None."""
    if not _DATE.match(value.strip()):
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None


def canadian_postal(value: str) -> str | None:
    """``H4P 2N2`` for ``h4p2n2`` or ``H4P 2N2``, else None."""
    text = value.strip().upper()
    if not CA_POSTAL.match(text):
        return None
    compact = text.replace(" ", "")
    return f"{compact[:3]} {compact[3:]}"


def hazmat_id(value: str) -> str | None:
    """``UN1203`` for ``un 1203``, ``UN-1203`` or ``1203``, else None."""
    match = HAZMAT_ID.match(value.strip())
    return f"{(match.group(1) or 'UN').upper()}{match.group(2)}" if match else None


def hazard_class(value: str) -> str | None:
    """A DOT hazard class or division (``3``, ``2.1``, ``1.4G``), else None."""
    text = value.strip().upper()
    return text if HAZARD_CLASS.match(text) else None


def packing_group(value: str) -> str | None:
    """``I``, ``II`` or ``III`` for roman or arabic text, else None."""
    text = value.strip().lower().removeprefix("pg").strip()
    return PACKING_GROUPS.get(text)
