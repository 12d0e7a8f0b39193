"""Benchmark: the work to the first frame, in instructions, of `freight --demo` and a bare app.

Run: python tests/benchmarks/bench_first_frame_work.py [--python PATH] [--runs 2]

The wall-clock ratio (`../shared/bench/ttff-ratio.sh`) scatters by half a point on a busy
machine; instruction counts do not. Each app runs under `valgrind --tool=callgrind` in a
pseudo-terminal of 80x24 (TERM=tmux-256color, COLORTERM=truecolor, fresh XDG folders, as the
shared harness starts it) until its text shows (`DEMO` in freight's header, `HELLO` for the
floor: the harness's `hello.py`, or the same app written here), then it is stopped. The figure
is the main thread's instructions (Python's start, imports and the app up to its first frame;
threads such as the ZIP data's are left out), and freight's over the floor's. Both are run by
`--python` (default: this interpreter), whose venv's `freight` is the one timed: point it at a
regular install (`pip install .` into a fresh venv) to time what users run. Needs valgrind;
each run takes about ten seconds.

The instruction ratio follows the wall-clock one (2026-11-28: 1.78 for a build whose
harness runs gave 1.57-1.79): a change that does not move it will not move the harness.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
FLOOR_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Static


class Hello(App):
    def compose(self) -> ComposeResult:
        yield Static("HELLO")


Hello().run()
"""
XDG = ("CONFIG", "DATA", "STATE", "CACHE")
"""The XDG folders each run gets fresh (no config, no drafts)."""
TIMEOUT = 180.0
"""Seconds an app may take under valgrind to show its text."""


def floor_script(folder: Path) -> Path:
    """The shared harness's `hello.py` when it is above the checkout, else the same app."""
    for parent in CHECKOUT.parents:
        shared = parent / "shared" / "bench" / "hello.py"
        if shared.is_file():
            return shared
    script = folder / "hello.py"
    script.write_text(FLOOR_APP)
    return script


def _drain(fd: int, wait: float) -> bytes:
    ready, _, _ = select.select([fd], [], [], wait)
    if not ready:
        return b""
    try:
        return os.read(fd, 65536) or b"\0"  # EOF: the app is gone
    except OSError:
        return b"\0"


def main_thread_instructions(command: list[str], expected: bytes) -> int:
    """Instructions of `command`'s main thread until `expected` is on its screen."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        env = {
            **os.environ,
            "TERM": "tmux-256color",
            "COLORTERM": "truecolor",
            **{f"XDG_{name}_HOME": f"{folder}/{name.lower()}" for name in XDG},
        }
        valgrind = ["valgrind", "-q", "--tool=callgrind", "--separate-threads=yes"]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the app under valgrind
            os.execvpe("valgrind", [*valgrind, f"--callgrind-out-file={out}", *command], env)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        seen = b""
        deadline = time.monotonic() + TIMEOUT
        while expected not in seen and not seen.endswith(b"\0"):
            if time.monotonic() > deadline:
                break
            seen += _drain(fd, 1.0)
        os.kill(pid, signal.SIGTERM)  # callgrind writes its counts as the app ends
        while not _drain(fd, 0.2).endswith(b"\0") and not os.waitpid(pid, os.WNOHANG)[0]:
            pass
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        os.close(fd)
        if expected not in seen:
            raise SystemExit(f"{command[0]} never showed {expected!r}")
        main = Path(f"{out}-01")  # thread 1: the main thread
        for line in main.read_text().splitlines():
            if line.startswith("totals:"):
                return int(line.split()[1])
        raise SystemExit(f"no totals in {main}")


def compiled(python: Path) -> bool:
    """Whether `python`'s `tui` has its modules compiled (a regular install does; an editable
    one under PYTHONDONTWRITEBYTECODE=1 never does, and every run compiles them from source:
    0.4x of the ratio on 2026-12-07)."""
    where = subprocess.run(
        [str(python.absolute()), "-c", "import tui; print(tui.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),  # the venv's tui, not a checkout's in this folder
    ).stdout.strip()
    return (Path(where).parent / "__pycache__").is_dir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the venv's python")
    parser.add_argument("--runs", type=int, default=2, help="runs of each app (default 2)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    python = Path(args.python)
    freight = python.parent / "freight"
    if not compiled(python):
        print("warning: this tui has no .pyc files; each run compiles it (a regular install")
        print("         compiles them, or unset PYTHONDONTWRITEBYTECODE and run it once)")
    with tempfile.TemporaryDirectory() as folder:
        hello = floor_script(Path(folder))
        floor: list[int] = []
        app: list[int] = []
        for _ in range(args.runs):
            floor.append(main_thread_instructions([str(python), str(hello)], b"HELLO"))
            app.append(main_thread_instructions([str(freight), "--demo"], b"DEMO"))
    print("floor, M instructions:", " ".join(f"{n / 1e6:.0f}" for n in floor))
    print("app, M instructions:  ", " ".join(f"{n / 1e6:.0f}" for n in app))
    ratio = statistics.median(app) / statistics.median(floor)
    print(f"work to the first frame: freight --demo {ratio:.2f}x a bare Textual app")


if __name__ == "__main__":
    main()
