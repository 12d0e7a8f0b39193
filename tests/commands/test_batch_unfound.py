"""``freight batch settle FILE --unfound --not-booked``: every unknown order no search finds,
settled after one confirmation (not one command per order), on the live sandbox."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.commands.conftest import Runner
from tests.commands.test_batch import _command_env, configured, orders_file
from tui.sandbox.threaded import RunningSandbox

pytestmark = [pytest.mark.usefixtures(configured.__name__), pytest.mark.slow]


def _lose_every_booking(live_sandbox: RunningSandbox, env: dict[str, str], path: Path) -> None:
    """``batch book`` whose every booking is lost on the way (answered 503 once all came)."""
    app = live_sandbox.app
    app.lose_bookings = True
    book = [sys.executable, "-m", "tui", "batch", "book", str(path), "--concurrency", "3"]
    process = subprocess.Popen(
        book, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and app.bookings_lost < 3:  # the three are held
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
    app.lose_bookings = False
    assert process.wait(timeout=120) == 1
    assert app.bookings_lost == 3


def test_every_unknown_order_no_search_found_is_settled_at_once(
    freight: Runner,
    live_sandbox: RunningSandbox,
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = ["Order,Zip,Weight,Length,Width,Height,Unit Type"]
    lines += [f"U{n},30303,{400 + n},48,40,48,Pallet" for n in range(3)]
    path = orders_file(tmp_path, "\n".join(lines) + "\n", "orders.csv")
    assert freight("batch", "rate", str(path)).status == 0
    _lose_every_booking(live_sandbox, _command_env(live_sandbox, isolated_home), path)
    status = json.loads(freight("batch", "status", str(path), "--format", "json").out)
    assert [r["status"] for r in status] == ["unknown"] * 3
    lost = {r["bookingReference"] for r in status}

    usage = freight("batch", "settle", str(path), "U0", "--unfound", "--not-booked")
    assert usage.status == 2
    assert "an ORDER, or --unfound --not-booked without one" in usage.err
    import tui.commands.batch_settle

    monkeypatch.setattr(tui.commands.batch_settle, "stdin_is_terminal", lambda: True)
    declined = freight("batch", "settle", str(path), "--unfound", "--not-booked", stdin="no\n")
    assert declined.status == 1
    assert declined.err.count("Type yes to confirm") == 1
    assert "3 order(s) (U0, U1, U2): no search found" in declined.err
    said = freight("batch", "settle", str(path), "--unfound", "--not-booked", stdin="yes\n")
    assert said.status == 0, said.err
    assert said.err.count("Type yes to confirm") == 1  # one confirmation for all
    assert "3 order(s) settled: not booked" in said.err
    status = json.loads(freight("batch", "status", str(path), "--format", "json").out)
    assert [r["status"] for r in status] == ["rated"] * 3
    assert not lost & {r["bookingReference"] for r in status}  # new references

    booked = freight("batch", "book", str(path), "--format", "json")
    assert booked.status == 0, booked.err
    assert [r["status"] for r in json.loads(booked.out)] == ["booked"] * 3
    nothing = freight("batch", "settle", str(path), "--unfound", "--not-booked", "--yes")
    assert nothing.status == 0
    assert "nothing to settle" in nothing.err
