"""Save checked credentials where the setting says, and say where they went."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tui.api.secret import Secret
from tui.config.settings import CredentialStore
from tui.config.urls import canonical_base_url
from tui.credentials import index
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


def save(
    profile: str,
    base_url: str,
    client_id: str,
    secret: Secret,
    target: Literal["keyring", "file"],
    *,
    keyring_store: KeyringStore | None = None,
    file_store: FileStore | None = None,
) -> Saved:
    """Save in the keyring (read back) or the plain file; raises KeyringUnusableError etc."""
    url = canonical_base_url(base_url)
    if target == "file":
        store = file_store or FileStore()
        path = store.save(profile, url, client_id, secret)
        saved = Saved(
            "file",
            f"the plain file {path} (mode 0600)",
            "Not secure: anyone who can use your account, and root, can read this file.",
        )
        backend = ""
    else:
        state: KeyringState = (keyring_store or KeyringStore()).save(
            profile, url, client_id, secret
        )
        warning = None
        if state.status == "insecure":
            warning = (
                f"The keyring backend {state.backend} is not an OS keyring: "
                "the secret is stored unencrypted."
            )
        saved = Saved(
            "keyring",
            f"the keyring ({state.backend}) as service {service_name(profile)!r}, user {url!r}",
            warning,
        )
        backend = state.backend
    from datetime import UTC, datetime

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
