"""The opt-in plain file: 0600 in a 0700 folder, atomic, refused when others can read it."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.api.secret import Secret
from tui.config.resolve import resolve_profile
from tui.config.settings import AppConfig, Profile
from tui.credentials.file_store import FileStore, UnsafeFileError, credentials_file
from tui.credentials.resolve import lookup

SECRET = Secret("s3cret-file-91ac")
URL = "https://api.acme.example"


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask_022")
def test_file_is_0600_in_a_0700_folder_under_umask_022() -> None:
    path = FileStore().save("acme", URL, "client-1", SECRET)
    assert path == credentials_file()
    assert _mode(path) == 0o600
    assert _mode(path.parent) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["credentials.json"]


@pytest.mark.usefixtures("umask_022")
def test_replacing_keeps_other_profiles_and_the_mode() -> None:
    store = FileStore()
    store.save("acme", URL, "client-1", Secret("first-secret"))
    store.save("other", "https://other.example", "client-2", Secret("second-secret"))
    store.save("acme", URL, "client-1b", SECRET)
    acme = store.read("acme", URL)
    other = store.read("other", "https://other.example")
    assert acme is not None
    assert other is not None
    assert (acme.client_id, acme.secret) == ("client-1b", SECRET)
    assert other.client_id == "client-2"
    assert _mode(store.path) == 0o600


def test_entry_is_tied_to_its_base_url() -> None:
    store = FileStore()
    store.save("acme", URL, "client-1", SECRET)
    assert store.read("acme", "https://evil.example") is None


def test_a_world_readable_file_is_refused_with_the_fix() -> None:
    store = FileStore()
    store.save("acme", URL, "client-1", SECRET)
    store.path.chmod(0o644)
    with pytest.raises(UnsafeFileError) as caught:
        store.read("acme", URL)
    message = str(caught.value)
    assert f"chmod 600 {store.path}" in message
    assert "0644" in message
    assert SECRET.reveal() not in message
    with pytest.raises(UnsafeFileError):
        store.save("acme", URL, "client-1", SECRET)


def test_lookup_does_not_use_a_refused_file_and_says_why() -> None:
    FileStore().save("acme", URL, "client-1", SECRET)
    credentials_file().chmod(0o640)
    config = AppConfig(
        default_profile="acme",
        profiles={"acme": Profile(name="acme", base_url=URL, environment="production")},
        credential_store="file",
    )
    found = lookup(resolve_profile(None, None, {}, config), {})
    assert found.credentials is None
    assert any("chmod 600" in problem for problem in found.problems)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_file_owned_by_someone_else_is_refused() -> None:
    store = FileStore()
    store.save("acme", URL, "client-1", SECRET)
    os.chown(store.path, 54321, -1)
    with pytest.raises(UnsafeFileError, match="another user"):
        store.read("acme", URL)


def test_delete_removes_the_entry_and_then_the_file() -> None:
    store = FileStore()
    store.save("acme", URL, "client-1", SECRET)
    store.save("other", URL, "client-2", SECRET)
    assert store.delete("acme")
    assert store.read("acme", URL) is None
    assert store.path.exists()
    assert store.delete("other")
    assert not store.path.exists()
    assert not store.delete("other")
