"""Typed request values (location type, dock time, package, country) and their wire spelling."""

from __future__ import annotations

import re
from datetime import time
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, PlainSerializer, SerializationInfo

from tui.api.wire import DEFAULT_WIRE, WireFormat
from tui.domain.locations import LocationType, parse_location_type, parse_package

__all__ = [
    "Country",
    "DockTime",
    "Kind",
    "Package",
    "parse_dock_time",
    "wire_format",
]

_TIME = re.compile(r"^(\d{1,2})(?::?(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$", re.IGNORECASE)
_COUNTRIES = {
    "US": "US", "USA": "US", "UNITED STATES": "US", "UNITED STATES OF AMERICA": "US",
    "CA": "CA", "CAN": "CA", "CANADA": "CA",
}  # fmt: skip


def wire_format(info: SerializationInfo) -> WireFormat:
    """The ``WireFormat`` passed in the serialization context, else the default one."""
    context = info.context
    if isinstance(context, dict):
        found = context.get("wire")
        if isinstance(found, WireFormat):
            return found
    return DEFAULT_WIRE


def parse_dock_time(value: Any) -> Any:
    """``07:30``, ``7:30``, ``16:00``, ``9:00 AM``, ``9am`` -> ``time``; blank -> None."""
    if value is None or isinstance(value, time):
        return value
    if not isinstance(value, str):
        raise ValueError("must be a time like 08:00 or 8:00 AM")
    text = value.strip()
    if not text:
        return None
    match = _TIME.match(text)
    if match is None:
        raise ValueError("must be a time like 08:00 or 8:00 AM")
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    meridiem = (match.group(3) or "").lower().replace(".", "")
    if meridiem:
        if not 1 <= hour <= 12:
            raise ValueError("must be a time like 08:00 or 8:00 AM (hours 1 to 12 with AM/PM)")
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    elif match.group(2) is None:
        raise ValueError("must be a time like 08:00 or 8:00 AM")
    if hour > 23 or minute > 59:
        raise ValueError("must be a time of day between 00:00 and 23:59")
    return time(hour, minute)


def _location(value: Any) -> LocationType:
    return parse_location_type(value)


def _country(value: Any) -> Any:
    if value is None or not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return None
    code = _COUNTRIES.get(text.upper())
    if code is None:
        raise ValueError("must be US or CA (USA or CAN): the service serves the USA and Canada")
    return code


def _package(value: str) -> str:
    return parse_package(value)


def _ser_location(value: LocationType, info: SerializationInfo) -> str:
    return wire_format(info).location(value)


def _ser_time(value: time | None, info: SerializationInfo) -> str | None:
    return None if value is None else wire_format(info).time(value)


def _ser_package(value: str, info: SerializationInfo) -> str:
    return wire_format(info).package(value)


def _ser_country(value: str | None, info: SerializationInfo) -> str | None:
    return None if value is None else wire_format(info).country(value)


Kind = Annotated[
    LocationType,
    BeforeValidator(_location),
    PlainSerializer(_ser_location, when_used="json"),
]
"""A location type: the enum, its identifier, the service's words or the display label."""

DockTime = Annotated[
    time | None,
    BeforeValidator(parse_dock_time),
    PlainSerializer(_ser_time, when_used="json"),
]
"""A time of day: ``datetime.time`` or text in 24-hour or 12-hour form."""

Package = Annotated[
    str,
    Field(min_length=1, max_length=40),
    AfterValidator(_package),
    PlainSerializer(_ser_package, when_used="json"),
]
"""A package key (``pallet``) from any known label (``Pallets``); other labels kept as typed."""

Country = Annotated[
    str | None,
    BeforeValidator(_country),
    PlainSerializer(_ser_country, when_used="json"),
]
"""``US`` or ``CA`` from any usual spelling (``USA``, ``CAN``, ``Canada``)."""
