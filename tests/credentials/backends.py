"""Real keyring backends that misbehave like OS keyrings; chosen via PYTHON_KEYRING_BACKEND."""

from __future__ import annotations

import threading

from keyring.errors import KeyringLocked
from keyrings.alt.file import EncryptedKeyring, PlaintextKeyring

SLOW_SECONDS = 120.0
"""The most a slow keyring hangs for when no test lets it answer (`slow_answer`)."""
slow_finished = threading.Event()
slow_answer = threading.Event()
"""Set by a test to let the slow keyring answer: it hangs until then, however fast the
machine, so a probe with a deadline always gives up first."""


class LockedKeyring(PlaintextKeyring):  # type: ignore[misc]
    """Like Secret Service with a locked collection over SSH."""

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringLocked("Failed to unlock the collection!")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringLocked("Failed to unlock the collection!")


class SlowKeyring(PlaintextKeyring):  # type: ignore[misc]
    """Like a keyring waiting for an unlock prompt on another display."""

    def get_password(self, service: str, username: str) -> str | None:
        slow_finished.clear()
        slow_answer.wait(SLOW_SECONDS)
        slow_finished.set()
        return None


class ForgetfulKeyring(PlaintextKeyring):  # type: ignore[misc]
    """Accepts a write and keeps nothing."""

    def set_password(self, service: str, username: str, password: str) -> None:
        return None


class PromptingKeyring(EncryptedKeyring):  # type: ignore[misc]
    """keyrings.alt's encrypted file, made loadable without pycryptodome: it would prompt."""

    priority = 0.6

    @staticmethod
    def _get_crypto_impl() -> dict[str, object]:
        return {}

    def get_password(self, service: str, username: str) -> str | None:
        raise EOFError("would ask for the keyring password with getpass")


def name(cls: type) -> str:
    """The dotted name to put in PYTHON_KEYRING_BACKEND."""
    return f"{cls.__module__}.{cls.__qualname__}"
