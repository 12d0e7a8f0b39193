"""The store has one owner: one store per session, chosen by the typed config (``[store]
url``, ``FREIGHT_STORE_URL`` over it), read in one place."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tui.config.paths import config_file
from tui.config.settings import AppConfig, StoreSettings
from tui.session import Session
from tui.store import StoreError, store_url


def _session(tmp_path: Path, url: str) -> Session:
    config = AppConfig(store=StoreSettings(url=url))
    return Session.for_testing("http://127.0.0.1:9", "t", config=config, data_dir=tmp_path)


def test_the_sessions_typed_config_chooses_the_store(
    tmp_path: Path, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No config file says it: the session's own typed setting is the one used."""
    assert not config_file().exists()
    session = _session(tmp_path, store_url)
    store = session.store()
    assert store.dialect.name == ("postgresql" if store_url else "sqlite")
    assert session.store() is store  # one store per session
    assert session.ledger().store is store
    asyncio.run(session.aclose())
    with pytest.raises(StoreError):  # closed with the session
        store.engine.read("SELECT 1")


def test_the_variable_wins_over_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = AppConfig(store=StoreSettings(url="postgresql://db.invalid/freight"))
    monkeypatch.setenv("FREIGHT_STORE_URL", "mysql://store.invalid/freight")
    assert store_url(config) == "mysql://store.invalid/freight"
    monkeypatch.delenv("FREIGHT_STORE_URL")
    assert store_url(config) == "postgresql://db.invalid/freight"
    session = _session(tmp_path, "mysql://store.invalid/freight")
    with pytest.raises(StoreError, match="must be a postgresql:// URL"):
        session.store()


def test_the_config_file_is_read_as_the_typed_config(tmp_path: Path) -> None:
    file = config_file()
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text('[store]\nurl = " postgresql://db.example/freight "\n', encoding="utf-8")
    assert store_url() == "postgresql://db.example/freight"
    # A config that does not check is said, never read as "SQLite here": a station with a
    # typo would otherwise book from a store of its own.
    file.write_text('[store]\nurl = "postgresql://db.example/freight"\nurll = 1\n')
    with pytest.raises(StoreError, match=r"cannot be chosen: .*config.toml"):
        store_url()
    file.write_text("[store\n")
    with pytest.raises(StoreError, match="not valid TOML"):
        store_url()
