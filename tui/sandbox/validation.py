"""Validate JSON request bodies field by field; 400 VALIDATION_ERROR names each bad field.

Reads the vocabulary real clients of the service send (see README "Sandbox"); fields it does
not use are ignored.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tui.sandbox import calendar, formats, vocabulary
from tui.sandbox.classes import parse_class
from tui.sandbox.errors import ApiError, FieldErrors
from tui.sandbox.geo import Zip, lookup
from tui.sandbox.rating.model import Item, RateRequest

MAX_ITEMS = 40
MAX_QUANTITY = 999
MAX_UNIT_WEIGHT = Decimal(50000)
MAX_DIMENSION = Decimal(636)
MAX_TEXT = 200
MAX_PICKUP_AHEAD = timedelta(days=120)
SIDES = (("origin", "origin"), ("dest", "destination"))
#: per-end text fields: wire suffix -> key in the address block (synonyms after the spec's)
END_TEXT = {
    "Company": "company", "Address": "address", "Address1": "address",
    "Address2": "address2", "City": "city", "State": "state",
    "ContactName": "contactName", "Contact": "contactName",
    "ContactPhone": "contactPhone", "Phone": "contactPhone",
    "ContactEmail": "contactEmail", "Email": "contactEmail",
    "ReferenceNumber": "referenceNumber", "Reference": "referenceNumber",
    "Instructions": "instructions", "SpecialInstructions": "instructions", "Notes": "instructions",
}  # fmt: skip
#: top-level references: wire name -> stored key
REFERENCES = {
    "reference": "reference", "referenceNumber": "reference", "shipperReference": "reference",
    "poNumber": "poNumber", "purchaseOrderNumber": "poNumber", "orderNumber": "poNumber",
}  # fmt: skip
EMERGENCY = {
    "emergencyName": "name", "emergencyContactName": "name",
    "emergencyPhone": "phone", "emergencyContactPhone": "phone",
}  # fmt: skip
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


def _number(value: Any, field: str, errors: FieldErrors, maximum: Decimal) -> Decimal | None:
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
        number = Decimal(str(value))
    except InvalidOperation:
        errors.add(field, "must be a number")
        return None
    if not number.is_finite():
        errors.add(field, "must be a finite number")
        return None
    if number <= 0:
        errors.add(field, "must be greater than 0")
        return None
    if number > maximum:
        errors.add(field, f"must be at most {maximum}")
        return None
    return number


def _whole(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return not isinstance(value, float) or value.is_integer()


def _text(value: Any, field: str, errors: FieldErrors) -> str | None:
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


def _flag(value: Any, field: str, errors: FieldErrors) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    errors.add(field, "must be true or false")
    return None


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


def _hazard(raw: Any, path: str, errors: FieldErrors) -> dict[str, str] | None:
    if not isinstance(raw, dict):
        errors.add(path, "must be an object {hazmatId, hazardClass, packingGroup}")
        return None
    hazard: dict[str, str] = {}
    checks = (
        ("hazmatId", formats.hazmat_id, "a UN or NA number like UN1203", True),
        ("hazardClass", formats.hazard_class, "a hazard class or division like 3 or 2.1", True),
        ("packingGroup", formats.packing_group, "I, II or III", False),
    )
    for key, parse, allowed, required in checks:
        value = raw.get(key)
        if value is None or value == "":
            if required:
                errors.add(f"{path}.{key}", f"is required for hazardous freight: {allowed}")
            continue
        text = (
            str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        )
        found = parse(text) if isinstance(text, str) else None
        if found is None:
            errors.add(f"{path}.{key}", f"must be {allowed}")
        else:
            hazard[key] = found
    name = _text(raw.get("properShippingName"), f"{path}.properShippingName", errors)
    if name:
        hazard["properShippingName"] = name
    return hazard


def _quantity(raw: dict[str, Any], path: str, errors: FieldErrors) -> int:
    key = "quantity" if raw.get("quantity") is not None or raw.get("pieces") is None else "pieces"
    value = raw.get(key)
    field = f"{path}.{key}"
    if value is None:
        errors.add(field, "is required (pieces is accepted too)")
    elif not _whole(value):
        errors.add(field, "must be a whole number")
    elif value < 1:
        errors.add(field, "must be at least 1")
    elif value > MAX_QUANTITY:
        errors.add(field, f"must be at most {MAX_QUANTITY}")
    else:
        return int(value)
    return 0


def _item(raw: Any, path: str, errors: FieldErrors) -> Item | None:
    if not isinstance(raw, dict):
        errors.add(path, "must be an object")
        return None
    before = len(errors.items)
    weight = _number(raw.get("weight"), f"{path}.weight", errors, MAX_UNIT_WEIGHT)
    dims = [
        _number(raw.get(name), f"{path}.{name}", errors, MAX_DIMENSION)
        for name in ("length", "width", "height")
    ]
    quantity = _quantity(raw, path, errors)
    freight_class: Decimal | None = None
    class_raw = raw.get("freightClass")
    if class_raw is not None:
        if isinstance(class_raw, bool) or not isinstance(class_raw, int | float | str):
            errors.add(f"{path}.freightClass", "must be a number")
        else:
            try:
                freight_class = parse_class(str(class_raw))
            except ValueError as exc:
                errors.add(f"{path}.freightClass", str(exc))
    label = raw.get("package")
    package: tuple[str, str | None] | None = ("pallet", None)
    if label is not None:
        package = vocabulary.package(label) if isinstance(label, str) else None
        if package is None:
            errors.add(
                f"{path}.package",
                "must be one of "
                + ", ".join(vocabulary.PACKAGES)
                + " (any case, plural, or with a size like Pallets_48x40)",
            )
    description = _text(raw.get("description"), f"{path}.description", errors)
    nmfc = _text(raw.get("nmfc"), f"{path}.nmfc", errors)
    stackable = _flag(raw.get("stackable"), f"{path}.stackable", errors)
    hazardous = _flag(raw.get("hazardous"), f"{path}.hazardous", errors)
    hazard: dict[str, str] | None = None
    if raw.get("hazard") is not None and hazardous is not False:
        hazard = _hazard(raw["hazard"], f"{path}.hazard", errors)
    elif hazardous:
        errors.add(
            f"{path}.hazard",
            "is required for hazardous freight: {hazmatId, hazardClass, packingGroup}",
        )
    if len(errors.items) > before or weight is None or None in dims or package is None:
        return None
    length, width, height = (d for d in dims if d is not None)
    return Item(
        weight, length, width, height, quantity, freight_class, package[0],
        description=description, nmfc=nmfc, stackable=stackable, hazard=hazard,
        package_size=package[1],
    )  # fmt: skip


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


def _end_block(data: dict[str, Any], prefix: str, errors: FieldErrors) -> dict[str, str]:
    """The address, contact, reference and dock-hour fields of one end that were sent."""
    block: dict[str, str] = {}
    for suffix, key in END_TEXT.items():
        value = _text(data.get(prefix + suffix), prefix + suffix, errors)
        if value and key not in block:
            block[key] = value
    email = block.get("contactEmail")
    if email and ("@" not in email or "." not in email.rsplit("@", 1)[-1]):
        errors.add(prefix + "ContactEmail", "must be an email address like name@example.com")
    for suffix, key in (("DockHoursOpen", "dockHoursOpen"), ("DockHoursClose", "dockHoursClose")):
        value = data.get(prefix + suffix)
        if value is None or value == "":
            continue
        parsed = formats.dock_time(value) if isinstance(value, str) else None
        if parsed is None:
            errors.add(prefix + suffix, f"must be {formats.HOURS_TEXT}")
        else:
            block[key] = parsed
    opens, closes = block.get("dockHoursOpen"), block.get("dockHoursClose")
    if opens and closes and closes <= opens:
        errors.add(prefix + "DockHoursClose", f"must be later than {prefix}DockHoursOpen")
    return block


def _shared(data: dict[str, Any], errors: FieldErrors) -> dict[str, Any]:
    """Ends, references, emergency contact and billing fields, as sent (both endpoints)."""
    details: dict[str, Any] = {side: _end_block(data, prefix, errors) for prefix, side in SIDES}
    references: dict[str, str] = {}
    for wire, key in REFERENCES.items():
        value = _text(data.get(wire), wire, errors)
        if value and key not in references:
            references[key] = value
    emergency: dict[str, str] = {}
    for wire, key in EMERGENCY.items():
        value = _text(data.get(wire), wire, errors)
        if value and key not in emergency:
            emergency[key] = value
    bill = {
        key: value
        for key, value in (
            ("postalCode", _text(data.get("billPostalCode"), "billPostalCode", errors)),
            ("country", _text(data.get("billCountry"), "billCountry", errors)),
        )
        if value
    }
    details.update(references=references, emergency=emergency, bill=bill)
    return details


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
    if value is None or value == "":
        return calendar.next_business_day(today, include=False), None
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
    reason = calendar.closed_reason(day)
    if reason is None:
        return day, None
    moved = calendar.next_business_day(day)
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
            item = _item(raw, f"items[{index}]", errors)
            if item is not None:
                items.append(item)
    accessorials = _accessorials(data, errors)
    if any(item.hazardous for item in items) and "hazmat" not in accessorials:
        accessorials.append("hazmat")
    details = _shared(data, errors)
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
    clean["details"] = _shared(data, errors)
    pickup = data.get("pickupDate")
    if pickup is not None and pickup != "":
        day = formats.iso_date(pickup) if isinstance(pickup, str) else None
        if day is None:
            errors.add("pickupDate", "must be a date YYYY-MM-DD")
        clean["pickupDate"] = day
    errors.raise_if_any()
    return clean
