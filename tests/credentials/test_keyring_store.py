"""The keyring entry: one JSON value per profile, tied to the canonical base URL, read back."""

from __future__ import annotations

import json

import keyring.core
import pytest

from tests.credentials import backends
from tui.api.secret import Secret
from tui.credentials.keyring_store import KeyringStore, KeyringUnusableError

SECRET = Secret("s3cret-keyring-7f1d")


def test_saved_entry_is_named_for_profile_and_canonical_url() -> None:
    store = KeyringStore()
    state = store.save("acme", "HTTPS://API.Acme.example:443/", "client-1", SECRET)
    assert state.status == "insecure"
    raw = keyring.core.get_keyring().get_password("freight-tui:acme", "https://api.acme.example")
    assert raw is not None
    value = json.loads(raw)
    assert value["v"] == 1
    assert value["client_id"] == "client-1"
    assert value["client_secret"] == SECRET.reveal()
    assert value["saved_at"].endswith("+00:00")


def test_round_trip_and_tied_to_the_base_url() -> None:
    store = KeyringStore()
    store.save("acme", "https://api.acme.example", "client-1", SECRET)
    read = store.read("acme", "https://api.acme.example/")
    assert read.credentials is not None
    assert read.credentials.client_id == "client-1"
    assert read.credentials.secret == SECRET
    assert store.read("acme", "https://evil.example").credentials is None
    assert store.read("other", "https://api.acme.example").credentials is None


def test_replacing_overwrites_id_and_secret_together() -> None:
    store = KeyringStore()
    store.save("acme", "https://api.acme.example", "old-id", Secret("old-secret"))
    store.save("acme", "https://api.acme.example", "new-id", SECRET)
    read = store.read("acme", "https://api.acme.example")
    assert read.credentials is not None
    assert (read.credentials.client_id, read.credentials.secret) == ("new-id", SECRET)


def test_delete_and_delete_again() -> None:
    store = KeyringStore()
    store.save("acme", "https://api.acme.example", "client-1", SECRET)
    assert store.delete("acme", "https://api.acme.example") is True
    assert store.read("acme", "https://api.acme.example").credentials is None
    assert store.delete("acme", "https://api.acme.example") is False


def test_a_keyring_that_drops_writes_is_caught_by_reading_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", backends.name(backends.ForgetfulKeyring))
    with pytest.raises(KeyringUnusableError) as caught:
        KeyringStore().save("acme", "https://api.acme.example", "client-1", SECRET)
    assert caught.value.state.status == "error"
    assert "lost" in str(caught.value)


@pytest.mark.parametrize(
    ("backend", "status"),
    [
        ("keyring.backends.fail.Keyring", "none"),
        ("keyring.backends.null.Keyring", "disabled"),
        (backends.name(backends.LockedKeyring), "locked"),
    ],
)
def test_unusable_keyrings_refuse_to_save(
    monkeypatch: pytest.MonkeyPatch, backend: str, status: str
) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", backend)
    with pytest.raises(KeyringUnusableError) as caught:
        KeyringStore().save("acme", "https://api.acme.example", "client-1", SECRET)
    assert caught.value.state.status == status
    assert SECRET.reveal() not in str(caught.value)


def test_a_damaged_entry_is_reported_without_its_value() -> None:
    keyring.core.get_keyring().set_password(
        "freight-tui:acme", "https://api.acme.example", "not-json-" + SECRET.reveal()
    )
    read = KeyringStore().read("acme", "https://api.acme.example")
    assert read.credentials is None
    assert read.problem is not None
    assert SECRET.reveal() not in read.problem
