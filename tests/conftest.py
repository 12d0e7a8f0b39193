"""Keep every test away from the user's own config, data, keyring and terminal state."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.sandbox_fixtures"]

# Hypothesis profiles. `ci`: the same examples on every run (derandomized, no example
# database), so CI never fails on a new random draw; a failure prints the blob that replays
# it. `dev`: explores (random draws, the example database in .hypothesis/, more examples
# where a test does not fix its own count). `ci` is chosen when CI is set, else `default`
# (Hypothesis's own); `--hypothesis-profile=dev` or FREIGHT_HYPOTHESIS_PROFILE=dev chooses.
# (Hypothesis loads a "ci" profile of its own when CI is set; this one replaces it, with a
# fixed number of examples, so the choice is written here.)
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=100,
    print_blob=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    parent=settings.get_profile("default"),  # not the CI one Hypothesis loads when CI is set
    max_examples=500,
    print_blob=True,
    deadline=None,
)
_profile = os.environ.get("FREIGHT_HYPOTHESIS_PROFILE") or ("ci" if "CI" in os.environ else None)
if _profile:
    settings.load_profile(_profile)

_FREIGHT_ENV = (
    "FREIGHT_PROFILE",
    "FREIGHT_BASE_URL",
    "FREIGHT_API_TOKEN",
    "FREIGHT_CLIENT_ID",
    "FREIGHT_CLIENT_SECRET",
    "FREIGHT_CREDENTIAL_STORE",
    "FREIGHT_CONFIG",
)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point XDG dirs and the keyring at a temp dir; drop FREIGHT_* variables."""
    home = tmp_path / "home"
    for name, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        path = home / sub
        path.mkdir(parents=True)
        monkeypatch.setenv(name, str(path))
    for name in _FREIGHT_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    _reset_keyring()
    yield home
    _reset_keyring()


def _reset_keyring() -> None:
    """keyring caches its backend in module globals; make each test choose afresh."""
    import keyring.core

    keyring.core._keyring_backend = None


# The fast lane (`pytest -n 2 -m "not slow"`, see docs/development.md) leaves these out: each
# of their tests takes seconds (a terminal in tmux, a browser, every screen under every theme,
# a whole batch by keyboard, an SVG snapshot), together about two thirds of the suite's time.
# A path ending in "/" is a folder. CI runs them all. Tests elsewhere may be marked
# @pytest.mark.slow one by one.
SLOW_PATHS = (
    "e2e/",  # the installed app in tmux
    "web/",  # freight serve in Chromium
    "ui/test_contrast.py",  # every screen in every theme and colour system
    "ui/test_batch.py",  # the Batch screen: whole batches by keyboard
    "commands/test_batch.py",  # batches on the live sandbox, kill -9 and resume
    "ui/test_batch_snapshots.py",  # SVG snapshots: each renders and compares a screen
    "ui/test_book_check_snapshots.py",
    "ui/test_book_snapshots.py",
    "ui/test_quote_snapshots.py",
    "ui/test_rates_snapshots.py",
    "ui/test_result_snapshots.py",
    "ui/test_shipments_snapshots.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of SLOW_PATHS `slow`."""
    tests = Path(__file__).parent
    for item in items:
        if not item.path.is_relative_to(tests):
            continue
        where = item.path.relative_to(tests).as_posix()
        if any(where == p or (p.endswith("/") and where.startswith(p)) for p in SLOW_PATHS):
            item.add_marker(pytest.mark.slow)
