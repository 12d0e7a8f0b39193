"""ZIP lookup (offline ``zipcodes`` data behind an LRU cache) and road distance."""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from functools import lru_cache

ZIP_RE = re.compile(r"^\d{5}(-\d{4})?$")
CIRCUITY = 1.18
CONTIGUOUS_EXCLUDED = frozenset({"AK", "HI", "PR", "VI", "GU", "AS", "MP", "AA", "AE", "AP"})


@dataclass(frozen=True)
class Zip:
    """What the sandbox needs to know about a ZIP code."""

    code: str
    city: str
    state: str
    lat: float
    lon: float
    timezone: str
    kind: str
    area_code: str

    @property
    def contiguous(self) -> bool:
        """Whether the ZIP is in the 48 contiguous states (or DC)."""
        return self.state not in CONTIGUOUS_EXCLUDED

    @property
    def freight_ok(self) -> bool:
        """Whether freight can be picked up or delivered there (not PO Box or military)."""
        return self.kind not in ("PO BOX", "MILITARY")


@lru_cache(maxsize=8192)
def lookup(code: str) -> Zip | None:
    """Return the ZIP (5 digits or ZIP+4) or None when malformed or unknown."""
    if not ZIP_RE.match(code):
        return None
    import zipcodes

    matches = zipcodes.matching(code[:5])  # type: ignore[no-untyped-call]
    if not matches:
        return None
    row = matches[0]
    try:
        lat, lon = float(row["lat"]), float(row["long"])
    except (TypeError, ValueError):
        return None
    area_codes = row.get("area_codes") or ["555"]
    return Zip(
        code=code[:5],
        city=str(row["city"]),
        state=str(row["state"]),
        lat=lat,
        lon=lon,
        timezone=str(row.get("timezone") or "America/Chicago"),
        kind=str(row.get("zip_code_type") or "STANDARD"),
        area_code=str(area_codes[0]),
    )


def haversine_miles(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in statute miles."""
    rlat1, rlat2 = math.radians(lat1), math.radians(lat2)
    dlat = rlat2 - rlat1
    dlon = math.radians(lon2 - lon1)
    a = math.sin(dlat / 2) ** 2 + math.cos(rlat1) * math.cos(rlat2) * math.sin(dlon / 2) ** 2
    return 3958.8 * 2 * math.asin(min(1.0, math.sqrt(a)))


def road_miles(origin: Zip, dest: Zip) -> float:
    """Road miles: great-circle miles times circuity, at least 25."""
    return max(25.0, haversine_miles(origin.lat, origin.lon, dest.lat, dest.lon) * CIRCUITY)


def warm_in_background() -> threading.Thread:
    """Start decompressing the ZIP data in a daemon thread so the first rate is quick."""
    thread = threading.Thread(target=lookup, args=("60601",), name="zip-warmup", daemon=True)
    thread.start()
    return thread
