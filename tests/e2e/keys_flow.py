"""Shared steps of the tmux tests: a fresh home, the app ready for keys, reading fields."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from tests.clock import pythonpath
from tests.e2e.tmux import HANG, TmuxTerminal

ROOT = Path(__file__).resolve().parents[2]
APP = [sys.executable, "-m", "tui"]
"""This checkout's app (PYTHONPATH below), not whatever `freight` is installed."""


def app_env(tmp_path: Path, term: str = "xterm-256color") -> dict[str, str]:
    """A fresh home, no keyring, the terminal type asked for, and this checkout's code."""
    return {
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        "PYTHONPATH": pythonpath(ROOT),
        "TERM": term,
    }


def wait_for_demo(term: TmuxTerminal) -> str:
    """The quote form, with the demo's sandbox started (keys before that wait in line)."""
    term.wait_for("Items", timeout=30)
    term.wait_for("DEMO")
    return wait_until(term, lambda screen: "starting the local sandbox" not in screen, 60)


def wait_until(term: TmuxTerminal, condition: object, timeout: float = 20.0) -> str:
    """Wait until `condition(screen)` holds; return the screen (fails after `HANG` seconds at
    the least: a busy machine is slow, not wrong)."""
    assert callable(condition)
    timeout = max(timeout, HANG)
    deadline = time.monotonic() + timeout
    screen = term.screen()
    while not condition(screen):
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout}s; screen:\n{screen}")
        time.sleep(0.05)
        screen = term.screen()
    return screen


def list_focused(screen: str) -> bool:
    """The shipments table has focus: its border is drawn heavy."""
    return any(line.startswith("┏━ Shipments") for line in screen.splitlines())


def press_escape(term: TmuxTerminal, until: object, timeout: float = 10.0) -> str:
    """Esc, then wait until `until(screen)` shows it was read. A terminal's parser holds a
    lone ESC for about 0.1 s (longer on a busy machine) to see whether a key follows, and
    a key sent meanwhile joins it as alt+key (Esc then Enter would be alt+enter)."""
    term.send("Escape")
    return wait_until(term, until, timeout)


def detail_loaded(screen: str) -> bool:
    """A shipment's detail with its tracking loaded: the lifecycle line is drawn (the footer's
    `t Tracking` is there from the start, while the detail still says loading)."""
    return any("pending" in line and " ── " in line for line in screen.splitlines())


def field(screen: str, label: str) -> str:
    """The first word after `label` on the first line that has it."""
    for line in screen.splitlines():
        match = re.search(rf"(?:^|\s){re.escape(label)}\s+(\S+)", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no {label!r} on screen:\n{screen}")


def fill_quote(term: TmuxTerminal) -> None:
    """From the focused destination ZIP: on to the items row, filled as a person types it."""
    term.send("Tab", "Tab", "Tab")
    term.fill_row("2", "pallet", "800", "48", "40", "48", "", "Machine parts")
    term.wait_for("15.00")


SCANNER_CONFIG = '[scanner]\nprefix = "ctrl+]"\nsuffix = "enter"\n'
"""A scanner programmed to send GS (ctrl+]) before each code and Enter after it."""


def with_scanner_prefix(tmp_path: Path) -> None:
    """Write the config of `app_env(tmp_path)` with the scanner's prefix set."""
    config = tmp_path / "config" / "freight-tui" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(SCANNER_CONFIG, encoding="utf-8")


def scan_with_prefix(term: TmuxTerminal, code: str) -> None:
    """A scan as a scanner with the prefix sends it: GS, then the code and Enter at once
    (however far apart the two writes arrive, the prefix says what follows is a scan)."""
    term.send("C-]")
    term.type(code + "\r")
