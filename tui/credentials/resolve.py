"""Where this run's credentials come from: environment > keyring > file > session memory."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

from tui.api.secret import Secret
from tui.config.resolve import ResolvedProfile
from tui.config.urls import canonical_base_url
from tui.credentials import blocking, redact
from tui.credentials import env as env_credentials
from tui.credentials.detect import KeyringState
from tui.credentials.file_store import FileStore, FileStoreError, UnsafeFileError
from tui.credentials.keyring_store import KeyringRead, KeyringStore

Source = Literal["environment", "keyring", "file", "session"]


@dataclass(frozen=True)
class Credentials:
    """A client ID and secret, and where they came from. The repr never shows the secret."""

    client_id: str
    secret: Secret
    source: Source
    saved_at: datetime | None = None

    def token(self) -> Secret:
        """The bearer token ``CLIENT_ID.CLIENT_SECRET``."""
        return Secret(f"{self.client_id}.{self.secret.reveal()}")

    def register(self) -> Credentials:
        """Tell the log filter about the secret and token; returns self."""
        redact.register(self.secret, self.token())
        return self


class SessionMemory:
    """Credentials kept for this run only (never written anywhere)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], Credentials] = {}

    def keep(self, profile: str, base_url: str, client_id: str, secret: Secret) -> Credentials:
        """Remember credentials for a profile and base URL until the app exits."""
        creds = Credentials(client_id, secret, "session").register()
        self._kept[(profile, canonical_base_url(base_url))] = creds
        return creds

    def get(self, profile: str, base_url: str) -> Credentials | None:
        """The kept credentials for a profile and base URL."""
        return self._kept.get((profile, canonical_base_url(base_url)))

    def forget(self, profile: str) -> bool:
        """Drop a profile's kept credentials; False when there were none."""
        keys = [key for key in self._kept if key[0] == profile]
        for key in keys:
            del self._kept[key]
        return bool(keys)

    def __repr__(self) -> str:
        return f"SessionMemory({len(self._kept)} kept)"


@dataclass
class Lookup:
    """What the search for credentials found, and what it saw on the way."""

    credentials: Credentials | None = None
    keyring: KeyringState | None = None
    """The keyring's state, when it was consulted."""
    file_path: Path | None = None
    """The plain file, when it was consulted and holds this profile."""
    problems: list[str] = field(default_factory=list)
    """Messages for the user: a damaged entry, an unsafe file, a bad variable."""
    env_error: bool = False
    """True when the credential variables were set inconsistently (nothing else was tried)."""


def consulted(setting: str) -> tuple[bool, bool]:
    """Whether the keyring and the file are read for a credential_store setting."""
    return setting in ("auto", "keyring"), setting in ("auto", "file")


def _from_env(env: Mapping[str, str], found: Lookup) -> bool:
    try:
        from_env = env_credentials.from_env(env)
    except env_credentials.EnvCredentialError as exc:
        found.problems.append(str(exc))
        found.env_error = True
        return True
    if from_env is None:
        return False
    found.credentials = Credentials(from_env.client_id, from_env.secret, "environment").register()
    return True


def _after_keyring(read: KeyringRead, found: Lookup) -> bool:
    found.keyring = read.state
    if read.problem:
        found.problems.append(f"the keyring entry cannot be used: {read.problem}")
    if read.credentials is None:
        return False
    stored = read.credentials
    found.credentials = Credentials(
        stored.client_id, stored.secret, "keyring", stored.saved_at
    ).register()
    return True


def _from_file(resolved: ResolvedProfile, store: FileStore, found: Lookup) -> bool:
    assert resolved.base_url is not None
    try:
        stored = store.read(resolved.name, resolved.base_url)
    except (UnsafeFileError, FileStoreError) as exc:
        found.problems.append(str(exc))
        return False
    if stored is None:
        return False
    found.file_path = store.path
    found.credentials = Credentials(
        stored.client_id, stored.secret, "file", stored.saved_at
    ).register()
    return True


def _from_memory(resolved: ResolvedProfile, memory: SessionMemory | None, found: Lookup) -> None:
    if memory is not None and resolved.base_url is not None:
        found.credentials = memory.get(resolved.name, resolved.base_url)


async def alookup(
    resolved: ResolvedProfile,
    env: Mapping[str, str],
    memory: SessionMemory | None = None,
    *,
    keyring_store: KeyringStore | None = None,
    file_store: FileStore | None = None,
) -> Lookup:
    """``lookup`` for the app: the keyring read is awaited from a daemon thread."""
    found = Lookup()
    if _from_env(env, found) or resolved.base_url is None:
        return found
    use_keyring, use_file = consulted(resolved.credential_store)
    if use_keyring:
        read = await (keyring_store or KeyringStore()).aread(resolved.name, resolved.base_url)
        if _after_keyring(read, found):
            return found
    if use_file and _from_file(resolved, file_store or FileStore(), found):
        return found
    _from_memory(resolved, memory, found)
    return found


lookup = blocking.to_the_end(alookup)
"""Find credentials for the command line. With env credentials, keyring is never touched."""
