"""Drive a program in a real terminal: a detached tmux session of a fixed size."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Final

HANG: Final = 180.0
"""The least time a wait for the screen goes on before the test says the app hung. A wait ends
as soon as what it waits for shows, so this costs nothing when the app works; the seconds a
call names (what a quiet machine takes) are raised to it, for a busy machine (load 8 to 18)
can take many times those."""


def tmux_available() -> bool:
    """True when a tmux binary is on PATH."""
    return shutil.which("tmux") is not None


class TmuxTerminal:
    """One tmux session running one command; read the screen, type keys."""

    def __init__(
        self,
        command: list[str],
        *,
        width: int = 80,
        height: int = 24,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.name = f"freight-{uuid.uuid4().hex[:8]}"
        self.socket = f"freight-test-{os.getpid()}-{self.name}"
        full_env = {**os.environ, **(env or {})}
        full_env.setdefault("TERM", "xterm-256color")
        full_env.setdefault("LANG", "C.UTF-8")
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in (env or {}).items())
        shell_command = f"env {exports} {shlex.join(command)}" if exports else shlex.join(command)
        self._tmux(
            "new-session",
            "-d",
            "-s",
            self.name,
            "-x",
            str(width),
            "-y",
            str(height),
            shell_command + "; sleep 600",
            env=full_env,
            cwd=cwd,
        )
        self._tmux("set-option", "-t", self.name, "status", "off")

    def _tmux(
        self, *args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None
    ) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=True,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            timeout=30,
        )
        return result.stdout

    def screen(self) -> str:
        """The visible screen as text, one line per row."""
        return self._tmux("capture-pane", "-p", "-t", self.name)

    def send(self, *keys: str) -> None:
        """Send tmux key names (e.g. "Enter", "C-r", "F2") or literal text with literal()."""
        self._tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        """Type text literally, as a person or a barcode scanner would."""
        self._tmux("send-keys", "-t", self.name, "-l", text)

    def type_paced(
        self,
        keys: list[str],
        gap: float,
        late: tuple[int, float] = (0, 0.0),
        *,
        stall: bool = False,
    ) -> None:
        """Send each of `keys` in its own write, `gap` seconds apart by the clock (not after
        each write's return): a scanner slowed by a busy machine or a network. A key is a
        tmux key name ("Enter", "C-]": capitalised) or literal text. `late`: the key at that
        index (and every key after it) comes that many seconds later still (one late key);
        `stall`: the keys from the late one on are written back to back, as a program that
        stalled for the gap reads them: at once. (Not by stopping it: on SIGCONT Textual
        starts its terminal anew, a second thread reading keys beside the first.)

        The keys go through one tmux control client, each as its own send-keys command: no
        process is started per key, whose start-up on a loaded machine would space them out
        more than `gap`."""
        client = subprocess.Popen(
            ["tmux", "-L", self.socket, "-C", "attach-session", "-t", self.name,
             "-f", "ignore-size,no-output"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )  # fmt: skip
        assert client.stdin is not None
        try:
            self._control(client, f"has-session -t {self.name}")  # it reads commands
            start = time.monotonic()
            for index, key in enumerate(keys):
                held_back = late[1] if late[1] and index >= late[0] else 0.0
                at = late[0] if stall and index >= late[0] else index
                delay = start + at * gap + held_back - time.monotonic()
                if delay > 0:
                    time.sleep(delay)  # the pace asked for, not a wait for the app
                literal = "" if key[:1].isupper() and len(key) > 1 else "-l "
                client.stdin.write(f"send-keys -t {self.name} {literal}{_quoted(key)}\n")
                client.stdin.flush()
            self._control(client, f"has-session -t {self.name}")  # every key taken
        finally:
            client.stdin.close()
            client.wait(timeout=30)

    @staticmethod
    def _control(client: subprocess.Popen[str], command: str) -> None:
        """Run `command` in a control client and wait for its answer (%end or %error)."""
        assert client.stdin is not None
        assert client.stdout is not None
        client.stdin.write(command + "\n")
        client.stdin.flush()
        said: list[str] = []
        for line in client.stdout:
            said.append(line)
            if line.startswith("%error"):
                raise AssertionError(f"tmux refused {command!r}: {''.join(said)}")
            if line.startswith("%end"):
                return
        raise AssertionError(f"the tmux control client ended: {''.join(said)}")

    def fill_row(self, *values: str) -> None:
        """From the focused Qty field: qty, package, weight, L, W, H, class, description."""
        for index, value in enumerate(values):
            if value:
                self.type(value)
            if index < len(values) - 1:
                self.send("Tab")

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        """Wait until `text` is on screen; return the screen. Raises AssertionError after
        `HANG` seconds at the least."""
        timeout = max(timeout, HANG)
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not appear within {timeout}s; screen:\n{screen}")

    def wait_settled(self, text: str, timeout: float = 20.0, quiet: float = 0.3) -> str:
        """Wait until `text` is on screen and the screen stays the same for `quiet` seconds:
        a capture can catch a table half painted (a PRO cut short, rows not yet drawn)."""
        timeout = max(timeout, HANG)
        deadline = time.monotonic() + timeout
        screen = self.wait_for(text, timeout)
        while time.monotonic() < deadline:
            time.sleep(quiet)
            again = self.screen()
            if again == screen and text in screen:
                return screen
            screen = again
        raise AssertionError(f"the screen did not settle within {timeout}s; screen:\n{screen}")

    def tmux(self, *args: str) -> str:
        """Any tmux command on this session's server (e.g. ``set-option``, ``list-buffers``)."""
        return self._tmux(*args)

    def pane_title(self) -> str:
        """The pane's title, as the program (or an escape sequence it printed) set it."""
        return self._tmux("display-message", "-p", "-t", self.name, "#{pane_title}").strip()

    def close(self) -> None:
        """Kill the session and its tmux server."""
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)

    def __enter__(self) -> TmuxTerminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _quoted(key: str) -> str:
    """`key` as one word of tmux's command language."""
    return "'" + key + "'" if "'" not in key else '"' + key + '"'
