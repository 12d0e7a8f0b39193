"""`freight serve` as a user starts it, for the tests: a home of its own, its address."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def home(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, TEXTUAL_ANIMATIONS="none")
    env.pop("NO_COLOR", None)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    return env


def serve(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", *args],
        env=home(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"freight serve exited: {process.communicate()[1].decode()}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"freight serve did not listen on {port}")


def token_url(process: subprocess.Popen[bytes], seconds: float = 60) -> str:
    """The address `freight serve` printed (with its token), once it listens."""
    assert process.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stdout.readline().decode()
        if "?token=" in line:
            return line.strip()
        if not line and process.poll() is not None:
            raise AssertionError(f"freight serve exited: {process.communicate()[1].decode()}")
    raise AssertionError("freight serve printed no address")


def app_processes(server: int) -> set[int]:
    """The apps a server started: its children (their pids stay known after it dies)."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == server:
            children.add(int(stat.parent.name))
    return children


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def stop(process: subprocess.Popen[bytes]) -> tuple[str, str]:
    process.terminate()
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return out.decode(errors="replace"), err.decode(errors="replace")
