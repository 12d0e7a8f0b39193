"""Validate JSON request bodies field by field; 400 VALIDATION_ERROR names each bad field.

Reads the vocabulary real clients of the service send (see README "Sandbox"); fields it does
not use are ignored.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tui.sandbox import calendar, formats, vocabulary
from tui.sandbox.errors import ApiError, FieldErrors
from tui.sandbox.geo import Zip, lookup
from tui.sandbox.items import item as parse_item
from tui.sandbox.parties import SIDES, shared_details
from tui.sandbox.rating.model import Item, RateRequest

MAX_ITEMS = 40
MAX_PICKUP_AHEAD = timedelta(days=120)
ALLOWED_ACCESSORIALS = ", ".join(vocabulary.ACCESSORIALS)
ALLOWED_LOCATIONS = ", ".join(vocabulary.LOCATION_TYPES)


def require_object(body: Any) -> dict[str, Any]:
    """Return the body if it is a JSON object, else 400."""
    if not isinstance(body, dict):
        raise ApiError(
            400,
            "VALIDATION_ERROR",
            "The request body must be a JSON object.",
            fields=[{"field": "", "message": "must be a JSON object"}],
        )
    return body


def _country(data: dict[str, Any], prefix: str, errors: FieldErrors) -> str | None:
    field = f"{prefix}Country"
    value = data.get(field)
    if value is None:
        return None
    found = vocabulary.country(value) if isinstance(value, str) else None
    if found is None:
        errors.add(field, f"must be one of {vocabulary.COUNTRY_CODES}")
    return found


def _postal(data: dict[str, Any], prefix: str, country: str | None, errors: FieldErrors) -> Any:
    field = f"{prefix}PostalCode"
    value = data.get(field)
    if value is None:
        errors.add(field, "is required")
        return None
    if not isinstance(value, str):
        errors.add(field, "must be a string")
        return None
    canadian = formats.canadian_postal(value)
    if country != "US" and canadian is not None:
        return lookup(canadian)
    if country == "CA":
        errors.add(field, f"must be a Canadian postal code like H4P 2N2 ({prefix}Country is CA)")
        return None
    if not formats.US_ZIP.match(value.strip()):
        errors.add(
            field,
            "must be a US ZIP code like 60601 or 60601-1234, "
            "or a Canadian postal code like H4P 2N2",
        )
        return None
    found = lookup(value.strip())
    if found is None:
        errors.add(field, f"unknown ZIP code {value}")
    return found


def _location_type(data: dict[str, Any], field: str, errors: FieldErrors) -> str:
    value = data.get(field)
    if value is None:
        return vocabulary.DEFAULT_LOCATION
    found = vocabulary.location_type(value) if isinstance(value, str) else None
    if found is None:
        errors.add(
            field,
            f"must be one of {ALLOWED_LOCATIONS} (any case; hyphens or underscores for spaces)",
        )
        return vocabulary.DEFAULT_LOCATION
    return found


def _accessorials(data: dict[str, Any], errors: FieldErrors) -> list[str]:
    raw = data.get("charges")
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.add("charges", f"must be a list of accessorial names: {ALLOWED_ACCESSORIALS}")
        return []
    found: list[str] = []
    for index, entry in enumerate(raw):
        if isinstance(entry, dict):
            entry = entry.get("name") or entry.get("code")
        name = vocabulary.accessorial(entry) if isinstance(entry, str) else None
        if name is None:
            kind = vocabulary.words(entry) if isinstance(entry, str) else ""
            if any(kind.startswith(word) for word in vocabulary.LOCATION_NOT_CHARGE):
                message = f"{entry!r} is a location type: send it as originType or destType"
            else:
                message = f"unknown accessorial {entry!r}; allowed: {ALLOWED_ACCESSORIALS}"
            errors.add(f"charges[{index}]", message)
        elif name not in found:
            found.append(name)
    return found


def local_today(place: Zip, now: datetime) -> date:
    """Today's date where ``place`` is."""
    try:
        return now.astimezone(ZoneInfo(place.timezone)).date()
    except (ZoneInfoNotFoundError, ValueError):
        return now.date()


def pickup_day(
    value: Any, origin: Zip, now: datetime, errors: FieldErrors
) -> tuple[date | None, str | None]:
    """The business day of a ``pickupDate`` (weekends and holidays roll forward) and a note."""
    today = local_today(origin, now)
    region = calendar.region(origin.country, origin.state)
    if value is None or value == "":
        return calendar.next_business_day(today, include=False, region=region), None
    day = formats.iso_date(value) if isinstance(value, str) else None
    if day is None:
        errors.add("pickupDate", "must be a date YYYY-MM-DD")
        return None, None
    if day < today:
        errors.add("pickupDate", f"must not be in the past (today at the origin is {today})")
        return None, None
    if day > today + MAX_PICKUP_AHEAD:
        errors.add("pickupDate", f"must be within {MAX_PICKUP_AHEAD.days} days")
        return None, None
    reason = calendar.closed_reason(day, region)
    if reason is None:
        return day, None
    moved = calendar.next_business_day(day, region=region)
    return moved, f"{day} is {reason}: pickup moved to the next business day, {moved}"


def parse_rate_request(body: Any, now: datetime) -> RateRequest:
    """Validate a POST /rates body and return the normalized request (or raise 400)."""
    data = require_object(body)
    errors = FieldErrors()
    countries = {prefix: _country(data, prefix, errors) for prefix, _ in SIDES}
    origin = _postal(data, "origin", countries["origin"], errors)
    dest = _postal(data, "dest", countries["dest"], errors)
    origin_type = _location_type(data, "originType", errors)
    dest_type = _location_type(data, "destType", errors)
    raw_items = data.get("items")
    items: list[Item] = []
    if raw_items is None:
        errors.add("items", "is required")
    elif not isinstance(raw_items, list):
        errors.add("items", "must be a list")
    elif not raw_items:
        errors.add("items", "must hold at least one item")
    elif len(raw_items) > MAX_ITEMS:
        errors.add("items", f"at most {MAX_ITEMS} items")
    else:
        for index, raw in enumerate(raw_items):
            parsed = parse_item(raw, f"items[{index}]", errors)
            if parsed is not None:
                items.append(parsed)
    accessorials = _accessorials(data, errors)
    if any(item.hazardous for item in items) and "hazmat" not in accessorials:
        accessorials.append("hazmat")
    details = shared_details(data, errors)
    if "hazmat" in accessorials:
        for wire, key in (("emergencyName", "name"), ("emergencyPhone", "phone")):
            if key not in details["emergency"]:
                errors.add(wire, "is required for hazardous freight (24-hour emergency contact)")
    day, note = (
        (None, None) if origin is None else pickup_day(data.get("pickupDate"), origin, now, errors)
    )
    errors.raise_if_any()
    assert origin is not None
    assert dest is not None
    return RateRequest(
        origin, dest, origin_type, dest_type, tuple(items),
        accessorials=tuple(sorted(accessorials)), pickup_date=day, pickup_note=note,
        details=details,
    )  # fmt: skip


def parse_booking(body: Any, *, parcel: bool) -> dict[str, Any]:
    """Validate a POST /book or /book/parcel body; return the cleaned fields."""
    data = require_object(body)
    errors = FieldErrors()
    clean: dict[str, Any] = {}
    for key in ("id", "rateId"):
        value = data.get(key)
        if value is None:
            errors.add(key, "is required")
        elif not isinstance(value, str) or not value.strip():
            errors.add(key, "must be a non-empty string")
        else:
            clean[key] = value.strip()
    schedule = data.get("schedulePickup", False)
    if schedule is None:
        schedule = False
    if not isinstance(schedule, bool):
        errors.add("schedulePickup", "must be true or false")
    clean["schedulePickup"] = bool(schedule) and not parcel
    clean["details"] = shared_details(data, errors)
    pickup = data.get("pickupDate")
    if pickup is not None and pickup != "":
        day = formats.iso_date(pickup) if isinstance(pickup, str) else None
        if day is None:
            errors.add("pickupDate", "must be a date YYYY-MM-DD")
        clean["pickupDate"] = day
    errors.raise_if_any()
    return clean
