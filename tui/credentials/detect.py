"""Find out whether a usable OS keyring exists, without prompts, hangs or silent plaintext.

``keyring.core.init_backend(limit=keyring.core.recommended)`` is called once per keyring
configuration, so autodetection only considers real OS keyrings (a stray keyrings.alt cannot
win) while ``PYTHON_KEYRING_BACKEND`` or ``keyringrc.cfg`` still let an admin choose.
"""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from keyring.backends import chainer, fail, null
from keyring.errors import KeyringLocked, NoKeyringError
from keyring.util import platform_

from tui.credentials import blocking
from tui.credentials.redact import redact

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

Status = Literal["ok", "none", "locked", "disabled", "refused", "insecure", "error", "timeout"]
USABLE: frozenset[Status] = frozenset({"ok", "insecure"})


@dataclass(frozen=True)
class KeyringState:
    """What detection found: a status, the backend's name and a technical detail."""

    status: Status
    backend: str = ""
    """Dotted class name of the backend, when one was loaded."""
    detail: str = ""
    """Exception type and message, for the folded-away technical details (never a secret)."""

    @property
    def usable(self) -> bool:
        """True when secrets can be saved and read (``insecure`` only with a warning)."""
        return self.status in USABLE


@dataclass(frozen=True)
class Loaded:
    """The backend chosen for this process, or why none could be loaded."""

    backend: KeyringBackend | None
    state: KeyringState | None
    """Set when the backend is unusable without probing (none, disabled, refused, error)."""


_lock = threading.Lock()
_cache: tuple[tuple[str | None, str, float | None], Loaded] | None = None


def _config_key() -> tuple[str | None, str, float | None]:
    """What decides the backend: the env variable and the keyringrc file (path, mtime)."""

    path = str(platform_.config_root() / "keyringrc.cfg")
    try:
        mtime: float | None = os.stat(path).st_mtime
    except OSError:
        mtime = None
    return os.environ.get("PYTHON_KEYRING_BACKEND"), path, mtime


def load_backend() -> Loaded:
    """Initialise keyring once (per configuration) with the ``recommended`` limit; never raises."""
    global _cache
    with _lock:
        try:
            key = _config_key()
        except Exception as exc:
            return Loaded(None, _error_state("", exc))
        if _cache is not None and _cache[0] == key:
            return _cache[1]
        loaded = _load()
        _cache = (key, loaded)
        return loaded


def reset() -> None:
    """Forget the loaded backend (tests, or after the user changed the keyring setup)."""
    global _cache
    with _lock:
        _cache = None


def _load() -> Loaded:
    try:
        import keyring.core

        keyring.core.init_backend(limit=keyring.core.recommended)
        backend = keyring.core.get_keyring()
    except Exception as exc:  # bad backend name, missing module, backend not viable
        return Loaded(None, _error_state("", exc))
    return Loaded(backend, classify(backend))


def backend_name(backend: object) -> str:
    """``module.Class`` of a backend."""
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def classify(backend: KeyringBackend) -> KeyringState | None:
    """The state a backend is in before any call, or None for a candidate worth probing.

    fail → ``none``; null → ``disabled``; keyrings.alt's encrypted file (prompts with getpass)
    → ``refused``; any other backend below priority 1 (chosen explicitly) → ``insecure``,
    which is returned but still probed by ``detect``.
    """

    name = backend_name(backend)
    if isinstance(backend, chainer.ChainerBackend):
        members = list(backend.backends)
        if not members:
            return KeyringState("none", name, "the chainer has no backends")
        states = [classify(member) for member in members]
        for status in ("refused", "insecure"):
            for member, state in zip(members, states, strict=True):
                if state is not None and state.status == status:
                    return KeyringState(status, name, f"chains {backend_name(member)}")
        return None
    if isinstance(backend, fail.Keyring):
        return KeyringState("none", name, "no recommended keyring backend is available")
    if isinstance(backend, null.Keyring):
        return KeyringState("disabled", name, "the null backend stores nothing")
    if _prompts(backend):
        return KeyringState("refused", name, "asks for a password at the terminal")
    try:
        priority = float(backend.priority)
    except Exception as exc:
        return _error_state(name, exc)
    if priority < 1:
        return KeyringState("insecure", name, f"priority {priority:g}: not an OS keyring")
    return None


def _prompts(backend: KeyringBackend) -> bool:
    """True for keyrings.alt's encrypted file backends, which ask with getpass."""
    try:
        from keyrings.alt.file import Encrypted
    except Exception:
        cls = type(backend)
        return cls.__module__.startswith("keyrings.alt") and "Encrypted" in cls.__name__
    return isinstance(backend, Encrypted)


def _error_state(name: str, exc: BaseException) -> KeyringState:
    return KeyringState("error", name, redact(f"{type(exc).__name__}: {exc}"))


def state_for_exception(name: str, exc: BaseException) -> KeyringState:
    """Map an exception from a keyring call to a state (locked, none, timeout or error)."""

    if isinstance(exc, blocking.TimedOut):
        return KeyringState("timeout", name, str(exc))
    if isinstance(exc, KeyringLocked):
        return KeyringState("locked", name, redact(f"{type(exc).__name__}: {exc}"))
    if isinstance(exc, NoKeyringError):
        return KeyringState("none", name, redact(f"{type(exc).__name__}: {exc}"))
    return _error_state(name, exc)


@dataclass(frozen=True)
class Probe:
    """The state after reading one entry, and what was read (a JSON text or None)."""

    state: KeyringState
    value: str | None = None

    def __repr__(self) -> str:
        return f"Probe(state={self.state!r}, value={'***' if self.value else None})"


def _after_read(loaded: Loaded, name: str, value: str | None) -> Probe:
    assert loaded.backend is not None
    before = classify(loaded.backend)
    status: Status = "insecure" if before is not None else "ok"
    detail = before.detail if before is not None else ""
    return Probe(KeyringState(status, name, detail), value)


def probe(service: str, username: str, limit: float = blocking.DEFAULT_TIMEOUT) -> Probe:
    """Load the backend and READ one entry in a daemon thread (no writes: no unlock prompts)."""
    return asyncio.run(aprobe(service, username, limit))


async def aprobe(service: str, username: str, limit: float = blocking.DEFAULT_TIMEOUT) -> Probe:
    """``probe`` for the app: loading the backend and the read run in a daemon thread."""
    try:
        loaded = await blocking.acall(load_backend, limit)
    except blocking.TimedOut as exc:
        return Probe(KeyringState("timeout", "", str(exc)))
    if loaded.state is not None and loaded.state.status != "insecure":
        return Probe(loaded.state)
    backend = loaded.backend
    assert backend is not None
    name = backend_name(backend)
    try:
        value = await blocking.acall(lambda: backend.get_password(service, username), limit)
    except Exception as exc:
        return Probe(state_for_exception(name, exc))
    return _after_read(loaded, name, value)
