"""The store's tests run on both engines: SQLite in a temporary data dir, and a real
PostgreSQL (``tests.postgres_fixtures``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tui.store import Store, open_store

OpenStore = Callable[[], Store]
"""Opens one more connection to the same store (as another process would)."""


@pytest.fixture
def connect(store_url: str, tmp_path: Path) -> Iterator[OpenStore]:
    """Opens connections to one store; all closed after the test."""
    opened: list[Store] = []

    def one() -> Store:
        store = open_store(tmp_path / "data", store_url)
        opened.append(store)
        return store

    yield one
    for store in opened:
        store.close()


@pytest.fixture
def store(connect: OpenStore) -> Store:
    """One connection to a fresh store."""
    return connect()
