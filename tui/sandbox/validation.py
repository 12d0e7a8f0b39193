"""Validate JSON request bodies field by field; 400 VALIDATION_ERROR names each bad field."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from tui.domain.freight_class import parse_freight_class
from tui.domain.locations import LOCATION_TYPES, PACKAGE_TYPES
from tui.domain.validation import HHMM_RE
from tui.sandbox.errors import ApiError, FieldErrors
from tui.sandbox.geo import ZIP_RE, lookup
from tui.sandbox.rating.model import Item, RateRequest

MAX_ITEMS = 40
MAX_QUANTITY = 999
MAX_UNIT_WEIGHT = Decimal(50000)
MAX_DIMENSION = Decimal(636)
MAX_TEXT = 200


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


def _zip(body: dict[str, Any], field: str, errors: FieldErrors) -> Any:
    value = body.get(field)
    if value is None:
        errors.add(field, "is required")
        return None
    if not isinstance(value, str):
        errors.add(field, "must be a string")
        return None
    if not ZIP_RE.match(value):
        errors.add(field, "must be a US ZIP code like 60601 or 60601-1234")
        return None
    found = lookup(value)
    if found is None:
        errors.add(field, f"unknown ZIP code {value}")
    return found


def _location_type(body: dict[str, Any], field: str, errors: FieldErrors) -> str:
    value = body.get(field)
    if value is None:
        return "business-dock"
    if not isinstance(value, str) or value not in LOCATION_TYPES:
        errors.add(field, "must be one of " + ", ".join(LOCATION_TYPES))
        return "business-dock"
    return value


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
    quantity_raw = raw.get("quantity")
    quantity = 0
    if quantity_raw is None:
        errors.add(f"{path}.quantity", "is required")
    elif not _whole(quantity_raw):
        errors.add(f"{path}.quantity", "must be a whole number")
    elif quantity_raw < 1:
        errors.add(f"{path}.quantity", "must be at least 1")
    elif quantity_raw > MAX_QUANTITY:
        errors.add(f"{path}.quantity", f"must be at most {MAX_QUANTITY}")
    else:
        quantity = int(quantity_raw)
    freight_class: Decimal | None = None
    class_raw = raw.get("freightClass")
    if class_raw is not None:
        if isinstance(class_raw, bool) or not isinstance(class_raw, int | float | str):
            errors.add(f"{path}.freightClass", "must be a number")
        else:
            try:
                freight_class = parse_freight_class(
                    class_raw if isinstance(class_raw, str) else str(class_raw)
                )
            except ValueError as exc:
                errors.add(f"{path}.freightClass", str(exc))
    package = raw.get("package", "pallet")
    if package is None:
        package = "pallet"
    if not isinstance(package, str) or package not in PACKAGE_TYPES:
        errors.add(f"{path}.package", "must be one of " + ", ".join(PACKAGE_TYPES))
    if len(errors.items) > before or weight is None or None in dims:
        return None
    length, width, height = (d for d in dims if d is not None)
    return Item(weight, length, width, height, quantity, freight_class, str(package))


def parse_rate_request(body: Any) -> RateRequest:
    """Validate a POST /rates body and return the normalized request (or raise 400)."""
    data = require_object(body)
    errors = FieldErrors()
    origin = _zip(data, "originPostalCode", errors)
    dest = _zip(data, "destPostalCode", errors)
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
    errors.raise_if_any()
    assert origin is not None
    assert dest is not None
    return RateRequest(origin, dest, origin_type, dest_type, tuple(items))


BOOK_TEXT_FIELDS = (
    "originCompany", "originAddress", "originContactName", "originContactPhone",
    "originContactEmail", "destCompany", "destAddress", "destContactName", "destContactPhone",
    "destContactEmail", "reference",
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
    for key in BOOK_TEXT_FIELDS:
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            errors.add(key, "must be a string")
        elif len(value) > MAX_TEXT:
            errors.add(key, f"must be at most {MAX_TEXT} characters")
        else:
            clean[key] = value.strip()
    for key in ("originContactEmail", "destContactEmail"):
        email = clean.get(key)
        if email and ("@" not in email or "." not in email.rsplit("@", 1)[-1]):
            errors.add(key, "must be an email address like name@example.com")
    if not parcel:
        for key in ("originDockHoursOpen", "originDockHoursClose"):
            value = data.get(key)
            if value is None:
                continue
            if not isinstance(value, str) or not HHMM_RE.match(value):
                errors.add(key, "must be a 24-hour time HH:MM")
            else:
                clean[key] = value
        opens, closes = clean.get("originDockHoursOpen"), clean.get("originDockHoursClose")
        if opens and closes and closes <= opens:
            errors.add("originDockHoursClose", "must be later than originDockHoursOpen")
    errors.raise_if_any()
    return clean
