"""In a real terminal (tmux, 80x24): keys typed while the quote screen starts land in the fields
they were meant for, though the grid's inputs are mounted after its first frame."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.keys_flow import APP, app_env, wait_until
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


def _row_1(screen: str) -> str:
    return next((line for line in screen.splitlines() if line.startswith("│ 1 ")), "")


@pytest.mark.parametrize("wait", [0.0, 0.2, 0.4], ids=["at-once", "0.2s", "0.4s"])
def test_keys_typed_during_the_start_land_in_the_grid(tmp_path: Path, wait: float) -> None:
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        # Before or around the first frame, in one send-keys call (a fast typist, a paste): the
        # destination ZIP, past its dock type and the mode, into row 1's Qty, Pkg, Lb/unit.
        time.sleep(wait)
        term.send("30303", "Tab", "Tab", "Tab", "4", "Tab", "crate", "Tab", "350")
        # Each field repaints in its own time (the screen is busy starting the sandbox): wait
        # for both ends of what was typed, then check where every key landed.
        screen = wait_until(
            term, lambda screen: "350" in _row_1(screen) and "To 30303" in screen, 10
        )
        assert _row_1(screen).split()[1:5] == ["1", "4", "crate", "350"], screen


@pytest.mark.parametrize("when", ["before", "at"], ids=["before-the-first-frame", "at-it"])
def test_keys_as_the_app_starts_on_a_fresh_data_dir_are_each_acted_on(
    tmp_path: Path, when: str
) -> None:
    """F4, `/` and a search typed before or as the first frame shows, on a fresh data dir
    (the demo's sandbox and its shipments still to be made, no store, no drafts): F4 goes to
    the list, the search gets its text, the list is searched for it; no key is lost."""
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path)) as term:
        if when == "at":
            term.wait_for("Items", timeout=30)
        term.send("F4", "/")
        term.type("Chicago")
        term.wait_for("Search Chicago", timeout=30)
        found = term.wait_for('· "Chicago"', timeout=60)  # the list searched for it
        assert "no shipment" not in found, found
