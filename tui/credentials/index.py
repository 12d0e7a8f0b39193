"""A non-secret note of where each profile's credentials were saved (keyring cannot list)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from tui.atomic import write_atomically
from tui.config import paths

Store = Literal["keyring", "file"]


@dataclass(frozen=True)
class IndexEntry:
    """Where one profile's credentials went: never the secret."""

    base_url: str
    client_id: str
    store: Store
    saved_at: str
    backend: str = ""


def index_file() -> Path:
    """The index lives in the data dir, so saving credentials never rewrites the config."""
    return paths.data_dir() / "credentials-index.json"


def read_index(path: Path | None = None) -> dict[str, IndexEntry]:
    """Entries by profile; an unreadable index counts as empty (it is only a convenience)."""
    file = path or index_file()
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return {name: IndexEntry(**entry) for name, entry in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def record(profile: str, entry: IndexEntry | None, path: Path | None = None) -> None:
    """Set (or with None, remove) a profile's entry."""
    file = path or index_file()
    entries = read_index(file)
    if entry is None:
        if entries.pop(profile, None) is None:
            return
    else:
        entries[profile] = entry
    file.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({k: asdict(v) for k, v in entries.items()}, indent=2, sort_keys=True)
    write_atomically(file, text + "\n", mode=0o600)
