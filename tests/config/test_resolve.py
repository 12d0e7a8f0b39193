"""Which profile a run uses: flags beat environment variables, which beat the config file."""

from __future__ import annotations

import pytest

from tui.config.resolve import ProfileError, resolve_profile
from tui.config.settings import AppConfig, Profile


def _config() -> AppConfig:
    return AppConfig(
        default_profile="main",
        credential_store="keyring",
        profiles={
            "main": Profile(
                name="main", base_url="https://API.Main.example:443/", environment="production"
            ),
            "test": Profile(
                name="test", base_url="https://test.example/v1/", environment="sandbox"
            ),
        },
    )


def test_config_file_alone_decides() -> None:
    resolved = resolve_profile(None, None, {}, _config())
    assert (resolved.name, resolved.environment) == ("main", "production")
    assert resolved.base_url == "https://api.main.example"
    assert resolved.credential_store == "keyring"
    assert resolved.sources == {
        "name": "config",
        "base_url": "config",
        "credential_store": "config",
    }


def test_environment_beats_config() -> None:
    env = {
        "FREIGHT_PROFILE": "test",
        "FREIGHT_BASE_URL": "http://localhost:8750/",
        "FREIGHT_CREDENTIAL_STORE": "memory",
    }
    resolved = resolve_profile(None, None, env, _config())
    assert (resolved.name, resolved.environment) == ("test", "sandbox")
    assert resolved.base_url == "http://localhost:8750"
    assert resolved.credential_store == "memory"
    assert set(resolved.sources.values()) == {"environment"}


def test_flags_beat_environment() -> None:
    env = {
        "FREIGHT_PROFILE": "test",
        "FREIGHT_BASE_URL": "http://localhost:1",
        "FREIGHT_CREDENTIAL_STORE": "memory",
    }
    resolved = resolve_profile(
        "main", "http://127.0.0.1:9/", env, _config(), args_credential_store="file"
    )
    assert resolved.name == "main"
    assert resolved.base_url == "http://127.0.0.1:9"
    assert resolved.credential_store == "file"
    assert set(resolved.sources.values()) == {"flag"}
    assert resolved.profile is not None
    assert resolved.profile.name == "main"


def test_unknown_profile_needs_a_base_url_and_is_treated_as_production() -> None:
    with pytest.raises(ProfileError, match=r"'other'.*main, test, demo"):
        resolve_profile("other", None, {}, _config())
    resolved = resolve_profile("other", "https://new.example", {}, _config())
    assert resolved.environment == "production"
    assert not resolved.in_config


def test_demo_is_always_available() -> None:
    resolved = resolve_profile(None, None, {"FREIGHT_PROFILE": "demo"}, _config())
    assert resolved.is_demo
    assert resolved.base_url is None
    assert resolved.credential_store == "memory"


def test_bad_values_name_their_source() -> None:
    with pytest.raises(ProfileError, match="FREIGHT_BASE_URL"):
        resolve_profile(None, None, {"FREIGHT_BASE_URL": "api.example"}, _config())
    with pytest.raises(ProfileError, match="--base-url"):
        resolve_profile(None, "nohost://", {}, _config())
    with pytest.raises(ProfileError, match="FREIGHT_CREDENTIAL_STORE"):
        resolve_profile(None, None, {"FREIGHT_CREDENTIAL_STORE": "vault"}, _config())


def test_default_sandbox_profile_asks_for_its_base_url() -> None:
    assert resolve_profile(None, None, {}, AppConfig()).needs_base_url
    assert not resolve_profile(None, None, {}, _config()).needs_base_url
