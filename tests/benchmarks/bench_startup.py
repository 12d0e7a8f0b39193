"""Benchmark: the first frame of `freight --demo` against a bare Textual app, and its bytes.

Run: python tests/benchmarks/bench_startup.py [--runs 7] [--repeats 3] [--before CHECKOUT]

Measures the way the team's shared harness (`../shared/bench/ttff-ratio.sh`) does, so both
print the same figure: each app starts in a fresh 80x24 pane of a private tmux server (started
before the clock), the pane is read every ~5 ms, and the time is taken when the text shows
(`DEMO` in freight's header; `HELLO` for the floor, a bare Textual app with one Static). The
two are interleaved, `--runs` each; the figure is the median of freight over the median of the
floor (goal: at most 1.3x), for each of `--repeats` rounds. When the shared harness is there
(or `FREIGHT_TTFF_HARNESS` names it), it runs too, and its lines are printed as they are.

Both apps start from compiled bytecode, as on a user's machine (pip compiles what it
installs; an editable install writes it on the first run unless PYTHONDONTWRITEBYTECODE is
set): the checkout's `tui` is compiled first. Then, read from a pseudo-terminal the script
owns: bytes written for the first frame (goal < 50 KB) and per second while idle (goal 0).
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import fcntl
import os
import pty
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
"""The checkout this script belongs to: the code it times."""
HARNESS = next(
    (
        parent / "shared" / "bench" / "ttff-ratio.sh"
        for parent in CHECKOUT.parents
        if (parent / "shared" / "bench" / "ttff-ratio.sh").is_file()
    ),
    CHECKOUT.parent / "shared" / "bench" / "ttff-ratio.sh",
)
"""The team's shared harness, in a folder above the checkout when there is one."""
FLOOR_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Static


class Hello(App):
    def compose(self) -> ComposeResult:
        yield Static("HELLO")


Hello().run()
"""
FLOOR_TEXT = "HELLO"
FREIGHT_TEXT = "DEMO"
"""What the header shows in the first frame of the demo (the harness waits for it too)."""
GOAL = 1.3


def _freight() -> list[str]:
    script = Path(sys.executable).with_name("freight")
    return [str(script), "--demo"] if script.exists() else [sys.executable, "-m", "tui", "--demo"]


class Pane:
    """A private tmux server whose panes are timed from creation to a text on screen."""

    def __init__(self, env: dict[str, str]) -> None:
        self.socket = f"bench-startup-{os.getpid()}"
        self.env = env
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", "hold", "-x", "10", "-y", "5")
        self._tmux("set", "-g", "default-terminal", "tmux-256color")
        self._tmux("set", "-g", "history-limit", "0")

    def _tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )

    def time_to_text(self, command: list[str], text: str, timeout: float = 30.0) -> float:
        """Seconds from creating an 80x24 pane running `command` until `text` shows in it."""
        shell_command = " ".join(f"'{part}'" for part in command)
        variables = [f"{name}={value}" for name, value in self.env.items()]
        started = time.perf_counter()
        self._tmux(
            "new-session", "-d", "-s", "run", "-x", "80", "-y", "24",
            *(item for variable in variables for item in ("-e", variable)),
            "-e", "COLORTERM=truecolor", shell_command,
        )  # fmt: skip
        try:
            while True:
                screen = self._tmux("capture-pane", "-p", "-t", "run")
                if screen.returncode != 0:
                    raise RuntimeError(f"{command} ended before {text!r} showed")
                if text in screen.stdout:
                    return time.perf_counter() - started
                if time.perf_counter() - started > timeout:
                    raise RuntimeError(f"{text!r} never showed:\n{screen.stdout}")
                time.sleep(0.005)
        finally:
            self._tmux("kill-session", "-t", "run")

    def close(self) -> None:
        self._tmux("kill-server")


def _env(root: Path, checkout: Path) -> dict[str, str]:
    env = {"PYTHONPATH": str(checkout), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        path = root / checkout.name / name.lower()
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    return env


def ratio_round(
    pane: Pane, floor: list[str], trees: dict[str, dict[str, str]], runs: int
) -> tuple[list[float], dict[str, list[float]]]:
    """One round: the floor and each freight in turn, `runs` times; seconds of each."""
    floor_times: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(runs):
        floor_times.append(pane.time_to_text(floor, FLOOR_TEXT))
        for name, env in trees.items():
            pane.env = env
            times[name].append(pane.time_to_text(_freight(), FREIGHT_TEXT))
    return floor_times, times


def run_harness(runs: int) -> None:
    """The shared harness itself, if it is there: its lines as it prints them."""
    harness = Path(os.environ.get("FREIGHT_TTFF_HARNESS", HARNESS))
    if not harness.is_file() or shutil.which("bash") is None:
        print(f"(shared harness not found at {harness}: set FREIGHT_TTFF_HARNESS to run it)")
        return
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    result = subprocess.run(
        ["bash", str(harness), str(runs)],
        cwd=CHECKOUT,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        check=False,
    )
    print(f"shared harness ({harness}):")
    for line in (result.stdout + result.stderr).splitlines():
        print(f"  {line}")


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="interleaved runs per round")
    parser.add_argument("--repeats", type=int, default=3, help="rounds (each gives a ratio)")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle to measure")
    parser.add_argument(
        "--before", type=Path, metavar="CHECKOUT", help="also time freight from this checkout"
    )
    parser.add_argument("--no-harness", action="store_true", help="skip the shared harness")
    options = parser.parse_args()
    checkouts = {"freight --demo": CHECKOUT}
    if options.before is not None:
        checkouts["before (--before)"] = options.before.resolve()
    for checkout in checkouts.values():
        compileall.compile_dir(checkout / "tui", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        floor_script = root / "hello.py"
        floor_script.write_text(FLOOR_APP)
        floor = [sys.executable, str(floor_script)]
        trees = {name: _env(root, checkout) for name, checkout in checkouts.items()}
        pane = Pane(trees["freight --demo"])
        try:
            # Warm-up: the first demo run seeds its sandbox; the floor's bytecode is written.
            pane.time_to_text(floor, FLOOR_TEXT)
            for env in trees.values():
                pane.env = env
                pane.time_to_text(_freight(), FREIGHT_TEXT)
            print(f"First frame at 80x24 in tmux, median of {options.runs} interleaved runs:")
            for round_number in range(1, options.repeats + 1):
                floor_times, times = ratio_round(pane, floor, trees, options.runs)
                floor_ms = statistics.median(floor_times) * 1000
                for name, runs in times.items():
                    app_ms = statistics.median(runs) * 1000
                    ratio = app_ms / floor_ms
                    verdict = "ok" if ratio <= GOAL else "OVER GOAL"
                    print(
                        f"  round {round_number}: {name} {app_ms:.0f} ms vs bare Textual "
                        f"{floor_ms:.0f} ms: ratio {ratio:.2f} (goal <= {GOAL}: {verdict})"
                    )
        finally:
            pane.close()
        if not options.no_harness:
            run_harness(options.runs)
        frame, idle_rate = pty_bytes(
            _freight(), FREIGHT_TEXT.encode(), trees["freight --demo"], options.idle
        )
        print(f"first frame bytes            {frame:7d} B   (goal < 50 KB)")
        print(f"idle bytes per second        {idle_rate:7.1f} B/s (goal 0)")


if __name__ == "__main__":
    main()
