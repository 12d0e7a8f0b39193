"""GET /shipments/{id}/tracking: the event list of the later API version, in local times.

The body is a bare JSON array, oldest event first. Each event: ``summary``, ``eventDate``
(YYYY-MM-DD local to where it happened), ``eventTime`` (HH:MM, same zone), ``eventType``,
``createdDate`` (when the carrier reported it, ISO 8601 UTC, never decreasing), plus
``location`` and ``timeZone``.
"""

from __future__ import annotations

import sqlite3
import zlib
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tui.sandbox.geo import lookup
from tui.sandbox.jsonout import iso
from tui.sandbox.store import happened_events


def _zone(postal_code: str | None) -> ZoneInfo:
    place = lookup(postal_code) if postal_code else None
    try:
        return ZoneInfo(place.timezone if place else "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def tracking_events(row: sqlite3.Row, now_s: int) -> list[dict[str, Any]]:
    """The events of a shipment that have happened by ``now_s``, oldest first."""
    _status, happened = happened_events(row, now_s)
    zones = {"origin": _zone(row["o_zip"]), "dest": _zone(row["d_zip"])}
    events = []
    last_report = 0
    for event in happened:
        zone = zones[event.end]
        local = datetime.fromtimestamp(event.time, zone)
        lag = 30 + zlib.crc32(f"{row['id']}:{event.time}".encode()) % 600  # carrier's report lag
        reported = max(last_report, min(event.time + lag, max(now_s, event.time)))
        last_report = reported
        events.append(
            {
                "summary": event.description,
                "eventDate": local.date().isoformat(),
                "eventTime": local.strftime("%H:%M"),
                "eventType": event.kind or event.status,
                "createdDate": iso(datetime.fromtimestamp(reported, UTC)),
                "location": event.location or None,
                "timeZone": zone.key,
            }
        )
    return events
