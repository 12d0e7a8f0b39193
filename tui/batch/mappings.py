"""Column mappings saved per profile under a name, in the store (shared by its stations),
found again by name or by a file's headers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tui.batch.fields import ColumnMapping
from tui.store import open_store
from tui.store.core import now_text

if TYPE_CHECKING:
    from tui.store import Store

FILE_NAME: Final = "batch-mappings.json"
"""Where mappings were kept before the store (imported once, never written now)."""
SAVED_KEY: Final = "saved_at"
"""Kept beside a mapping's fields: when it was saved (the latest of one file's headers wins)."""
_NAME = re.compile(r"^[\w .,()+&'-]{1,60}$")


def name_problem(name: str) -> str:
    """Why a mapping cannot be saved under ``name`` ('' when it can)."""
    if _NAME.match(name):
        return ""
    return f"mapping name {name!r}: up to 60 letters, digits, spaces and . , ( ) + & ' -"


class MappingStore:
    """Saved mappings of every profile, in the store (shared by its stations): one record per
    (profile, name). The data dir's ``batch-mappings.json`` comes in once, on first use, and
    is not written any more."""

    def __init__(self, store: Store, data_dir: Path | None = None, *, owned: bool = False) -> None:
        self.store = store
        self.data_dir = data_dir
        self._owned = owned
        self._imported = data_dir is None

    @classmethod
    def in_dir(cls, data_dir: Path) -> MappingStore:
        """The mappings of the configured store (SQLite in ``data_dir`` by default), which
        ``close`` lets go of. Raises StoreError."""

        return cls(open_store(data_dir), data_dir, owned=True)

    def close(self) -> None:
        """Let go of the store, when this opened it."""
        if self._owned:
            self.store.close()

    def _saved(self, profile: str) -> dict[str, dict[str, Any]]:
        if not self._imported and self.data_dir is not None:
            from tui.store.importing import MAPPINGS_FILE, import_mappings
            from tui.store.named import import_once

            folder = self.data_dir
            import_once(
                self.store,
                folder,
                "mappings",
                lambda: import_mappings(self.store, folder / MAPPINGS_FILE),
            )
            self._imported = True
        return self.store.named("mappings", profile)

    def names(self, profile: str) -> list[str]:
        """The names saved for a profile."""
        return sorted(self._saved(profile))

    def get(self, profile: str, name: str) -> ColumnMapping | None:
        """The mapping saved under ``name``, or None."""
        return ColumnMapping.from_json(name, self._saved(profile).get(name))

    def for_headers(self, profile: str, headers: Sequence[str]) -> ColumnMapping | None:
        """The mapping saved for files with exactly these headers (the latest saved), or None."""
        found: tuple[str, ColumnMapping] | None = None
        for name, data in self._saved(profile).items():
            mapping = ColumnMapping.from_json(name, data)
            if mapping is None or not mapping.same_headers(headers):
                continue
            saved = str(data.get(SAVED_KEY) or "")
            if found is None or saved >= found[0]:
                found = (saved, mapping)
        return found[1] if found is not None else None

    def save(self, profile: str, name: str, mapping: ColumnMapping) -> None:
        """Keep ``mapping`` under ``name`` (replacing one of that name: the last save wins).
        Raises ValueError (a name that cannot be) and StoreError (an OSError)."""

        if problem := name_problem(name):
            raise ValueError(problem)
        self.store.put_named(
            "mappings", profile, name, {**mapping.to_json(), SAVED_KEY: now_text()}
        )
