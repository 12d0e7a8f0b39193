"""Drafts: forms saved on every change so a crash or a dropped SSH session loses nothing."""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")


class DraftStore:
    """Keeps one JSON document per draft name in a directory, written atomically."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, name: str) -> Path:
        if not _NAME.match(name):
            raise ValueError(f"not a draft name: {name!r}")
        return self.directory / f"{name}.json"

    def save(self, name: str, data: dict[str, Any]) -> None:
        """Write the draft; a crash mid-write leaves the previous version intact."""
        text = json.dumps(data, indent=1, sort_keys=True, default=str)
        write_atomically(self._path(name), text)

    def load(self, name: str) -> dict[str, Any] | None:
        """Return the saved draft, or None when there is none or it cannot be read."""
        try:
            data = json.loads(self._path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def clear(self, name: str) -> None:
        """Forget the draft (after the form was used up, e.g. a booking went through)."""
        self._path(name).unlink(missing_ok=True)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (private dir made if missing) so a crash keeps the old one."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
