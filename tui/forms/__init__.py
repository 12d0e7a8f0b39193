"""Form logic without a UI: what a form holds, checks and sends (no Textual here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.late import exports

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo as ZoneInfo
    from zoneinfo import ZoneInfoNotFoundError as ZoneInfoNotFoundError

_WHERE = {
    # The time zones of the ZIP data (zip_places.today_at): the first frame needs none.
    "ZoneInfo": "zoneinfo:ZoneInfo",
    "ZoneInfoNotFoundError": "zoneinfo:ZoneInfoNotFoundError",
}

__all__ = ["ZoneInfo", "ZoneInfoNotFoundError"]

__getattr__, __dir__ = exports(__name__, _WHERE)
