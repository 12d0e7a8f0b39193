"""Build the app's session from flags, environment and config; find credentials lazily.

The keyring is read only when the first API call needs a token (awaited from a daemon thread),
so a slow or locked keyring never delays the first frame. When nothing is known to be saved for
the profile, the session starts without a connection and the app shows the sign-in screen.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from tui.api.errors import AuthenticationError
from tui.api.secret import Secret
from tui.config import paths
from tui.config.resolve import ProfileError, ResolvedProfile, resolve_profile
from tui.config.settings import AppConfig, ConfigError, Profile, load_config
from tui.credentials import env as env_credentials
from tui.credentials import index, redact
from tui.credentials.diagnosis import headline
from tui.credentials.file_store import FileStore, FileStoreError, UnsafeFileError
from tui.credentials.resolve import Credentials, Lookup, SessionMemory, alookup, consulted
from tui.demo import build_demo_session
from tui.session import ENV_WORDS, Session


class CredentialConnector:
    """This run's target and credentials; hands the session its base URL and token."""

    def __init__(
        self, resolved: ResolvedProfile, config: AppConfig, env: Mapping[str, str]
    ) -> None:
        self.resolved = resolved
        self.config = config
        self.env = dict(env)
        self.memory = SessionMemory()
        self.credentials: Credentials | None = None
        self.last_lookup: Lookup | None = None

    def __repr__(self) -> str:
        return f"CredentialConnector({self.resolved.name!r}, {self.resolved.base_url!r})"

    def has_env_credentials(self) -> bool:
        """True when FREIGHT_* credential variables are set (even inconsistently)."""
        return env_credentials.any_set(self.env)

    def maybe_saved(self) -> bool:
        """Cheap guess, without touching the keyring: might credentials be saved?"""
        resolved = self.resolved
        if resolved.base_url is None or resolved.needs_base_url:
            return False
        use_keyring, use_file = consulted(resolved.credential_store)
        noted = index.read_index().get(resolved.name)
        if use_keyring and noted is not None and noted.store == "keyring":
            return noted.base_url == resolved.base_url
        if use_file:
            try:
                return FileStore().saved_url(resolved.name) == resolved.base_url
            except (UnsafeFileError, FileStoreError):
                return True  # let the lookup report the problem
        return False

    async def find(self) -> Lookup:
        """Look for credentials: environment > keyring > file > this session's memory."""
        found = await alookup(self.resolved, self.env, self.memory)
        self.last_lookup = found
        if found.credentials is not None:
            self.credentials = found.credentials
        return found

    async def connect(self) -> tuple[str, Secret]:
        """The session's connect callback: base URL and token, or a 401-style error."""

        if self.credentials is None:
            found = await self.find()
            if found.credentials is None:
                raise AuthenticationError(
                    status=401,
                    name="UNAUTHORIZED",
                    request_id=None,
                    message=self.missing_message(found),
                )
        assert self.credentials is not None
        assert self.resolved.base_url is not None
        return self.resolved.base_url, self.credentials.token()

    def missing_message(self, found: Lookup) -> str:
        """Why there are no credentials, in one sentence."""
        if found.problems:
            return redact.redact(found.problems[0])
        if self.resolved.needs_base_url:
            return f"Set the base URL of profile {self.resolved.name!r}, then sign in."
        if found.keyring is not None and not found.keyring.usable:
            return headline(found.keyring) + " Sign in to use the service."
        return "Not signed in: enter the client ID and secret."

    def use(self, resolved: ResolvedProfile, config: AppConfig, credentials: Credentials) -> None:
        """Switch to new target and credentials (after sign-in)."""
        self.resolved = resolved
        self.config = config
        self.credentials = credentials.register()


def profile_of(resolved: ResolvedProfile) -> Profile:
    """The config profile, or one built for a target that is not in the config."""
    if resolved.profile is not None:
        if resolved.base_url and resolved.profile.canonical_url != resolved.base_url:
            return resolved.profile.model_copy(update={"base_url": resolved.base_url})
        return resolved.profile
    assert resolved.base_url is not None
    env = "sandbox" if resolved.environment == "sandbox" else "production"
    return Profile(name=resolved.name, base_url=resolved.base_url, environment=env)


def connector_for(session: Session) -> CredentialConnector | None:
    """The connector that built ``session``, if it was built by ``session_from_args``."""
    connector = session.credentials_connector
    return connector if isinstance(connector, CredentialConnector) else None


def attach(session: Session, connector: CredentialConnector) -> None:
    """Remember which connector belongs to a session (the sign-in screen looks it up)."""
    session.credentials_connector = connector


def session_from_args(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> Session:
    """The session the flags, environment and config ask for (not the --demo one).

    Raises ConfigError (the caller prints it); a bad profile choice is one too.
    """

    redact.install()
    environ = os.environ if env is None else env
    config = load_config()
    try:
        resolved = resolve_profile(args.profile, args.base_url, environ, config)
    except ProfileError as exc:
        raise ConfigError(paths.config_file(), str(exc)) from None
    if resolved.is_demo:
        return build_demo_session()
    if (problem := resolved.url_problem()) is not None:
        raise ConfigError(paths.config_file(), problem)
    connector = CredentialConnector(resolved, config, environ)
    ready = connector.has_env_credentials() or connector.maybe_saved()
    session = Session(
        environment=ENV_WORDS[resolved.environment],
        profile=profile_of(resolved),
        config=config,
        data_dir=paths.data_dir(),
        connect=connector.connect if ready else None,
        config_path=paths.config_file(),
    )
    attach(session, connector)
    return session
