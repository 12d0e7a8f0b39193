"""Production means https: an http:// production address is refused with the reason, before a
secret is read or sent; http:// stays allowed to this machine (a local tunnel)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clock import pythonpath
from tui.api.secret import Secret
from tui.cli import main
from tui.config.urls import (
    BaseURLError,
    canonical_base_url,
    is_loopback,
    production_url_problem,
)
from tui.forms.signin import field_errors

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com",
        "HTTP://API.EXAMPLE.COM:8080/v1",
        "http://10.0.0.5",
        "http://[fe80::1]",
    ],
)
def test_http_to_another_machine_is_refused_for_production(url: str) -> None:
    problem = production_url_problem(url)
    assert problem is not None
    assert "https://" in problem
    assert "unencrypted" in problem


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com",
        "http://127.0.0.1:8443",
        "http://127.9.9.9",
        "http://localhost:9000/api",
        "http://tunnel.localhost",
        "http://[::1]:8443",
    ],
)
def test_https_and_loopback_are_allowed(url: str) -> None:
    assert production_url_problem(url) is None


def test_loopback_is_this_machine_only() -> None:
    assert is_loopback("http://[::1]/")
    assert not is_loopback("http://localhost.example.com")
    assert not is_loopback("http://[::1")


@pytest.mark.parametrize("url", ["http://[::1", "http://a\x00b.example", "http://a b.example"])
def test_a_malformed_base_url_is_a_base_url_error(url: str) -> None:
    with pytest.raises(BaseURLError, match="base URL"):
        canonical_base_url(url)


def test_the_sign_in_form_says_so_at_the_address_field() -> None:
    errors, _ = field_errors(
        "acme", "http://api.example.com", "id", Secret("s"), environment="production"
    )
    assert "https://" in errors["base_url"]
    sandbox, _ = field_errors("acme", "http://api.example.com", "id", Secret("s"), "sandbox")
    assert "base_url" not in sandbox
    tunnel, _ = field_errors("acme", "http://127.0.0.1:8443", "id", Secret("s"), "production")
    assert "base_url" not in tunnel


def _freight(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": pythonpath(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_auth_login_refuses_http_for_production_before_asking_for_the_secret(
    isolated_home: Path,
) -> None:
    result = _freight(
        isolated_home,
        "auth", "login", "--profile", "prod", "--base-url", "http://api.example.com",
        "--environment", "production",
        stdin="client\nTOP-SECRET\n",
    )  # fmt: skip
    assert result.returncode == 2
    assert "must be reached over https://" in result.stderr
    assert "Nothing was asked for or saved" in result.stderr
    assert "Client ID" not in result.stderr  # the credentials were never asked for
    assert not (isolated_home / "config" / "freight-tui" / "config.toml").exists()
    # The same account as a sandbox may use http; production over https passes this check
    # (and then fails only because nobody answers there).
    sandbox = _freight(
        isolated_home,
        "auth", "login", "--profile", "test", "--base-url", "http://127.0.0.1:9",
        "--environment", "production", stdin="client\nsecret\n",
    )  # fmt: skip
    assert "https://" not in sandbox.stderr


def test_a_command_on_an_http_production_profile_exits_2_and_sends_nothing(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = isolated_home / "config" / "freight-tui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        'default_profile = "prod"\n'
        '[profiles.prod]\nbase_url = "http://api.example.com"\nenvironment = "production"\n'
    )
    monkeypatch.setenv("FREIGHT_API_TOKEN", "id.secret")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["shipments"]) == 2
    assert "profile 'prod' at http://api.example.com" in err.getvalue()
    assert "https://" in err.getvalue()
    # An ad-hoc --base-url is production too (the safe assumption).
    err.truncate(0)
    assert main(["shipments", "--base-url", "http://other.example", "--profile", "x"]) == 2
    assert "https://" in err.getvalue()
