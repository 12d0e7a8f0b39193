"""A fake CUPS `lp` for tests: an executable first on PATH that records its argv and the file."""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

_SCRIPT = """#!{python}
import json, sys, pathlib
log = pathlib.Path({log!r})
args = sys.argv[1:]
data = pathlib.Path(args[-1]).read_bytes() if args else b""
with log.open("a") as handle:
    handle.write(json.dumps({{"argv": args, "head": data[:8].decode("latin-1")}}) + "\\n")
print("request id is fake-1 (1 file(s))")
"""


@dataclass(frozen=True)
class LpCall:
    """One call of the fake `lp`: its arguments and the first bytes of the file it got."""

    argv: list[str]
    head: str


@dataclass
class FakeLp:
    """Where the fake `lp` logs each call (one JSON line): argv and the first bytes printed."""

    log: Path

    def calls(self) -> list[LpCall]:
        """Every recorded call, oldest first."""
        if not self.log.exists():
            return []
        return [LpCall(**json.loads(line)) for line in self.log.read_text().splitlines()]


def install_fake_lp(directory: Path, monkeypatch: pytest.MonkeyPatch) -> FakeLp:
    """Put an executable `lp` into `directory` and that directory first on PATH."""
    directory.mkdir(parents=True, exist_ok=True)
    log = directory / "lp-calls.jsonl"
    script = directory / "lp"
    script.write_text(_SCRIPT.format(python=sys.executable, log=str(log)))
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ.get('PATH', '')}")
    return FakeLp(log)


_LPSTAT = """#!{python}
import sys
default = {default!r}
if sys.argv[1:] != ["-d"]:
    sys.exit(1)
print("system default destination: " + default if default else "no system default destination")
"""


def install_fake_lpstat(
    directory: Path, monkeypatch: pytest.MonkeyPatch, default: str | None
) -> None:
    """Put an `lpstat` answering `-d` with ``default`` (None: no default) first on PATH."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "lpstat"
    script.write_text(_LPSTAT.format(python=sys.executable, default=default))
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    path = os.environ.get("PATH", "")
    if not path.startswith(str(directory)):
        monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{path}")
