"""Paths follow the XDG variables and FREIGHT_CONFIG at call time; `freight config path`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tui.config import paths


def test_paths_follow_xdg_at_call_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "c1"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "d1"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "s1"))
    assert paths.config_file() == tmp_path / "c1" / "freight-tui" / "config.toml"
    assert paths.data_dir() == tmp_path / "d1" / "freight-tui"
    assert paths.log_file().is_relative_to(tmp_path / "s1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "c2"))
    assert paths.config_dir() == tmp_path / "c2" / "freight-tui"


def test_freight_config_overrides_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FREIGHT_CONFIG", str(tmp_path / "elsewhere.toml"))
    assert paths.config_file() == tmp_path / "elsewhere.toml"


def test_config_path_command_prints_the_three_places(isolated_home: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tui", "config", "path"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert str(isolated_home / "config" / "freight-tui" / "config.toml") in out
    assert str(isolated_home / "data" / "freight-tui") in out
    assert str(isolated_home / "state" / "freight-tui") in out
