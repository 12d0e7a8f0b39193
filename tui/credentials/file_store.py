"""The opt-in plain credentials file (not secure): ``credentials.json`` in the config dir.

Only used when the user asks for it (``--insecure-storage``, ``credential_store = "file"``, or
a typed confirmation in the app). Written as mode 0600 in a 0700 folder through a temp file
and an atomic replace; refused, the way ssh refuses a key, when others can read it or it
belongs to someone else.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from tui.api.secret import Secret
from tui.atomic import write_atomically
from tui.config import paths
from tui.config.urls import canonical_base_url
from tui.credentials import redact
from tui.credentials.stored import StoredCredentials, StoredFormatError

FILE_NAME = "credentials.json"


class UnsafeFileError(Exception):
    """The credentials file is open to others or not ours; says how to fix it."""


class FileStoreError(Exception):
    """The credentials file cannot be read or written."""


def credentials_file() -> Path:
    """Where the plain credentials file lives."""
    return paths.config_dir() / FILE_NAME


class FileStore:
    """Profiles' credentials in one JSON file: ``{"v": 1, "profiles": {name: entry}}``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else credentials_file()

    def read(self, profile: str, base_url: str) -> StoredCredentials | None:
        """The profile's entry if it was saved for this base URL. Raises UnsafeFileError."""
        entry = self._load().get(profile)
        if not isinstance(entry, dict) or entry.get("base_url") != canonical_base_url(base_url):
            return None
        try:
            stored = StoredCredentials.decode(json.dumps(entry.get("credentials")))
        except StoredFormatError as exc:
            raise FileStoreError(f"{self.path}: profile {profile!r}: {exc}") from None
        redact.register(stored.secret)
        return stored

    def saved_url(self, profile: str) -> str | None:
        """The base URL the profile's entry was saved for, if any."""
        entry = self._load().get(profile)
        return entry.get("base_url") if isinstance(entry, dict) else None

    def save(self, profile: str, base_url: str, client_id: str, secret: Secret) -> Path:
        """Add or replace the profile's entry (mode 0600, atomic). Returns the file's path."""
        profiles = self._load()
        stored = StoredCredentials.new(client_id, secret)
        profiles[profile] = {
            "base_url": canonical_base_url(base_url),
            "credentials": json.loads(stored.encode().reveal()),
        }
        self._write(profiles)
        return self.path

    def delete(self, profile: str) -> bool:
        """Remove the profile's entry; False when there was none. The file goes when empty."""
        profiles = self._load()
        if profile not in profiles:
            return False
        del profiles[profile]
        if profiles:
            self._write(profiles)
        else:
            self.path.unlink(missing_ok=True)
        return True

    def _load(self) -> dict[str, Any]:
        """The profiles in the file ({} when there is none), after the safety checks."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise FileStoreError(f"cannot open {self.path}: {exc.strerror}") from None
        with os.fdopen(fd, "rb") as handle:
            check_private(self.path, os.fstat(handle.fileno()))
            raw = handle.read()
        try:
            data = json.loads(raw)
        except ValueError:
            raise FileStoreError(f"{self.path} is not valid JSON; fix or delete it") from None
        if (
            not isinstance(data, dict)
            or data.get("v") != 1
            or not isinstance(data.get("profiles"), dict)
        ):
            raise FileStoreError(f"{self.path} has an unknown format; fix or delete it")
        profiles: dict[str, Any] = data["profiles"]
        return profiles

    def _write(self, profiles: dict[str, Any]) -> None:
        folder = self.path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
        text = json.dumps({"v": 1, "profiles": profiles}, indent=2, sort_keys=True) + "\n"
        write_atomically(self.path, text, mode=0o600)


def check_private(path: Path, info: os.stat_result) -> None:
    """Raise UnsafeFileError unless the file is ours and only we can read or write it."""
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFileError(f"{path} is not a regular file; remove it")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeFileError(
            f"{path} belongs to another user (uid {info.st_uid}); it is not used. "
            "Remove it and log in again."
        )
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        raise UnsafeFileError(
            f"{path} can be read or changed by other users (mode {mode:04o}); it is not used. "
            f"Fix it with: chmod 600 {path}"
        )
