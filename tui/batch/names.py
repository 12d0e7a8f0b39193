"""The name an order's paperwork files start with, unique per order and the same every run."""

from __future__ import annotations

import hashlib
from typing import Final

from tui.domain.safe_text import safe_name_part

NAME_LIMIT: Final = 40
"""Characters of an order number kept in its paperwork's names."""


def paperwork_stem(key: str) -> str:
    """An order number as its files' names start: the number itself when it is a safe file
    name, else cleaned plus six hex digits of its hash (``SO/1`` -> ``SO-1-5e4c2a``), so
    numbers that clean alike (``SO/1``, ``SO-1``, ``SO 1``) never share a name, whichever is
    booked first."""
    cleaned = safe_name_part(key, limit=NAME_LIMIT) or "order"
    if cleaned == key:
        return cleaned
    digest = hashlib.sha256(key.encode("utf-8", errors="surrogatepass")).hexdigest()[:6]
    return f"{cleaned}-{digest}"
