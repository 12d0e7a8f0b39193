"""ZIP and Canadian postal code lookup (offline data behind an LRU cache) and road distance."""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from functools import lru_cache

import zipcodes

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
    country: str = "US"

    @property
    def contiguous(self) -> bool:
        """Whether the ZIP is in the 48 contiguous states (or DC)."""
        return self.state not in CONTIGUOUS_EXCLUDED and self.state not in CANADA_REMOTE

    @property
    def freight_ok(self) -> bool:
        """Whether freight can be picked up or delivered there (not PO Box or military)."""
        return self.kind not in ("PO BOX", "MILITARY")


#: first letter of a Canadian postal code -> (city, province, lat, lon, time zone)
CANADA: dict[str, tuple[str, str, float, float, str]] = {
    "A": ("St. John's", "NL", 47.56, -52.71, "America/St_Johns"),
    "B": ("Halifax", "NS", 44.65, -63.57, "America/Halifax"),
    "C": ("Charlottetown", "PE", 46.24, -63.13, "America/Halifax"),
    "E": ("Moncton", "NB", 46.09, -64.78, "America/Moncton"),
    "G": ("Quebec", "QC", 46.81, -71.21, "America/Toronto"),
    "H": ("Montreal", "QC", 45.50, -73.57, "America/Toronto"),
    "J": ("Sherbrooke", "QC", 45.40, -71.89, "America/Toronto"),
    "K": ("Ottawa", "ON", 45.42, -75.70, "America/Toronto"),
    "L": ("Mississauga", "ON", 43.59, -79.64, "America/Toronto"),
    "M": ("Toronto", "ON", 43.65, -79.38, "America/Toronto"),
    "N": ("London", "ON", 42.98, -81.25, "America/Toronto"),
    "P": ("Sudbury", "ON", 46.49, -80.99, "America/Toronto"),
    "R": ("Winnipeg", "MB", 49.90, -97.14, "America/Winnipeg"),
    "S": ("Regina", "SK", 50.45, -104.61, "America/Regina"),
    "T": ("Calgary", "AB", 51.05, -114.07, "America/Edmonton"),
    "V": ("Vancouver", "BC", 49.28, -123.12, "America/Vancouver"),
    "X": ("Yellowknife", "NT", 62.45, -114.37, "America/Yellowknife"),
    "Y": ("Whitehorse", "YT", 60.72, -135.06, "America/Whitehorse"),
}
CANADA_REMOTE = frozenset({"NT", "NU", "YT"})


def lookup_canada(code: str) -> Zip:
    """A Canadian postal code (``H4P 2N2``), placed at its region's main city."""
    city, province, lat, lon, zone = CANADA[code[0]]
    return Zip(code, city, province, lat, lon, zone, "STANDARD", "555", "CA")


@lru_cache(maxsize=8192)
def lookup(code: str) -> Zip | None:
    """Return the ZIP (5 digits or ZIP+4, or a Canadian ``A1A 1A1``) or None when unknown."""
    if len(code) == 7 and code[0] in CANADA and code[3] == " ":
        return lookup_canada(code)
    if not ZIP_RE.match(code):
        return None

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
