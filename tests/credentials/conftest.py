"""Credential tests: forget the loaded keyring backend before and after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tui.credentials import detect


@pytest.fixture(autouse=True)
def fresh_backend() -> Iterator[None]:
    """Each test loads its keyring backend afresh (the env var may differ)."""
    detect.reset()
    yield
    detect.reset()
