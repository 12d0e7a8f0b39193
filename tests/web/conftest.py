"""The browser test needs Debian's Chromium and playwright; CI must have them."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


def browser_missing() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not CHROMIUM.exists():
        return "Chromium is not installed (Debian: apt install chromium)"
    for module in ("playwright", "textual_serve"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e '.[dev]')"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    missing = browser_missing()
    if missing is None:
        return
    browser_items = [item for item in items if "browser" in item.keywords]
    if not browser_items:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"the browser test must run in CI: {missing}")
    skip = pytest.mark.skip(reason=missing)
    for item in browser_items:
        item.add_marker(skip)
