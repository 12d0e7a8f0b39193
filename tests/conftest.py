"""Keep every test away from the user's own config, data, keyring and terminal state."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = ["tests.sandbox_fixtures"]

_FREIGHT_ENV = (
    "FREIGHT_PROFILE",
    "FREIGHT_BASE_URL",
    "FREIGHT_API_TOKEN",
    "FREIGHT_CLIENT_ID",
    "FREIGHT_CLIENT_SECRET",
    "FREIGHT_CREDENTIAL_STORE",
    "FREIGHT_CONFIG",
)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point XDG dirs and the keyring at a temp dir; drop FREIGHT_* variables."""
    home = tmp_path / "home"
    for name, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        path = home / sub
        path.mkdir(parents=True)
        monkeypatch.setenv(name, str(path))
    for name in _FREIGHT_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    _reset_keyring()
    yield home
    _reset_keyring()


def _reset_keyring() -> None:
    """keyring caches its backend in module globals; make each test choose afresh."""
    import keyring.core

    keyring.core._keyring_backend = None
