"""Benchmark: start-up of `freight --demo` against a bare Textual app, and bytes on the wire.

Run: python tests/benchmarks/bench_startup.py [--runs 5] [--before OTHER_CHECKOUT]

Prints, at 80x24:
- time from process start to the first usable frame in tmux (median of runs), for a minimal
  Textual app (one Static) and for `freight --demo`, and their ratio (goal: within 1.5x); the
  two are started in turn, so a machine busy with other work slows both alike (with
  ``--before``, the freight of another checkout too: before and after in one run);
- bytes written to the terminal for the first frame (goal < 50 KB) and per second while idle
  (goal 0), read from a pseudo-terminal the script owns.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import contextlib

from tests.e2e.tmux import TmuxTerminal

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Static

class Minimal(App[None]):
    def compose(self):
        yield Static("MINIMAL READY")

Minimal().run()
"""
FREIGHT_MARKER = "Items"
"""Text of the quote screen that shows it is usable (the items editor's title)."""


CHECKOUT = Path(__file__).resolve().parents[2]
"""The checkout this script belongs to: the code it times."""


def _freight() -> list[str]:
    script = Path(sys.executable).with_name("freight")
    return [str(script), "--demo"] if script.exists() else [sys.executable, "-m", "tui", "--demo"]


def _code(env: dict[str, str], checkout: Path) -> dict[str, str]:
    """``env`` with ``checkout``'s code first on the path (the installed script runs it)."""
    return {**env, "PYTHONPATH": str(checkout)}


def _isolated_env(root: Path) -> dict[str, str]:
    env = {}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        path = root / name.lower()
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    # As on a user's machine (pip compiles what it installs; a first run writes the rest),
    # both apps start from compiled bytecode: the warm-up run writes what is missing.
    env["PYTHONDONTWRITEBYTECODE"] = ""
    return env


def time_to_frame(command: list[str], marker: str, env: dict[str, str]) -> float:
    """Seconds from starting `command` in tmux until `marker` is on screen."""
    start = time.perf_counter()
    with TmuxTerminal(command, env=env) as term:
        term.wait_for(marker, timeout=60)
        elapsed = time.perf_counter() - start
        term.send("C-q")
    return elapsed


def tmux_overhead(env: dict[str, str]) -> float:
    """Time tmux itself needs to show a marker printed by a trivial command."""
    return time_to_frame(["sh", "-c", "echo TMUX-READY"], "TMUX-READY", env)


def pty_bytes(
    command: list[str], marker: bytes, env: dict[str, str], idle: float
) -> tuple[int, float]:
    """Bytes written for the first frame, and bytes per second while idle afterwards."""
    pid, fd = pty.fork()
    if pid == 0:  # child
        os.environ.update(env)
        os.environ["TERM"] = "xterm-256color"
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    received = bytearray()
    first_frame = -1
    deadline = time.monotonic() + 60
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            received.extend(chunk)
            quiet_since = time.monotonic()
        elif marker in received and time.monotonic() - quiet_since > 1.0:
            first_frame = len(received)
            break
    idle_start = len(received)
    end = time.monotonic() + idle
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                received.extend(os.read(fd, 65536))
            except OSError:
                break
    idle_bytes = len(received) - idle_start
    os.write(fd, b"\x11")  # ctrl+q
    time.sleep(0.5)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    return first_frame, idle_bytes / idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle to measure")
    parser.add_argument(
        "--before", type=Path, metavar="CHECKOUT", help="also time freight from this checkout"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        minimal = root / "minimal.py"
        minimal.write_text(MINIMAL_APP)
        env = _isolated_env(root)
        trees = {"freight --demo": _code(env, CHECKOUT)}
        if options.before is not None:
            trees["  before (--before)"] = _code(env, options.before.resolve())
        # The first demo run seeds the sandbox database; measure warm runs like a user's.
        for tree_env in trees.values():
            time_to_frame(_freight(), FREIGHT_MARKER, tree_env)
        overhead = statistics.median(tmux_overhead(env) for _ in range(3))
        time_to_frame([sys.executable, str(minimal)], "MINIMAL READY", env)
        bare: list[float] = []
        times: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(options.runs):
            bare.append(time_to_frame([sys.executable, str(minimal)], "MINIMAL READY", env))
            for name, tree_env in trees.items():
                times[name].append(time_to_frame(_freight(), FREIGHT_MARKER, tree_env))
        bare_s = statistics.median(bare)
        print(f"tmux overhead (echo)          {overhead * 1000:7.0f} ms")
        print(f"minimal Textual app, 80x24   {bare_s * 1000:7.0f} ms  (median of {options.runs})")
        for name, runs in times.items():
            app_s = statistics.median(runs)
            print(f"{name + ', 80x24':<28} {app_s * 1000:7.0f} ms  (median of {options.runs})")
            print(f"{'  ratio':<28} {app_s / bare_s:7.2f}x  (goal <= 1.5x)")
        frame, idle_rate = pty_bytes(
            _freight(), FREIGHT_MARKER.encode(), trees["freight --demo"], options.idle
        )
        print(f"first frame bytes            {frame:7d} B   (goal < 50 KB)")
        print(f"idle bytes per second        {idle_rate:7.1f} B/s (goal 0)")


if __name__ == "__main__":
    main()
