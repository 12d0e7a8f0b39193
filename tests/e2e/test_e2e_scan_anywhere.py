"""In a real terminal (tmux): a scan (the scanner's prefix set: GS, the code, Enter) opens the
shipment from the list, the filters' drop-downs, the search field and a detail; a date typed
as fast, with no prefix, is the date.

Codes are read off the list: PROs (digits), truckload load numbers (`TG…`, `RG…`) and parcel
shipment ids (`shp_…`, whose `s` sorts the list when typed by hand). After each scan the
detail is open, and back on the list no filter, field or sort has changed.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.e2e.keys_flow import (
    APP,
    app_env,
    detail_loaded,
    field,
    list_focused,
    press_escape,
    scan_with_prefix,
    wait_for_demo,
    wait_until,
    with_scanner_prefix,
)
from tests.e2e.tmux import TmuxTerminal, tmux_available

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(not tmux_available(), reason="tmux is not installed"),
]


def codes(listing: str) -> dict[str, list[str]]:
    """The list's first column, by kind of code."""
    found = re.findall(r"[│┃][ ▸](\S+)\s+\d\d-\d\d ", listing)
    return {
        "pro": [code for code in found if code.isdigit()],
        "load": [code for code in found if code[:2] in ("TG", "RG")],
        "id": [code for code in found if code.startswith("shp_")],
    }


def scan(term: TmuxTerminal, code: str) -> str:
    """The scanner's prefix, the code and Enter; the detail it opens."""
    scan_with_prefix(term, code)
    detail = wait_until(term, lambda screen: code in screen.splitlines()[1], 20)
    wait_until(term, detail_loaded)
    return detail


def back_to_list(term: TmuxTerminal) -> str:
    term.send("Escape")
    screen = term.wait_for("newest first", timeout=10)  # the sort is as it was
    assert field(screen, "Status") == "any", screen
    assert field(screen, "Mode") == "any", screen
    assert "Search PRO, tracking, BOL" in screen, screen  # still the placeholder
    assert "from YYYY-MM-DD   to YYYY-MM-DD" in screen, screen
    time.sleep(0.3)  # (Esc with a key right behind it would be alt+key)
    press_escape(term, list_focused)  # from the field focused before to the list
    time.sleep(0.3)  # (when the list had focus already, nothing shows the Esc was read)
    return screen


def test_a_scan_opens_the_shipment_from_every_focus_position(tmp_path: Path) -> None:
    env = app_env(tmp_path)
    with_scanner_prefix(tmp_path)
    with TmuxTerminal([*APP, "--demo"], env=env) as term:
        walk_every_focus_position(term)


def walk_every_focus_position(term: TmuxTerminal) -> None:
    """From the filters, the search, the list and a detail, scan and come back unchanged."""
    wait_for_demo(term)
    term.send("F4")
    # The whole first page drawn (a capture can catch the table half painted).
    listing = wait_until(
        term, lambda screen: "loaded, more" in screen and len(codes(screen)["id"]) >= 2, 30
    )
    found = codes(listing)
    assert found["pro"], listing
    assert found["load"], listing
    assert len(found["id"]) >= 2, listing
    pro, load, first_id, second_id = (
        found["pro"][-1],
        found["load"][0],
        found["id"][0],
        found["id"][1],
    )

    # Keys are handled one at a time, in order: the scan is read where the key before it
    # moved the focus.
    term.send("f")  # the status filter
    scan(term, pro)
    back_to_list(term)

    term.send("f", "Tab")  # the mode filter
    scan(term, first_id)
    back_to_list(term)

    # A date and Enter at a scanner's speed (an SSH stall) with no prefix is the date
    # typed, the list filtered by it, no shipment opened.
    term.send("f", "Tab", "Tab", "Tab", "Tab")
    term.type("2026-01-02\r")
    screen = wait_until(term, lambda screen: "2026-01-02" in screen)
    assert field(screen, "from") == "2026-01-02", screen
    assert "Tracking" not in screen, screen
    term.send("C-u")
    wait_until(term, lambda screen: "from YYYY-MM-DD" in screen)
    press_escape(term, list_focused)
    scan(term, load)  # the load number, from the list
    back_to_list(term)

    term.send("/")  # the search field
    scan(term, second_id)
    back_to_list(term)

    scan(term, first_id)  # the list itself
    # From the detail: the next scan opens the next shipment.
    scan(term, pro)
    back_to_list(term)
