"""In a real terminal (tmux, 80x24): keys typed while the quote screen starts land in the fields
they were meant for, though the grid's inputs are mounted after its first frame."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.e2e.test_e2e_typeahead import _env
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


@pytest.mark.parametrize("wait", [0.0, 0.2, 0.4], ids=["at-once", "0.2s", "0.4s"])
def test_keys_typed_during_the_start_land_in_the_grid(tmp_path: Path, wait: float) -> None:
    with TmuxTerminal([sys.executable, "-m", "tui", "--demo"], env=_env(tmp_path)) as term:
        # Before or around the first frame, in one send-keys call (a fast typist, a paste): the
        # destination ZIP, past its dock type and the mode, into row 1's Qty, Pkg, Lb/unit.
        time.sleep(wait)
        term.send("30303", "Tab", "Tab", "Tab", "4", "Tab", "crate", "Tab", "350")
        deadline = time.monotonic() + 10
        row, screen = "", ""
        while "350" not in row and time.monotonic() < deadline:
            time.sleep(0.05)
            screen = term.screen()
            row = next((line for line in screen.splitlines() if line.startswith("│ 1 ")), "")
        assert row.split()[1:5] == ["1", "4", "crate", "350"], screen
        assert "To 30303" in screen, screen
