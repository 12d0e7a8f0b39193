"""JSON encoding that writes Decimal money as a number with exactly two decimals."""

from __future__ import annotations

import json
import re
import secrets
from datetime import datetime
from decimal import Decimal
from typing import Any


def iso(moment: datetime) -> str:
    """Format an aware datetime as ISO 8601 in UTC with a ``Z`` suffix (whole seconds)."""
    text = moment.replace(microsecond=0).isoformat()
    return text.replace("+00:00", "Z")


def dumps(value: Any) -> str:
    """Serialize ``value``; Decimals become ``123.40``, datetimes ISO 8601 with ``Z``.

    Decimals go through the C encoder as marker strings carrying a random nonce, then the
    markers are swapped for bare numbers (no user text can carry this call's nonce).
    """
    nonce = secrets.token_hex(8)
    marker = f"\x01{nonce}:"

    def default(obj: Any) -> Any:
        if isinstance(obj, Decimal):
            return f"{marker}{obj:.2f}"
        if isinstance(obj, datetime):
            return iso(obj)
        raise TypeError(f"cannot encode {type(obj).__name__}")

    text = json.dumps(value, default=default, separators=(",", ":"))
    if "\\u0001" not in text:
        return text
    return re.sub(r'"\\u0001' + nonce + r':(-?\d+\.\d\d)"', r"\1", text)
