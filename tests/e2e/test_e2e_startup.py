"""End to end: a broken config file is reported at the terminal, whether found before the first
frame (not TOML) or right after it (fails the typed checks), with exit status 2."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.e2e.tmux import TmuxTerminal

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _run_demo(freight_command: list[str], config: Path) -> str:
    """The terminal after `freight --demo` ran with ``config`` and exited."""
    command = f"{shlex.join([*freight_command, '--demo'])}; echo exit=$?"
    env = {"FREIGHT_CONFIG": str(config)}
    with TmuxTerminal(["sh", "-c", command], width=250, env=env) as term:
        return term.wait_for("exit=", timeout=30)


def test_a_config_file_that_is_not_toml_stops_the_start(
    freight_command: list[str], tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('default_profile = "acme\n', encoding="utf-8")
    screen = " ".join(_run_demo(freight_command, config).split())
    assert f"freight: {config}: not valid TOML" in screen
    assert "exit=2" in screen


def test_a_config_error_found_after_the_first_frame_is_said_at_the_terminal(
    freight_command: list[str], tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[profiles.acme]\nbase_url = "https://api.acme.example"\nenvironment = "prod"\n',
        encoding="utf-8",
    )
    screen = " ".join(_run_demo(freight_command, config).split())
    assert f"freight: {config}, line 3, profiles.acme.environment: " in screen
    assert "exit=2" in screen
