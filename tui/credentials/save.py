"""Save checked credentials where the setting says, and say where they went."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from tui.api.secret import Secret
from tui.config.settings import CredentialStore
from tui.config.urls import canonical_base_url
from tui.credentials import blocking, index
from tui.credentials.detect import KeyringState
from tui.credentials.file_store import FileStore
from tui.credentials.keyring_store import KeyringStore, service_name

Target = Literal["keyring", "file", "memory"]


def target_for(setting: CredentialStore, insecure_storage: bool = False) -> Target:
    """Where a save goes: the plain file only when asked for; ``auto`` never falls back to it."""
    if insecure_storage or setting == "file":
        return "file"
    if setting == "memory":
        return "memory"
    return "keyring"


@dataclass(frozen=True)
class Saved:
    """Where credentials were saved, for the message to the user."""

    target: Literal["keyring", "file"]
    where: str
    """A sentence naming the place: backend and entry, or file path."""
    warning: str | None = None
    """Set for an insecure place (plain file, non-OS keyring backend)."""


async def asave(
    profile: str,
    base_url: str,
    client_id: str,
    secret: Secret,
    target: Literal["keyring", "file"],
    *,
    keyring_store: KeyringStore | None = None,
    file_store: FileStore | None = None,
) -> Saved:
    """``save`` for the app: keyring calls are awaited from a daemon thread."""
    url = canonical_base_url(base_url)
    if target == "file":
        path = (file_store or FileStore()).save(profile, url, client_id, secret)
        return _done(profile, url, client_id, _in_file(path), "")
    state = await (keyring_store or KeyringStore()).asave(profile, url, client_id, secret)
    return _done(profile, url, client_id, _in_keyring(profile, url, state), state.backend)


def _in_file(path: Path) -> Saved:
    return Saved(
        "file",
        f"the plain file {path} (mode 0600)",
        "Not secure: anyone who can use your account, and root, can read this file.",
    )


def _in_keyring(profile: str, url: str, state: KeyringState) -> Saved:
    warning = None
    if state.status == "insecure":
        warning = (
            f"The keyring backend {state.backend} is not an OS keyring: "
            "the secret is stored unencrypted."
        )
    return Saved(
        "keyring",
        f"the keyring ({state.backend}) as service {service_name(profile)!r}, user {url!r}",
        warning,
    )


def _done(profile: str, url: str, client_id: str, saved: Saved, backend: str) -> Saved:
    """Note the save in the non-secret index."""
    index.record(
        profile,
        index.IndexEntry(
            base_url=url,
            client_id=client_id,
            store=saved.target,
            saved_at=datetime.now(UTC).replace(microsecond=0).isoformat(),
            backend=backend,
        ),
    )
    return saved


save = blocking.to_the_end(asave)
"""Save in the keyring (read back) or the plain file; raises KeyringUnusableError etc."""
