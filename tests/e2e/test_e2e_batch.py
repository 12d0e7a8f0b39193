"""The whole batch by keyboard in a real terminal at 80x24 (tmux): alt+4 as ESC 4, a path
completed with Tab, the columns reviewed, every order rated and booked on the demo sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.conftest import WMS_EXPORT
from tests.e2e.keys_flow import APP, app_env, wait_for_demo, wait_until
from tests.e2e.tmux import TmuxTerminal

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_a_warehouse_export_rated_and_booked_by_keyboard(tmp_path: Path) -> None:
    folder = tmp_path / "orders"
    folder.mkdir()
    (folder / "wms-export.csv").write_bytes(WMS_EXPORT.read_bytes())
    (folder / "notes.txt").write_text("not orders", encoding="utf-8")
    with TmuxTerminal([*APP, "--demo"], env=app_env(tmp_path), cwd=tmp_path) as term:
        wait_for_demo(term)
        term.type("\x1b4")  # alt+4 as tmux, screen and xterm send it
        term.wait_for("no orders yet")
        term.type("orders/w")
        term.wait_for("orders/wms-export.csv")  # the suggestion, shown as typed on
        term.send("Tab")
        term.send("Enter")
        term.wait_for("Columns of wms-export.csv", timeout=30)
        term.wait_for("Ship From Zip")
        term.send("C-s")
        term.wait_for("120 orders · 113 pending · 7 invalid", timeout=60)
        term.send("r")
        term.wait_for("120 orders · 113 rated · 7 invalid", timeout=120)
        screen = term.wait_for("total ")
        assert "USD" in screen
        term.send("b")
        term.wait_for("Book 113 orders for")
        term.send("Enter")
        screen = term.wait_for("120 orders · 113 booked · 7 invalid", timeout=180)
        assert "\x1b" not in screen
        screen = wait_until(term, lambda s: "Booked 113 of 113" in s, 30)
    folder_of_paperwork = tmp_path / "data" / "freight-tui" / "documents" / "batch-wms-export"
    names = sorted(p.name for p in folder_of_paperwork.iterdir())
    assert names
    assert all(name.startswith("SO-") for name in names)
