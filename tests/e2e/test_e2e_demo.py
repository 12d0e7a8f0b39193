"""End to end: the installed `freight --demo` in a real terminal (tmux) at 80x24."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.keys_flow import app_env, detail_loaded, wait_until
from tests.e2e.tmux import TmuxTerminal

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_quote_book_and_read_the_pro_off_the_screen(
    freight_command: list[str], tmp_path: Path
) -> None:
    with TmuxTerminal([*freight_command, "--demo"], env=app_env(tmp_path)) as term:
        term.wait_for("Items")
        term.wait_for("DEMO")
        term.type("30303")
        term.send("Tab", "Tab", "Tab")
        term.fill_row("2", "pallet", "800", "48", "40", "48", "", "Machine parts")
        term.wait_for("15.00")  # the density of the row, computed as it was typed
        term.send("C-r")
        term.wait_for("sorted by total", timeout=40)
        term.wait_for("cheapest")
        term.send("Enter")
        term.wait_for("Schedule pickup")
        term.send("C-s")
        confirm = term.wait_settled("Confirm booking")
        assert "DEMO · test booking" in confirm, confirm
        term.send("Enter")
        result = term.wait_for("Pickup conf", timeout=30)
        match = re.search(r"PRO\s+([0-9A-Z-]{7,})", result)
        assert match is not None, result
        pro = match.group(1)
        # The new shipment is in the sandbox: search for its PRO on the shipments screen.
        term.send("F4")
        term.wait_for("loaded")
        term.send("/")
        term.type(pro)
        term.send("Enter")
        detail = term.wait_for("Tracking", timeout=20)
        assert pro in detail


def test_filter_the_shipments_and_open_one(freight_command: list[str], tmp_path: Path) -> None:
    with TmuxTerminal([*freight_command, "--demo"], env=app_env(tmp_path)) as term:
        term.wait_for("Items")
        term.send("F4")
        term.wait_for("loaded", timeout=30)
        term.send("/")
        term.type("Chicago")
        term.send("Enter")
        listing = term.wait_for('· "Chicago"', timeout=20)
        listing = term.wait_for("all loaded", timeout=20)
        rows = [line for line in listing.splitlines() if re.search(r"\d\d-\d\d", line)]
        assert rows, listing
        assert all("Chicago" in row for row in rows), listing
        term.send("Enter")
        detail = wait_until(term, detail_loaded)  # with its lifecycle timeline
        assert "Chicago" in detail
