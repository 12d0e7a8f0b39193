"""Reading leniently: repair an answer field by field until it parses, and normalise vocabulary."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic.alias_generators import to_camel, to_snake

__all__ = [
    "norm_currency",
    "norm_mode",
    "norm_status",
    "readable",
    "readable_number",
    "validate_leniently",
]

_T = TypeVar("_T")
_MAX_ROUNDS = 64
_NAME_KEYS = (
    "name", "displayName", "label", "title", "text", "value", "code", "number", "id",
    "description", "type",
)  # fmt: skip
_NUMBER_KEYS = ("amount", "value", "total", "number")
_NUMERIC_ERRORS = ("int", "float", "decimal")
_MODES = {
    "ftl": "truckload", "tl": "truckload", "full truckload": "truckload", "truck load": "truckload",
    "less than truckload": "ltl", "less-than-truckload": "ltl", "small parcel": "parcel",
}  # fmt: skip
_STATUSES = {"cancelled": "canceled", "pickedup": "picked-up", "picked": "picked-up"}


def readable(value: Any) -> str | None:
    """A short text for a value of the wrong shape: an object's name (or number, id…), a list's
    entries joined, a number as written; None when nothing readable is there."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | Decimal):
        return str(value)
    if isinstance(value, Mapping):
        for key in _NAME_KEYS:
            found = readable(value.get(key))
            if found:
                return found
        return None
    if isinstance(value, Sequence):
        parts = [p for p in (readable(v) for v in value) if p]
        return ", ".join(parts) or None
    return None


def readable_number(value: Any) -> Decimal | None:
    """A finite number read from a value of any shape (see ``_number``), or None."""
    return _finite(_number(value))


def _number(value: Any) -> Decimal | None:
    """A number from text such as ``$1,234.50`` or ``1234.50 USD``, or from ``{"amount": …}``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Decimal):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, Mapping):
        for key in _NUMBER_KEYS:
            if key in value:
                return _number(value[key])
        return None
    if isinstance(value, str):
        text = value.replace(",", "").replace("$", "").strip()
        text = text.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ").strip()
        text = text.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ ").strip()
        try:
            number = Decimal(text)
        except InvalidOperation:
            return None
        return number if number.is_finite() else None
    return None


def _finite(number: Decimal | None) -> Decimal | None:
    return number if number is not None and number.is_finite() else None


def records(value: Any) -> Any:
    """A list of records: null is none, and entries that are not objects are left out."""
    if value is None:
        return []
    if isinstance(value, list):
        return [entry for entry in value if isinstance(entry, dict)]
    return value


def norm_mode(value: str) -> str:
    """``LTL`` -> ``ltl``, ``FTL`` -> ``truckload``: modes compare in lower case."""
    text = " ".join(value.strip().lower().split())
    return _MODES.get(text, text)


def norm_status(value: str) -> str:
    """``Picked Up``, ``PICKED_UP`` -> ``picked-up``; ``Cancelled`` -> ``canceled``."""
    text = "-".join(value.strip().lower().replace("_", " ").replace("-", " ").split())
    return _STATUSES.get(text, text)


def norm_currency(value: str) -> str:
    """``cad`` -> ``CAD``."""
    return value.strip().upper()


def _key_in(container: Mapping[str, Any], part: str) -> str | None:
    if part in container:
        return part
    for other in (to_snake(part), to_camel(part)):
        if other in container:
            return other
    return None


def _target(root: Any, loc: Sequence[Any]) -> tuple[Any, Any, int] | None:
    """The container and key of the deepest part of ``loc`` present in ``root``, and its depth."""
    parent: Any = None
    key: Any = None
    node = root
    depth = 0
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str):
            found = _key_in(node, part)
            if found is None:
                break
            parent, key, node = node, found, node[found]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            parent, key, node = node, part, node[part]
        else:
            break
        depth += 1
    if parent is None:
        return None
    return parent, key, depth


def _repaired(data: Any, exc: ValidationError) -> Any:
    """A copy of ``data`` with each failing value replaced by its fallback; None if none could."""
    fixed = copy.deepcopy(data)
    changed = False
    drops: dict[int, tuple[list[Any], set[int]]] = {}
    for error in exc.errors(include_url=False, include_context=False):
        found = _target(fixed, error["loc"])
        if found is None:
            continue
        parent, key, depth = found
        kind = str(error["type"])
        if kind == "missing":
            # A required part is absent: the enclosing list entry cannot be read at all.
            container = _enclosing_list(fixed, error["loc"][:depth])
            if container is not None:
                lst, index = container
                drops.setdefault(id(lst), (lst, set()))[1].add(index)
                changed = True
            elif isinstance(parent, dict) and key in parent:
                del parent[key]  # an optional field whose value lacks a required part
                changed = True
            continue
        value = parent[key]
        replacement: Any = None
        if kind.startswith("string"):
            replacement = readable(value)
        elif kind.startswith(_NUMERIC_ERRORS):
            number = readable_number(value)
            replacement = None if number is None else number
        if replacement is not None and replacement != value:
            parent[key] = replacement
        elif isinstance(parent, dict):
            del parent[key]
        else:
            drops.setdefault(id(parent), (parent, set()))[1].add(key)
        changed = True
    for lst, indexes in drops.values():
        for index in sorted(indexes, reverse=True):
            if index < len(lst):
                del lst[index]
    return fixed if changed else None


def _enclosing_list(root: Any, loc: Sequence[Any]) -> tuple[list[Any], int] | None:
    """The innermost list on the path ``loc`` and the index of the entry the path goes through."""
    node = root
    found: tuple[list[Any], int] | None = None
    for part in loc:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            found = (node, part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and _key_in(node, part):
            node = node[_key_in(node, part)]
        else:
            break
    return found


def validate_leniently(validate: Callable[[Any], _T], data: Any) -> _T:
    """``validate(data)``; when it fails, repair the failing values and try again.

    A value of the wrong type becomes a readable text (for a text field), a number read from
    text (for a number field) or is dropped (the field's default then applies); a list entry
    that lacks a required part is dropped. Raises the first error when nothing can be repaired.
    """
    try:
        return validate(data)
    except ValidationError as error:
        first = exc = error
    fixed = data
    for _ in range(_MAX_ROUNDS):
        fixed = _repaired(fixed, exc)
        if fixed is None:
            break
        try:
            return validate(fixed)
        except ValidationError as again:
            exc = again
    raise first


def compact_json(value: Any) -> str:
    """A value as compact JSON text (for logs and readable fallbacks)."""
    return json.dumps(value, default=str, separators=(",", ":"))[:200]
