"""Read one rate-request item: weight, size, count (``quantity`` or ``pieces``), class, package,
description, NMFC, stackable and hazmat."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tui.sandbox import formats, vocabulary
from tui.sandbox.classes import parse_class
from tui.sandbox.errors import FieldErrors
from tui.sandbox.fields import flag, number, text, whole
from tui.sandbox.rating.model import Item

MAX_QUANTITY = 999
MAX_UNIT_WEIGHT = Decimal(50000)
MAX_DIMENSION = Decimal(636)


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
        written = (
            str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        )
        found = parse(written) if isinstance(written, str) else None
        if found is None:
            errors.add(f"{path}.{key}", f"must be {allowed}")
        else:
            hazard[key] = found
    name = text(raw.get("properShippingName"), f"{path}.properShippingName", errors)
    if name:
        hazard["properShippingName"] = name
    return hazard


def _quantity(raw: dict[str, Any], path: str, errors: FieldErrors) -> int:
    key = "quantity" if raw.get("quantity") is not None or raw.get("pieces") is None else "pieces"
    value = raw.get(key)
    field = f"{path}.{key}"
    if value is None:
        errors.add(field, "is required (pieces is accepted too)")
    elif not whole(value):
        errors.add(field, "must be a whole number")
    elif value < 1:
        errors.add(field, "must be at least 1")
    elif value > MAX_QUANTITY:
        errors.add(field, f"must be at most {MAX_QUANTITY}")
    else:
        return int(value)
    return 0


def item(raw: Any, path: str, errors: FieldErrors) -> Item | None:
    """The item at ``path``, or None with its errors added."""
    if not isinstance(raw, dict):
        errors.add(path, "must be an object")
        return None
    before = len(errors.items)
    weight = number(raw.get("weight"), f"{path}.weight", errors, MAX_UNIT_WEIGHT)
    dims = [
        number(raw.get(name), f"{path}.{name}", errors, MAX_DIMENSION)
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
    description = text(raw.get("description"), f"{path}.description", errors)
    nmfc = text(raw.get("nmfc"), f"{path}.nmfc", errors)
    stackable = flag(raw.get("stackable"), f"{path}.stackable", errors)
    hazardous = flag(raw.get("hazardous"), f"{path}.hazardous", errors)
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
