"""The TOML reader: loaded only when there is a config file to read (a lazy export of
``tui.config``), so a start without one does without ``tomllib``."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from typing import Any


def parse(text: str) -> dict[str, Any]:
    """The TOML tables of ``text`` as plain dicts and lists (numbers with a fraction as
    Decimal); raises ValueError (``tomllib.TOMLDecodeError``) for text that is not TOML."""
    return tomllib.loads(text, parse_float=Decimal)
