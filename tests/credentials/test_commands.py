"""`freight login`, `auth status`, `logout` in a subprocess against a live sandbox."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import keyring.core
import pytest

from tests.clock import pythonpath
from tui.credentials.file_store import credentials_file
from tui.sandbox.threaded import RunningSandbox

ROOT = Path(__file__).resolve().parents[2]


def _freight(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONPATH": pythonpath(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=environ,
        check=False,
    )


def _leaks(secret: str, home: Path, *results: subprocess.CompletedProcess[str]) -> list[str]:
    """Every output stream and file under the test's home that contains ``secret``."""
    found = [f"output of {r.args[3:]}" for r in results if secret in r.stdout + r.stderr]
    for path in home.rglob("*"):
        if path.is_file() and secret.encode() in path.read_bytes():
            found.append(str(path))
    return found


def test_login_checks_saves_in_the_keyring_and_status_says_where(
    live_sandbox: RunningSandbox, isolated_home: Path
) -> None:
    url = live_sandbox.base_url
    login = _freight("login", "--profile", "acme", "--base-url", url, stdin="demo\ndemo-secret\n")
    assert login.returncode == 0, login.stderr
    assert "Checked with the service and saved in the keyring" in login.stdout
    assert "freight-tui:acme" in login.stdout
    assert "not an OS keyring" in login.stderr
    saved = keyring.core.get_keyring().get_password("freight-tui:acme", url)
    assert saved is not None
    assert '"client_id":"demo"' in saved
    status = _freight("auth", "status", "--profile", "acme")
    assert status.returncode == 0, status.stderr
    assert "Client ID:   demo" in status.stdout
    assert "PRODUCTION" in status.stdout
    assert "Credentials: keyring (keyrings.alt.file.PlaintextKeyring)" in status.stdout
    assert (
        'base_url = "' + url + '"' in (isolated_home / "config/freight-tui/config.toml").read_text()
    )
    assert _leaks("demo-secret", isolated_home, login, status) == []


def test_the_first_profile_signed_in_to_becomes_the_default(
    live_sandbox: RunningSandbox, isolated_home: Path
) -> None:
    url = live_sandbox.base_url
    login = _freight(
        "auth", "login", "--profile", "acme", "--base-url", url, "--environment", "sandbox",
        stdin="demo\ndemo-secret\n",
    )  # fmt: skip
    assert login.returncode == 0, login.stderr
    assert "the default profile" in login.stdout
    status = _freight("auth", "status")  # no --profile: the default's
    assert status.returncode == 0, status.stderr
    assert "acme" in status.stdout
    assert "Client ID:   demo" in status.stdout
    second = _freight(
        "auth", "login", "--profile", "other", "--base-url", url, stdin="demo\ndemo-secret\n"
    )
    assert second.returncode == 0, second.stderr
    assert "default profile" not in second.stdout  # the first one stays the default
    assert (
        'default_profile = "acme"' in (isolated_home / "config/freight-tui/config.toml").read_text()
    )


def test_rejected_login_saves_nothing_and_leaks_the_secret_nowhere(
    live_sandbox: RunningSandbox, isolated_home: Path
) -> None:
    secret = f"bogus-{uuid.uuid4().hex}"
    url = live_sandbox.base_url
    login = _freight("login", "--profile", "acme", "--base-url", url, stdin=f"demo\n{secret}\n")
    assert login.returncode == 1
    assert "rejected" in login.stderr
    assert "Nothing was saved" in login.stderr
    assert keyring.core.get_keyring().get_password("freight-tui:acme", url) is None
    status = _freight("--base-url", url, "auth", "status", "--profile", "acme")
    assert status.returncode == 1
    token = _freight("auth", "status", env={"FREIGHT_API_TOKEN": f"demo.{secret}"})
    assert "environment variables (never saved)" in token.stdout
    assert _leaks(secret, isolated_home, login, status, token) == []


def test_without_a_keyring_login_explains_and_offers_safest_first(
    live_sandbox: RunningSandbox, isolated_home: Path
) -> None:
    no_keyring = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    login = _freight(
        "login",
        "--profile",
        "acme",
        "--base-url",
        live_sandbox.base_url,
        stdin="demo\ndemo-secret\n",
        env=no_keyring,
    )
    assert login.returncode == 1
    err = login.stderr
    assert "NOT saved" in err
    assert "no keyring service" in err
    offers = [err.index(s) for s in ("session only", "read -rs", "dbus-run-session", "--insecure")]
    assert offers == sorted(offers), "offers are not safest first"
    assert not credentials_file().exists(), "auto fell back to the plain file"
    url = live_sandbox.base_url
    status = _freight("--base-url", url, "auth", "status", "--profile", "acme", env=no_keyring)
    assert status.returncode == 1
    assert "none found" in status.stdout
    assert _leaks("demo-secret", isolated_home, login, status) == []


def test_insecure_storage_writes_a_private_file_and_says_so(
    live_sandbox: RunningSandbox,
) -> None:
    no_keyring = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    url = live_sandbox.base_url
    login = _freight(
        "login",
        "--profile",
        "acme",
        "--base-url",
        url,
        "--insecure-storage",
        stdin="demo\ndemo-secret\n",
        env=no_keyring,
    )
    assert login.returncode == 0, login.stderr
    path = credentials_file()
    assert str(path) in login.stdout
    assert "Not secure" in login.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    status = _freight("auth", "status", "--profile", "acme", env=no_keyring)
    assert status.returncode == 0
    assert f"plain file {path}" in status.stdout
    assert "demo-secret" not in status.stdout
    logout = _freight("logout", "--profile", "acme", env=no_keyring)
    assert logout.returncode == 0
    assert "removed the entry" in logout.stdout
    assert not path.exists()


def test_logout_removes_the_keyring_entry_and_points_at_env_variables(
    live_sandbox: RunningSandbox,
) -> None:
    url = live_sandbox.base_url
    _freight("login", "--profile", "acme", "--base-url", url, stdin="demo\ndemo-secret\n")
    logout = _freight("logout", "--profile", "acme", env={"FREIGHT_API_TOKEN": "x.y-secret"})
    assert logout.returncode == 0
    assert f"removed the keyring entry for {url}" in logout.stdout
    assert "unset FREIGHT_API_TOKEN" in logout.stdout
    assert keyring.core.get_keyring().get_password("freight-tui:acme", url) is None
    again = _freight("logout", "--profile", "acme")
    assert "No saved credentials" in again.stdout


def test_inactive_subscription_is_saved_with_a_warning(live_sandbox: RunningSandbox) -> None:
    url = live_sandbox.base_url
    login = _freight("login", "--profile", "x", "--base-url", url, stdin="nosub\nnosub-secret\n")
    assert login.returncode == 0, login.stderr
    assert "no active subscription" in login.stderr


def test_login_needs_a_real_base_url_and_a_secret() -> None:
    placeholder = _freight("login", stdin="demo\ndemo-secret\n")
    assert placeholder.returncode == 2
    assert "has no base URL yet" in placeholder.stderr
    empty = _freight("login", "--base-url", "http://127.0.0.1:9", stdin="demo\n\n")
    assert empty.returncode == 2
    assert "no client secret" in empty.stderr


def test_status_follows_flags_over_environment_over_file(isolated_home: Path) -> None:
    config = isolated_home / "config" / "freight-tui" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        'default_profile = "a"\n'
        '[profiles.a]\nbase_url = "https://a.example"\nenvironment = "sandbox"\n'
        '[profiles.b]\nbase_url = "https://b.example"\nenvironment = "production"\n'
    )
    from_file = _freight("auth", "status")
    assert "Profile:     a (config file)" in from_file.stdout
    from_env = _freight("auth", "status", env={"FREIGHT_PROFILE": "b"})
    assert "Profile:     b (environment variable)" in from_env.stdout
    assert "PRODUCTION" in from_env.stdout
    from_flag = _freight(
        "--base-url", "http://127.0.0.1:1", "auth", "status", "--profile", "a",
        env={"FREIGHT_PROFILE": "b", "FREIGHT_BASE_URL": "https://env.example"},
    )  # fmt: skip
    assert "Profile:     a (command-line flag)" in from_flag.stdout
    assert "Base URL:    http://127.0.0.1:1 (command-line flag)" in from_flag.stdout


@pytest.mark.parametrize("value", ["nodot", "a.b"])
def test_config_path_needs_no_credentials_or_keyring(value: str, isolated_home: Path) -> None:
    result = _freight(
        "config", "path",
        env={"FREIGHT_CLIENT_ID": value, "PYTHON_KEYRING_BACKEND": "no_such.Backend"},
    )  # fmt: skip
    assert result.returncode == 0
    assert "Config file:" in result.stdout


def test_status_notes_a_saved_entry_the_keyring_cannot_give_now(
    live_sandbox: RunningSandbox,
) -> None:
    url = live_sandbox.base_url
    _freight("login", "--profile", "acme", "--base-url", url, stdin="demo\ndemo-secret\n")
    locked = {"PYTHON_KEYRING_BACKEND": "tests.credentials.backends.LockedKeyring"}
    status = _freight("auth", "status", "--profile", "acme", env=locked)
    assert status.returncode == 1
    assert "Keyring:     locked" in status.stdout
    assert "saved in the keyring on" in status.stdout
    assert "cannot be unlocked from an SSH session" in status.stdout
