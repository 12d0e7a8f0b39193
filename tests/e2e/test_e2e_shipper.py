"""End to end at 80x24: a hazmat, liftgate, appointment shipment quoted, booked and found."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.e2e.keys_flow import app_env
from tests.e2e.tmux import TmuxTerminal

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

DESCRIPTION = "Paint thinner"


def test_book_hazmat_liftgate_appointment_and_find_the_description(
    freight_command: list[str], tmp_path: Path
) -> None:
    with TmuxTerminal([*freight_command, "--demo"], env=app_env(tmp_path)) as term:
        term.wait_for("Items")
        term.wait_for("DEMO")
        term.type("30303")
        term.send("Tab", "Tab", "Tab")
        term.fill_row("1", "drum", "480", "24", "24", "36", "", DESCRIPTION)
        # The row's details: hazardous, UN number, class, packing group, emergency contact.
        term.send("C-o")
        term.wait_for("Row 1 details")
        term.type("144920")  # NMFC item
        term.wait_for("144920")
        term.send("Tab", "Tab")  # past Stackable to Hazardous material
        time.sleep(0.5)  # a person looks before ticking a box
        term.send("Space")
        term.wait_for("[x] Hazardous material")  # the box reads ticked (not only in colour)
        assert "[x] Stackable" in term.screen()  # (Space ticked the focused box alone)
        term.send("Tab")
        for value in ("UN1263", "3", "II", "Pat Doyle"):
            term.type(value)
            term.send("Tab")
        term.type("312-555-0142")
        term.send("Enter")  # the last field closes the dialog, kept
        term.wait_for("HM UN1263")  # the row's details line under the grid
        # Liftgate and an appointment at delivery.
        time.sleep(0.5)
        term.send("C-l")
        term.wait_for("Liftgate at delivery")
        term.send("l", "a", "Enter")
        extras = term.wait_for("Appt")
        assert re.search(r"Extras: .*Liftgate", extras), extras
        term.send("C-r")
        term.wait_for("sorted by total", timeout=40)
        term.wait_for("cheapest")
        term.send("Enter")
        term.wait_for("Schedule pickup")
        term.send("C-s")
        confirm = term.wait_for("UN1263", timeout=20)
        assert "liftgate" in confirm.lower(), confirm
        assert "appointment" in confirm.lower(), confirm
        term.send("Enter")
        term.wait_for("Pickup conf", timeout=30)
        time.sleep(1.0)  # the result ignores keys for a moment: they were meant for booking
        term.send("o")
        detail = term.wait_for(DESCRIPTION, timeout=20)
        assert "Tracking" in detail or "UN1263" in detail, detail
