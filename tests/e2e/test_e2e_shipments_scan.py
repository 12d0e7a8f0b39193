"""In a real terminal (tmux, 80x24): a scan (the scanner's prefix set) opens a shipment; `/` +
text searches."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.e2e.keys_flow import (
    app_env,
    detail_loaded,
    scan_with_prefix,
    wait_until,
    with_scanner_prefix,
)
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
    env = app_env(tmp_path)
    with_scanner_prefix(tmp_path)
    with TmuxTerminal([*freight(), "--demo"], env=env) as term:
        scan_then_search(term)


def scan_then_search(term: TmuxTerminal) -> None:
    """Scan the last PRO on the list: its shipment opens, and back on the list the search is
    still empty. Then `/` + text searches."""
    term.wait_for("Items", timeout=30)
    term.send("F4")
    listing = term.wait_settled("loaded, more", timeout=30)
    pros = re.findall(r"[│┃][ ▸](\d{9,11})\s", listing)
    assert pros, listing
    pro = pros[-1]
    scan_with_prefix(term, pro)
    detail = wait_until(term, detail_loaded)
    assert pro in detail.splitlines()[1]
    term.send("Escape")
    back = term.wait_for("loaded, more", timeout=10)
    assert "Search PRO, tracking, BOL" in back, back  # nothing of the scan in the search
    term.send("/")
    term.type("Chicago")  # typed at once after the slash: must land in the field
    term.wait_for("Search Chicago")
    term.send("Enter")
    found = term.wait_for('· "Chicago"', timeout=20)
    assert "Search Chicago" in found
    assert "no shipment matches" not in found
