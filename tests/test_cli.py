"""The command line answers --help, --version and bad flags as a user expects."""

from __future__ import annotations

import subprocess
import sys

from tui import __version__


def _freight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", *args], capture_output=True, text=True, timeout=60
    )


def test_version_prints_the_package_version() -> None:
    result = _freight("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"freight {__version__}"


def test_help_names_the_demo_and_the_precedence() -> None:
    result = _freight("--help")
    assert result.returncode == 0
    assert "--demo" in result.stdout
    words = " ".join(result.stdout.split())
    assert "command-line flags, environment variables" in words


def test_unknown_flag_is_a_usage_error() -> None:
    result = _freight("--no-such-flag")
    assert result.returncode == 2
    assert "unrecognized arguments: --no-such-flag" in result.stderr
    assert "usage: freight" in result.stderr
