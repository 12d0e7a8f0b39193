"""Run ``freight`` commands in-process against the live sandbox on loopback."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from tui.cli import main
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.threaded import RunningSandbox


@dataclass
class Result:
    """What a command printed and its exit status."""

    status: int
    out: str
    err: str


class _Stdout(io.TextIOWrapper):
    """A stdout with a byte buffer, like the real one (the exports write UTF-8 bytes)."""


Runner = Callable[..., Result]


@pytest.fixture
def freight(live_sandbox: RunningSandbox, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runner]:
    """``freight(*args, stdin=..., token=...)``: the command on the live sandbox, captured."""

    def run(*args: str, stdin: str = "", token: str | None = DEMO_TOKEN) -> Result:
        monkeypatch.setenv("FREIGHT_BASE_URL", live_sandbox.base_url)
        if token is None:
            monkeypatch.delenv("FREIGHT_API_TOKEN", raising=False)
        else:
            monkeypatch.setenv("FREIGHT_API_TOKEN", token)
        raw = io.BytesIO()
        out = _Stdout(raw, encoding="utf-8", newline="")
        err = io.StringIO()
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            status = main(list(args))
        except SystemExit as exit_:
            status = int(exit_.code or 0)
        out.flush()
        return Result(status, raw.getvalue().decode("utf-8"), err.getvalue())

    yield run
    from tui import logsetup

    logsetup.remove()
    logging.getLogger().setLevel(logging.WARNING)
