"""City, state and time zone of a US ZIP code from the offline `zipcodes` data, read on demand.

The data takes a second or two to read, so nothing here touches it until `load()` is called
(the quote screen does that in a thread after its first frame); until then `place()` says
nothing rather than "unknown".

The `zipcodes` package builds its 42,000 records in compiled code that holds the interpreter
lock for most of a second: read in a thread of the app, it froze the screen (keys typed at
start-up showed only after it). So a child process reads it once and writes the few fields
used here as a table in the cache dir; the app reads that table, in a thread, in plain
Python that lets the screen run.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from datetime import date, datetime
from pathlib import Path
from typing import NamedTuple

from tui import forms
from tui.config.paths import cache_dir
from tui.domain.postal import is_canadian, province_of

FIELDS = ("zip_code", "city", "state", "timezone")
"""The columns of the table, in order."""

_WRITE_TABLE = """
import os, sys, zipcodes
path, fields = sys.argv[1], sys.argv[2].split(",")
part = f"{path}.{os.getpid()}.part"
with open(part, "w", encoding="utf-8") as out:
    for row in zipcodes.list_all():
        cells = (" ".join(str(row.get(field) or "").split()) for field in fields)
        out.write("\\t".join(cells) + "\\n")
os.replace(part, path)
"""


class ZipPlace(NamedTuple):
    """Where a ZIP code is: `Chicago, IL`, and its time zone (`America/Chicago`)."""

    city: str
    state: str
    timezone: str

    @property
    def name(self) -> str:
        """`Chicago, IL`."""
        return f"{self.city}, {self.state}"


_lock = threading.Lock()
_index: dict[str, ZipPlace] | None = None


def table_path() -> Path:
    """The table of the installed `zipcodes` data, in the cache dir."""

    from importlib.metadata import version

    return cache_dir() / f"zip-places-{version('zipcodes')}.tsv"


def write_table(path: Path) -> None:
    """Write the table at `path` from the `zipcodes` data, in a child process."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-c", _WRITE_TABLE, str(path), ",".join(FIELDS)],
        check=True,
        capture_output=True,
        timeout=120,
    )


def read_table(path: Path) -> dict[str, ZipPlace]:
    """The places of the table at `path`, by ZIP."""
    index: dict[str, ZipPlace] = {}
    places: dict[tuple[str, str, str], ZipPlace] = {}
    with path.open(encoding="utf-8") as table:
        for line in table:
            code, city, state, timezone = line.rstrip("\n").split("\t")
            key = (city, state, timezone)
            found = places.get(key)
            if found is None:
                found = places[key] = ZipPlace(city=city.title(), state=state, timezone=timezone)
            index[code] = found
    return index


def _from_package() -> dict[str, ZipPlace]:
    import zipcodes

    rows = zipcodes.list_all()  # type: ignore[no-untyped-call]
    return {
        str(row["zip_code"]): ZipPlace(
            city=str(row.get("city") or "").title(),
            state=str(row.get("state") or ""),
            timezone=str(row.get("timezone") or ""),
        )
        for row in rows
    }


def load() -> None:
    """Read the ZIP data once (blocking: call it off the UI thread): from the table in the
    cache dir, written first if missing; straight from the package if that fails."""
    global _index
    with _lock:
        if _index is not None:
            return
        try:
            path = table_path()
            if not path.is_file():
                write_table(path)
            _index = read_table(path)
        except (OSError, ValueError, subprocess.SubprocessError):
            _index = _from_package()


def use_index(index: dict[str, ZipPlace] | None) -> None:
    """Replace the data (tests give a few ZIPs; None forgets it, as before `load()`)."""
    global _index
    _index = index


def is_loaded() -> bool:
    """Whether `place()` can tell a known ZIP from an unknown one yet."""
    return _index is not None


def place(code: str) -> ZipPlace | None:
    """The place of a 5-digit ZIP (or ZIP+4), or None when unknown or not loaded yet."""
    if _index is None:
        return None
    return _index.get(code.strip()[:5])


def is_unknown(code: str) -> bool:
    """True only when the data is loaded and has no such ZIP (a Canadian postal code is never
    unknown: the data is the US's, and the service checks Canadian ones)."""
    if is_canadian(code):
        return False
    return _index is not None and code.strip()[:5] not in _index


def timezone_of(code: str) -> str | None:
    """The time zone of a ZIP (from the data, once loaded) or of a Canadian postal code (its
    province's), else None."""
    province = province_of(code)
    if province is not None:
        return province.timezone
    found = place(code)
    return found.timezone if found is not None and found.timezone else None


def today_at(code: str, now: datetime) -> date:
    """The date at the code's time zone at `now` (aware); the local date when it is unknown."""
    zone = timezone_of(code)
    if zone is not None:
        try:  # zoneinfo loads here: the first frame needs no zone (the ZIP data comes later)
            return now.astimezone(forms.ZoneInfo(zone)).date()
        except (forms.ZoneInfoNotFoundError, ValueError):
            pass
    return now.astimezone().date()
