"""Where credentials come from: environment > keyring > file > session; settings respected."""

from __future__ import annotations

import pytest

from tests.credentials import backends
from tui.api.secret import Secret
from tui.config.resolve import ResolvedProfile, resolve_profile
from tui.config.settings import AppConfig, CredentialStore, Profile
from tui.credentials import detect
from tui.credentials.file_store import FileStore
from tui.credentials.keyring_store import KeyringStore
from tui.credentials.resolve import SessionMemory, alookup, lookup
from tui.credentials.save import target_for

URL = "https://api.acme.example"


def _resolved(store: CredentialStore = "auto") -> ResolvedProfile:
    config = AppConfig(
        default_profile="acme",
        credential_store=store,
        profiles={"acme": Profile(name="acme", base_url=URL, environment="production")},
    )
    return resolve_profile(None, None, {}, config)


def _save_everywhere(memory: SessionMemory) -> None:
    KeyringStore().save("acme", URL, "from-keyring", Secret("keyring-secret"))
    FileStore().save("acme", URL, "from-file", Secret("file-secret"))
    memory.keep("acme", URL, "from-session", Secret("session-secret"))


def test_order_is_environment_keyring_file_session() -> None:
    memory = SessionMemory()
    _save_everywhere(memory)
    env = {"FREIGHT_API_TOKEN": "from-env.env-secret"}
    found = lookup(_resolved(), env, memory)
    assert found.credentials is not None
    assert (found.credentials.client_id, found.credentials.source) == ("from-env", "environment")
    found = lookup(_resolved(), {}, memory)
    assert found.credentials is not None
    assert found.credentials.source == "keyring"
    KeyringStore().delete("acme", URL)
    found = lookup(_resolved(), {}, memory)
    assert found.credentials is not None
    assert found.credentials.source == "file"
    FileStore().delete("acme")
    found = lookup(_resolved(), {}, memory)
    assert found.credentials is not None
    assert found.credentials.source == "session"
    assert found.credentials.token().reveal() == "from-session.session-secret"


def test_environment_credentials_never_touch_the_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", backends.name(backends.SlowKeyring))
    detect.reset()
    found = lookup(_resolved(), {"FREIGHT_CLIENT_ID": "a", "FREIGHT_CLIENT_SECRET": "b-secret"})
    assert found.credentials is not None
    assert found.keyring is None
    assert detect._cache is None, "keyring was loaded although the environment had credentials"


@pytest.mark.parametrize(
    ("store", "source"), [("keyring", "keyring"), ("file", "file"), ("memory", "session")]
)
def test_credential_store_setting_limits_where_we_look(store: CredentialStore, source: str) -> None:
    memory = SessionMemory()
    _save_everywhere(memory)
    found = lookup(_resolved(store), {}, memory)
    assert found.credentials is not None
    assert found.credentials.source == source
    if store != "keyring":
        assert found.keyring is None


def test_auto_never_saves_to_the_plain_file() -> None:
    assert target_for("auto") == "keyring"
    assert target_for("keyring") == "keyring"
    assert target_for("memory") == "memory"
    assert target_for("file") == "file"
    assert target_for("auto", insecure_storage=True) == "file"


def test_without_a_keyring_auto_reports_the_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", backends.name(backends.LockedKeyring))
    found = lookup(_resolved(), {})
    assert found.credentials is None
    assert found.keyring is not None
    assert found.keyring.status == "locked"


async def test_app_lookup_finds_the_keyring_entry() -> None:
    await KeyringStore().asave("acme", URL, "from-keyring", Secret("keyring-secret"))
    found = await alookup(_resolved(), {})
    assert found.credentials is not None
    assert found.credentials.client_id == "from-keyring"
    assert "keyring-secret" not in repr(found)


def test_inconsistent_environment_is_reported_and_nothing_else_is_tried() -> None:
    KeyringStore().save("acme", URL, "from-keyring", Secret("keyring-secret"))
    found = lookup(_resolved(), {"FREIGHT_CLIENT_ID": "a"})
    assert found.credentials is None
    assert found.env_error
    assert "FREIGHT_CLIENT_SECRET" in found.problems[0]
