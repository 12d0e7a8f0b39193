"""`freight completion bash|zsh|fish`: scripts generated from the parser, run in bash."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tui.cli import build_parser
from tui.commands.completion import script, walk


def _script(shell: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "tui", "completion", shell],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout


def _complete(line: str) -> list[str]:
    """What bash offers after typing ``line`` (a trailing space starts a new word)."""
    words = line.split()
    if line.endswith(" "):
        words.append("")
    program = (
        _script("bash")
        + f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        + '_freight; printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(
        ["bash", "--norc", "--noprofile"], input=program, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return [w for w in result.stdout.splitlines() if w]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_options_and_choices() -> None:
    assert _complete("freight au") == ["auth"]
    assert _complete("freight auth ") == ["login", "logout", "status"]
    assert "--help" in _complete("freight auth -")
    assert "--status" in _complete("freight shipments ")  # no sub-commands: the options
    assert "--environment" in _complete("freight auth login --")
    assert _complete("freight auth login --environment ") == ["sandbox", "production"]
    assert "delivered" in _complete("freight shipments --status ")
    assert _complete("freight shipments --format j") == ["json", "jsonl"]
    assert _complete("freight completion ") == ["bash", "zsh", "fish"]
    assert _complete("freight shipments --search ") == []  # a value, not a flag


def test_every_shell_script_knows_every_command_and_option() -> None:
    commands = walk(build_parser())
    flags = {flag for c in commands for option in c.options for flag in option.flags}
    names = {c.path.rsplit("/", 1)[-1] for c in commands[1:]}
    for shell in ("bash", "zsh", "fish"):
        text = _script(shell)
        assert text == script(shell, build_parser())
        for name in names:
            assert name in text, (shell, name)
        for flag in flags:
            shown = (
                flag
                if shell != "fish"
                else (f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
            )
            assert shown in text, (shell, flag)
    assert _script("zsh").startswith("#compdef freight")
    assert "complete -F _freight freight" in _script("bash")
    assert "complete -c freight" in _script("fish")


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_scripts_parse(shell: str) -> None:
    binary = shutil.which(shell)
    if binary is None:
        pytest.skip(f"{shell} is not installed")
    result = subprocess.run([binary, "-n"], input=_script(shell), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
