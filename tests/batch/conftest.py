"""Helpers of the batch tests: the demo profile's context on a fixed day, and order files."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tui.batch.orders import Context
from tui.demo_profile import demo_profile

MONDAY = date(2026, 11, 23)
"""The day the tests run on, whatever the machine's date (a Monday before Thanksgiving)."""
WMS_EXPORT = Path(__file__).parent / "data" / "wms-export.csv"
"""A copy of the shared warehouse export (../shared/data/orders/wms-export.csv): UTF-8 with
BOM, CRLF, 120 orders on 197 rows, 7 rows wrong."""

KNOWN_ZIPS = {
    "06060": "CT", "07030": "NJ", "02108": "MA", "60607": "IL", "30336": "GA", "72082": "AR",
    "04862": "ME", "30303": "GA", "75207": "TX", "89410": "NV", "00501": "NY",
}  # fmt: skip


def zip_state(zip5: str) -> str | None:
    """A few ZIPs' states (the real data is read by the wms-export test)."""
    return KNOWN_ZIPS.get(zip5)


def demo_context(today: date = MONDAY, **changes: object) -> Context:
    """The demo profile's context (Chicago and Atlanta docks, emergency contact)."""
    profile = demo_profile()
    base = {
        "today": today,
        "profile": "demo",
        "address_book": tuple(profile.address_book),
        "default_origin": profile.default_origin,
        "emergency_name": profile.emergency_name,
        "emergency_phone": profile.emergency_phone,
        "zip_state": zip_state,
    }
    base.update(changes)
    return Context(**base)  # type: ignore[arg-type]


@pytest.fixture
def context() -> Context:
    """The demo profile's context on ``MONDAY``."""
    return demo_context()


def write(path: Path, text: str, encoding: str = "utf-8", newline: str = "\n") -> Path:
    """Write ``text`` (lines joined by ``newline``) in ``encoding``."""
    path.write_bytes(text.replace("\n", newline).encode(encoding))
    return path
