"""The command line answers --help, --version and bad flags as a user expects."""

from __future__ import annotations

import argparse
import json
import logging
import os
import pty
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tui import __version__
from tui.cli import app_arguments, build_parser
from tui.sandbox.threaded import RunningSandbox


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


def test_help_names_the_config_file_variable() -> None:
    words = " ".join(_freight("--help").stdout.split())
    assert "FREIGHT_CONFIG names another one" in words


@pytest.mark.parametrize(
    "args", [("--demo", "auth", "status"), ("auth", "status", "--demo")], ids=["before", "after"]
)
def test_demo_applies_to_auth_status(args: tuple[str, ...]) -> None:
    result = _freight(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("Profile:     demo")
    assert "DEMO (a local sandbox; no credentials needed)" in result.stdout
    refused = _freight("--demo", "login")
    assert refused.returncode == 2
    assert "the demo needs no login" in refused.stderr


def test_unknown_flag_is_a_usage_error() -> None:
    result = _freight("--no-such-flag")
    assert result.returncode == 2
    assert "unrecognized arguments: --no-such-flag" in result.stderr
    assert "usage: freight" in result.stderr


def _parsers(parser: argparse.ArgumentParser, path: str = "freight") -> list[tuple[str, Any]]:
    """Every (command path, parser) under ``parser``."""
    found: list[tuple[str, Any]] = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found.extend(_parsers(child, f"{path} {name}"))
    return found


def test_every_option_and_command_has_help() -> None:
    missing = []
    for path, parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helped = {a.dest for a in action._choices_actions if a.help}
                missing += [f"{path} {name}" for name in action.choices if name not in helped]
            elif not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []
    assert len(_parsers(build_parser())) >= 15


def test_help_is_fast_and_loads_no_client_or_textual() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "print(sorted(m for m in ('textual', 'httpx', 'pydantic') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


def test_auth_has_login_logout_status_and_the_top_level_aliases() -> None:
    auth = _freight("auth", "--help")
    assert auth.returncode == 0
    assert {"login", "logout", "status"} <= set(auth.stdout.replace(",", " ").split())
    for command in (("login",), ("auth", "login")):
        result = _freight(*command, "--help")
        assert result.returncode == 0
        assert "--environment {sandbox,production}" in result.stdout
    assert "--environment" not in _freight("logout", "--help").stdout
    bad = _freight("auth", "login", "--environment", "staging")
    assert bad.returncode == 2
    assert "invalid choice: 'staging'" in bad.stderr


def _login(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui", *args, "--base-url", url],
        input="demo\ndemo-secret\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_login_saves_the_environment_given(live_sandbox: RunningSandbox) -> None:
    from tui.config.settings import load_config

    url = live_sandbox.base_url
    test_account = _login(url, "auth", "login", "--profile", "acme", "--environment", "sandbox")
    assert test_account.returncode == 0, test_account.stderr
    assert "Added profile 'acme' (SANDBOX)" in test_account.stdout
    plain = _login(url, "login", "--profile", "live")
    assert plain.returncode == 0, plain.stderr
    assert "Added profile 'live' (PRODUCTION); say --environment sandbox" in plain.stdout
    changed = _login(url, "login", "--profile", "live", "--environment", "sandbox")
    assert "Set the environment (SANDBOX) of profile 'live'" in changed.stdout
    profiles = load_config().profiles
    assert (profiles["acme"].environment, profiles["live"].environment) == ("sandbox", "sandbox")
    status = _freight("auth", "status", "--profile", "acme")
    assert status.returncode == 0, status.stderr
    assert "SANDBOX" in status.stdout
    out = _freight("auth", "logout", "--profile", "acme")
    assert out.returncode == 0
    assert "Logged out of profile acme" in out.stdout
    alias = _freight("logout", "--profile", "live")
    assert "Logged out of profile live" in alias.stdout


def test_debug_logs_requests_to_stderr_without_the_secret(live_sandbox: RunningSandbox) -> None:
    env = {
        **os.environ,
        "FREIGHT_BASE_URL": live_sandbox.base_url,
        "FREIGHT_API_TOKEN": "demo.demo-secret",
    }
    args = [sys.executable, "-m", "tui", "shipments", "--limit", "1", "--format", "jsonl"]
    quiet = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    debug = subprocess.run([*args, "--debug"], env=env, capture_output=True, text=True, timeout=60)
    assert quiet.returncode == debug.returncode == 0
    assert quiet.stderr == ""
    assert "DEBUG tui.api: GET /shipments -> 200" in debug.stderr
    assert "demo-secret" not in debug.stderr
    assert json.loads(debug.stdout)["shipmentId"] == json.loads(quiet.stdout)["shipmentId"]
    bad = subprocess.run(
        args, env={**env, "FREIGHT_LOG_LEVEL": "chatty"}, capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert "FREIGHT_LOG_LEVEL='chatty': must be one of DEBUG" in bad.stderr


def test_log_level_variable_sets_the_log_file_level(tmp_path: Path) -> None:
    from tui import logsetup

    assert logsetup.level_from(False, {}) == logging.INFO
    assert logsetup.level_from(False, {"FREIGHT_LOG_LEVEL": "warning"}) == logging.WARNING
    assert logsetup.level_from(True, {"FREIGHT_LOG_LEVEL": "ERROR"}) == logging.DEBUG


def test_demo_works_for_the_commands() -> None:
    result = _freight("--demo", "shipments", "--limit", "3", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3
    after = _freight("track", "--demo", json.loads(result.stdout.splitlines()[0])["proNumber"])
    assert after.returncode == 0, after.stderr
    assert "Status:" in after.stdout


def test_app_logging_keeps_redaction_and_follows_the_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.config.paths import log_file
    from tui.credentials import redact
    from tui.launch import setup_logging

    secret = "s3cret-value-" + os.urandom(4).hex()
    redact.register(secret)
    monkeypatch.setenv("FREIGHT_LOG_LEVEL", "WARNING")
    setup_logging()
    logging.getLogger("tui.test").info("quiet %s", secret)
    logging.getLogger("tui.test").warning("token %s", secret)
    setup_logging(debug=True)
    logging.getLogger("tui.test").debug("detail %s", secret)
    text = log_file().read_text(encoding="utf-8")
    assert "quiet" not in text
    assert "token ***" in text
    assert "detail ***" in text
    assert secret not in text
    monkeypatch.setenv("FREIGHT_LOG_LEVEL", "loud")
    setup_logging()  # the app still starts, at INFO, and says why in the log
    assert "FREIGHT_LOG_LEVEL='loud'" in log_file().read_text(encoding="utf-8")
    from tui import logsetup

    logsetup.remove()
    logging.getLogger().setLevel(logging.WARNING)


NO_TERMINAL_PROBE = (
    "import sys\n"
    "from tui.cli import main\n"
    "status = main(sys.argv[1:])\n"
    "print(sorted(m for m in ('textual', 'httpx', 'pydantic') if m in sys.modules),"
    " file=sys.stderr)\n"
    "raise SystemExit(status)\n"
)


@pytest.mark.parametrize("args", [[], ["--demo"]], ids=["bare", "demo"])
def test_without_a_terminal_the_app_says_what_to_run_and_exits_2_at_once(
    tmp_path: Path, args: list[str]
) -> None:
    """As cron runs it: its own session (no controlling terminal), stdin from /dev/null,
    stdout to a file. It used to draw 20-34 KB of escape codes there and wait forever."""
    out = tmp_path / "out"
    with out.open("wb") as stdout:
        started = time.monotonic()
        result = subprocess.run(
            ["setsid", "--wait", sys.executable, "-c", NO_TERMINAL_PROBE, *args],
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=30,
        )
        elapsed = time.monotonic() - started
    print(f"exited {result.returncode} after {elapsed:.2f} s")
    assert result.returncode == 2
    assert out.read_bytes() == b""  # nothing drawn
    assert "freight: the app needs a terminal" in result.stderr
    for command in ("shipments", "rates", "track", "batch"):
        assert f"\n    {command} " in result.stderr
    assert "freight --help" in result.stderr
    assert "[]" in result.stderr  # decided before Textual or the client is loaded


def test_a_pipe_for_output_is_no_terminal_either() -> None:
    """`freight | tee log` with the keyboard on stdin: still no screen to draw on."""
    primary, secondary = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "tui", "--demo"],
            stdin=secondary,
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        os.close(primary)
        os.close(secondary)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "freight: the app needs a terminal" in result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--demo"],
        ["--debug", "--demo"],
        ["--profile", "acme"],
        ["--profile=acme", "--base-url", "https://x.example"],
        ["--base-url=https://x.example/v1", "--debug"],
    ],
)
def test_the_app_s_flags_read_without_the_full_parser_read_as_it_reads_them(
    argv: list[str],
) -> None:
    fast = app_arguments(argv)
    assert fast is not None
    assert vars(fast) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize(
    "argv",
    [
        ["shipments"],
        ["--demo", "sandbox"],
        ["--help"],
        ["--version"],
        ["--dem"],
        ["--profile"],
        ["--profile", "--demo"],
        ["--demo=yes"],
    ],
)
def test_anything_else_goes_to_the_full_parser(argv: list[str]) -> None:
    assert app_arguments(argv) is None
