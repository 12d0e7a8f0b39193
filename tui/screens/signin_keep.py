"""Keeping checked credentials (OS keyring, plain file or this session), then using them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from tui.config.resolve import ResolvedProfile
from tui.credentials.file_store import FileStoreError, UnsafeFileError
from tui.credentials.keyring_store import KeyringUnusableError
from tui.credentials.resolve import Credentials
from tui.credentials.save import asave, target_for
from tui.session import ENV_WORDS

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from tui.api.secret import Secret
    from tui.config.settings import Profile
    from tui.credentials.detect import KeyringState
    from tui.credentials.save import Saved
    from tui.credentials.session import CredentialConnector
    from tui.session import Session

Keep = Literal["keyring", "file", "session"]


class Kept(NamedTuple):
    """Where checked credentials went, or why they were not kept."""

    credentials: Credentials | None
    """None: not kept (the user closed the keyring's diagnosis, or the file failed)."""
    where: str = ""
    """Where the secret is, as the sign-in's notice says it."""
    warning: str = ""
    """What the store warned of (shown, and the sign-in goes on)."""
    problem: str = ""
    """Why nothing was kept, when a store failed."""


async def keep(
    connector: CredentialConnector,
    chosen: Keep | None,
    checked: tuple[str, str, str, Secret],
    ask: Callable[[KeyringState], Awaitable[Keep | None]],
) -> Kept:
    """Keep the ``checked`` credentials (name, URL, client ID, secret) as ``chosen`` (from
    the diagnosis) or the setting says; ``ask``: the way instead, when the keyring is
    unusable (None: none)."""

    name, url, client_id, secret = checked
    store = connector.resolved.credential_store
    choice: Keep = chosen or cast(Keep, target_for(store))
    if target_for(store) == "memory":
        choice = "session"
    if choice == "keyring":
        try:
            saved = await asave(name, url, client_id, secret, "keyring")
        except KeyringUnusableError as exc:
            picked = await ask(exc.state)
            if picked is None:
                return Kept(None)
            choice = picked
        else:
            return _saved(saved, client_id, secret, "keyring")
    if choice == "file":
        try:
            saved = await asave(name, url, client_id, secret, "file")
        except (UnsafeFileError, FileStoreError, OSError) as exc:
            return Kept(None, problem=f"Not saved: {exc}")
        return _saved(saved, client_id, secret, "file")
    creds = connector.memory.keep(name, url, client_id, secret)
    return Kept(creds, "kept for this session only")


def _saved(
    saved: Saved, client_id: str, secret: Secret, source: Literal["keyring", "file"]
) -> Kept:
    where = "saved in the OS keyring" if source == "keyring" else "saved in a plain file"
    credentials = Credentials(client_id, secret, source).register()
    return Kept(credentials, where, warning=saved.warning or "")


def apply(
    session: Session, connector: CredentialConnector, profile: Profile, credentials: Credentials
) -> str | None:
    """Make the session use the new profile and credentials; save the config if changed.
    Why the config file was not updated, if it was not."""
    old = connector.resolved
    resolved = ResolvedProfile(
        name=profile.name,
        environment=profile.environment,
        base_url=profile.canonical_url,
        profile=profile,
        credential_store=old.credential_store,
        sources={**old.sources, "name": "config", "base_url": "config"},
    )
    connector.use(resolved, session.config.with_profile(profile), credentials)
    try:
        session.switch_profile(
            profile, ENV_WORDS[profile.environment], connector.connect, save=True
        )
    except OSError as exc:
        return f"The config file was not updated: {exc}"
    return None
