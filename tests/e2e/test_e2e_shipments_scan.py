"""In a real terminal (tmux, 80x24): a scanner's fast keys open a shipment; `/` + text searches."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.e2e.keys_flow import ScanMissed, detail_loaded, wait_until, walk_until_scans_are_seen
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


def freight() -> list[str]:
    script = Path(sys.executable).with_name("freight")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


def test_scanned_pro_opens_the_shipment_and_slash_text_searches(tmp_path: Path) -> None:
    def start(attempt: int) -> TmuxTerminal:
        home = tmp_path / f"run{attempt}"
        env = {
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        }
        return TmuxTerminal([*freight(), "--demo"], env=env)

    walk_until_scans_are_seen(start, scan_then_search)


def scan_then_search(term: TmuxTerminal) -> None:
    """Scan the last PRO on the list: its shipment opens, and back on the list the search is
    still empty (ScanMissed when the code was typed into it). Then `/` + text searches."""
    term.wait_for("Items", timeout=30)
    term.send("F4")
    listing = term.wait_settled("loaded, more", timeout=30)
    pros = re.findall(r"[│┃][ ▸](\d{9,11})\s", listing)
    assert pros, listing
    pro = pros[-1]
    term.type(pro + "\r")  # code and Enter in one write, as fast as a scanner
    detail = wait_until(term, detail_loaded)
    assert pro in detail.splitlines()[1]
    term.send("Escape")
    wait_until(term, lambda screen: "loaded, more" in screen or f'· "{pro}"' in screen, 10)
    if f"Search {pro}" in term.screen():
        raise ScanMissed(f"the scan of {pro} was typed into the search")
    term.wait_for("loaded, more", timeout=10)
    term.send("/")
    term.type("Chicago")  # typed at once after the slash: must land in the field
    term.wait_for("Search Chicago")
    term.send("Enter")  # (with no pause, text + Enter this fast would be a scan)
    found = term.wait_for('· "Chicago"', timeout=20)
    assert "Search Chicago" in found
    assert "no shipment matches" not in found
