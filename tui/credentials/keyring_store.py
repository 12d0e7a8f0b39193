"""Credentials in the OS keyring: service ``freight-tui:<profile>``, user = canonical base URL."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from keyring.errors import PasswordDeleteError

from tui.api.secret import Secret
from tui.config.urls import canonical_base_url
from tui.credentials import blocking, detect, redact
from tui.credentials.detect import KeyringState
from tui.credentials.stored import StoredCredentials

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE_PREFIX = "freight-tui:"


def service_name(profile: str) -> str:
    """The keyring service of a profile."""
    return f"{SERVICE_PREFIX}{profile}"


class KeyringUnusableError(Exception):
    """The keyring cannot be used now; ``state`` says why (locked, none, timeout…)."""

    def __init__(self, state: KeyringState, message: str | None = None) -> None:
        self.state = state
        super().__init__(message or f"keyring {state.status}: {state.detail}")


@dataclass(frozen=True)
class KeyringRead:
    """The result of reading a profile's entry: the state and the credentials, if any."""

    state: KeyringState
    credentials: StoredCredentials | None = None
    problem: str | None = None
    """Set when an entry exists but cannot be used (damaged, not Freight's)."""


class KeyringStore:
    """Reads, saves and deletes one JSON value per profile and base URL."""

    def __init__(self, limit: float = blocking.DEFAULT_TIMEOUT) -> None:
        self.limit = limit

    def read(self, profile: str, base_url: str) -> KeyringRead:
        """Read the entry (daemon thread, time limit)."""
        return asyncio.run(self.aread(profile, base_url))

    async def aread(self, profile: str, base_url: str) -> KeyringRead:
        """``read`` awaited from the app."""
        found = await detect.aprobe(service_name(profile), canonical_base_url(base_url), self.limit)
        return self._decoded(found)

    @staticmethod
    def _decoded(found: detect.Probe) -> KeyringRead:
        if found.value is None:
            return KeyringRead(found.state)
        try:
            stored = StoredCredentials.decode(found.value)
        except ValueError as exc:
            return KeyringRead(found.state, problem=str(exc))
        redact.register(stored.secret)
        return KeyringRead(found.state, stored)

    def save(self, profile: str, base_url: str, client_id: str, secret: Secret) -> KeyringState:
        """Write the entry, read it back and compare. Raises KeyringUnusableError."""
        return asyncio.run(self.asave(profile, base_url, client_id, secret))

    async def asave(
        self, profile: str, base_url: str, client_id: str, secret: Secret
    ) -> KeyringState:
        """``save`` for the app: each keyring call is awaited from a daemon thread."""
        stored = StoredCredentials.new(client_id, secret)
        service, user = service_name(profile), canonical_base_url(base_url)
        try:
            backend, state = await blocking.acall(self._backend, self.limit)
        except blocking.TimedOut as exc:
            raise KeyringUnusableError(detect.state_for_exception("", exc)) from None
        value = stored.encode()
        try:
            await blocking.acall(
                lambda: backend.set_password(service, user, value.reveal()), self.limit
            )
            back = await blocking.acall(lambda: backend.get_password(service, user), self.limit)
        except Exception as exc:
            raise KeyringUnusableError(detect.state_for_exception(state.backend, exc)) from None
        if back is None or Secret(back) != value:
            dropped = KeyringState("error", state.backend, "the keyring did not keep the value")
            raise KeyringUnusableError(dropped, "the keyring accepted the secret but lost it")
        return state

    def delete(self, profile: str, base_url: str) -> bool:
        """Delete the entry; False when there was none. Raises KeyringUnusableError."""

        service, user = service_name(profile), canonical_base_url(base_url)
        backend, state = self._backend()
        try:
            blocking.call(lambda: backend.delete_password(service, user), self.limit)
        except PasswordDeleteError:
            return False
        except Exception as exc:
            raise KeyringUnusableError(detect.state_for_exception(state.backend, exc)) from None
        return True

    @staticmethod
    def _backend() -> tuple[KeyringBackend, KeyringState]:
        loaded = detect.load_backend()
        if loaded.backend is None or (
            loaded.state is not None and loaded.state.status != "insecure"
        ):
            assert loaded.state is not None
            raise KeyringUnusableError(loaded.state)
        name = detect.backend_name(loaded.backend)
        return loaded.backend, loaded.state or KeyringState("ok", name)
