"""Keeping checked credentials (OS keyring, plain file or this session), then using them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, cast

from tui.config.resolve import ResolvedProfile
from tui.credentials.file_store import FileStoreError, UnsafeFileError
from tui.credentials.keyring_store import KeyringUnusableError
from tui.credentials.resolve import Credentials
from tui.credentials.save import asave, target_for
from tui.session import ENV_WORDS

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from tui.api.secret import Secret
    from tui.config.settings import Profile
    from tui.credentials.detect import KeyringState
    from tui.credentials.save import Saved
    from tui.credentials.session import CredentialConnector
    from tui.session import Session
    from tui.widgets.signin_form import SignInForm

Keep = Literal["keyring", "file", "session"]


class SignInPlace(Protocol):
    """What keeping credentials needs of the sign-in screen, and no more."""

    keep_choice: Keep | None

    @property
    def connector(self) -> CredentialConnector: ...

    @property
    def session(self) -> Session: ...

    @property
    def form(self) -> SignInForm: ...

    def show_keyring(self, state: KeyringState | None) -> None: ...

    async def ask_keyring_choice(self, state: KeyringState) -> Keep | None: ...

    def notify(
        self, message: str, *, severity: SeverityLevel = ..., timeout: float | None = ...
    ) -> None: ...


async def keep(
    screen: SignInPlace, name: str, url: str, client_id: str, secret: Secret
) -> tuple[Credentials, str] | None:
    """Keep the checked credentials as the setting (or the diagnosis) says; None: not kept."""

    store = screen.connector.resolved.credential_store
    choice: Keep = screen.keep_choice or cast(Keep, target_for(store))
    if target_for(store) == "memory":
        choice = "session"
    if choice == "keyring":
        try:
            saved = await asave(name, url, client_id, secret, "keyring")
        except KeyringUnusableError as exc:
            screen.show_keyring(exc.state)
            picked = await screen.ask_keyring_choice(exc.state)
            if picked is None:
                return None
            choice = picked
        else:
            return _saved(screen, saved, client_id, secret, "keyring")
    if choice == "file":
        try:
            saved = await asave(name, url, client_id, secret, "file")
        except (UnsafeFileError, FileStoreError, OSError) as exc:
            screen.form.set_message(f"Not saved: {exc}", error=True)
            return None
        return _saved(screen, saved, client_id, secret, "file")
    creds = screen.connector.memory.keep(name, url, client_id, secret)
    return creds, "kept for this session only"


def _saved(
    screen: SignInPlace,
    saved: Saved,
    client_id: str,
    secret: Secret,
    source: Literal["keyring", "file"],
) -> tuple[Credentials, str]:
    if saved.warning:
        screen.notify(saved.warning, severity="warning", timeout=8)
    where = "saved in the OS keyring" if source == "keyring" else "saved in a plain file"
    return Credentials(client_id, secret, source).register(), where


def apply(screen: SignInPlace, profile: Profile, credentials: Credentials) -> None:
    """Make the session use the new profile and credentials; save the config if changed."""
    session = screen.session
    connector = screen.connector
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
        screen.notify(f"The config file was not updated: {exc}", severity="warning")
