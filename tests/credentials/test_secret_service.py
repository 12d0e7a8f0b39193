"""The real Secret Service over a private D-Bus session: the SSH recipe of the diagnosis works.

Skipped unless ``dbus-run-session`` and ``gnome-keyring-daemon`` are installed (apt packages
``dbus`` and ``gnome-keyring``); CI does not depend on it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clock import pythonpath
from tui.sandbox.threaded import RunningSandbox

pytestmark = pytest.mark.skipif(
    shutil.which("dbus-run-session") is None or shutil.which("gnome-keyring-daemon") is None,
    reason="needs dbus-run-session and gnome-keyring-daemon",
)

ROOT = Path(__file__).resolve().parents[2]


def _in_dbus_session(script: str, home: Path, password: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHON_KEYRING_BACKEND", "DBUS_SESSION_BUS_ADDRESS")
    }
    env.update(
        HOME=str(home), PYTHONPATH=pythonpath(ROOT), FREIGHT_PY=sys.executable, KEYRING_PW=password
    )
    unlock = (
        'printf %s "$KEYRING_PW" | gnome-keyring-daemon --unlock --components=secrets >/dev/null; '
    )
    return subprocess.run(
        ["dbus-run-session", "--", "sh", "-c", unlock + script],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )  # fmt: skip


def test_login_with_an_unlocked_keyring_then_a_wrong_password_says_locked(
    live_sandbox: RunningSandbox, isolated_home: Path
) -> None:
    url = live_sandbox.base_url
    freight = '"$FREIGHT_PY" -m tui'
    login = (
        f'printf "demo\\ndemo-secret\\n" | {freight} login --profile acme --base-url {url}; '
        f"{freight} auth status --profile acme"
    )
    first = _in_dbus_session(login, isolated_home, "test-keyring-pw")
    assert "saved in the keyring (keyring.backends.SecretService.Keyring)" in first.stdout
    assert "Keyring:     ok" in first.stdout
    assert "Client ID:   demo" in first.stdout
    keyrings = isolated_home / "data" / "keyrings"
    assert any(keyrings.iterdir()), "the secret did not go to gnome-keyring's store"
    again = _in_dbus_session(
        '"$FREIGHT_PY" -m tui auth status --profile acme', isolated_home, "test-keyring-pw"
    )
    assert "Client ID:   demo" in again.stdout
    wrong = _in_dbus_session(
        '"$FREIGHT_PY" -m tui auth status --profile acme', isolated_home, "wrong-pw"
    )
    assert "Keyring:     locked" in wrong.stdout
    assert "cannot be unlocked from an SSH session" in wrong.stdout
    for result in (first, again, wrong):
        assert "demo-secret" not in result.stdout + result.stderr
