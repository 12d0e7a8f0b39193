"""End-to-end tests run the installed `freight` in tmux; CI must have tmux."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.e2e.tmux import tmux_available


@pytest.fixture
def freight_command() -> list[str]:
    """The installed console script (next to this Python), or `python -m tui`."""
    script = Path(sys.executable).with_name("freight")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if tmux_available():
        return
    if os.environ.get("CI"):
        raise pytest.UsageError("tmux is required for the end-to-end tests in CI")
    skip = pytest.mark.skip(reason="tmux is not installed")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)
