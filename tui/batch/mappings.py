"""Column mappings saved per profile under a name (``batch-mappings.json`` in the data dir),
found again by name or by a file's headers."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from tui.batch.fields import ColumnMapping

FILE_NAME: Final = "batch-mappings.json"
_NAME = re.compile(r"^[\w .,()+&'-]{1,60}$")


def name_problem(name: str) -> str:
    """Why a mapping cannot be saved under ``name`` ('' when it can)."""
    if _NAME.match(name):
        return ""
    return f"mapping name {name!r}: up to 60 letters, digits, spaces and . , ( ) + & ' -"


class MappingStore:
    """Saved mappings: ``{"v": 1, "profiles": {profile: {name: mapping}}}``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_dir(cls, data_dir: Path) -> MappingStore:
        """The mappings of a data dir."""
        return cls(data_dir / FILE_NAME)

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"v": 1, "profiles": {}}
        if not isinstance(data, dict) or not isinstance(data.get("profiles"), dict):
            return {"v": 1, "profiles": {}}
        return data

    def names(self, profile: str) -> list[str]:
        """The names saved for a profile."""
        saved = self._read()["profiles"].get(profile, {})
        return sorted(saved) if isinstance(saved, dict) else []

    def get(self, profile: str, name: str) -> ColumnMapping | None:
        """The mapping saved under ``name``, or None."""
        saved = self._read()["profiles"].get(profile, {})
        if not isinstance(saved, dict):
            return None
        return ColumnMapping.from_json(name, saved.get(name))

    def for_headers(self, profile: str, headers: Sequence[str]) -> ColumnMapping | None:
        """The mapping saved for files with exactly these headers (the latest saved), or None."""
        saved = self._read()["profiles"].get(profile, {})
        if not isinstance(saved, dict):
            return None
        found = None
        for name, data in saved.items():
            mapping = ColumnMapping.from_json(name, data)
            if mapping is not None and mapping.same_headers(headers):
                found = mapping
        return found

    def save(self, profile: str, name: str, mapping: ColumnMapping) -> None:
        """Keep ``mapping`` under ``name`` (replacing one of that name). Raises ValueError."""
        from tui.drafts import write_atomically

        if problem := name_problem(name):
            raise ValueError(problem)
        data = self._read()
        profiles = data["profiles"]
        saved = profiles.get(profile)
        if not isinstance(saved, dict):
            saved = profiles[profile] = {}
        saved.pop(name, None)
        saved[name] = mapping.to_json()
        write_atomically(self.path, json.dumps(data, indent=1, ensure_ascii=False))
