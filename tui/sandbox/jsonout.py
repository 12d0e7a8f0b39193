"""JSON encoding that writes Decimal money as a number with exactly two decimals."""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from typing import Any

_encode_str = json.encoder.encode_basestring_ascii


def dumps(value: Any) -> str:
    """Serialize ``value``; Decimals become ``123.40``, datetimes ISO 8601 with ``Z``."""
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts)


def iso(moment: datetime) -> str:
    """Format an aware datetime as ISO 8601 in UTC with a ``Z`` suffix (whole seconds)."""
    text = moment.replace(microsecond=0).isoformat()
    return text.replace("+00:00", "Z")


def _write(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_encode_str(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, Decimal):
        out.append(f"{value:.2f}")
    elif isinstance(value, int | float):
        out.append(json.dumps(value))
    elif isinstance(value, datetime):
        out.append(_encode_str(iso(value)))
    elif isinstance(value, dict):
        out.append("{")
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(str(key)))
            out.append(":")
            _write(item, out)
        out.append("}")
    elif isinstance(value, list | tuple):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _write(item, out)
        out.append("]")
    else:
        raise TypeError(f"cannot encode {type(value).__name__}")
