"""The Day's messages at 80x24 with long names: the manifests written, the paperwork printed
(to printers with long names) and the close each fit the status line whole — what was done
and its counts kept, the printer names and folders shortened — and a message that cannot fit
comes whole as a notice too."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widgets import Input

from tests.fake_lp import install_fake_lp
from tests.ui.screen import Notices, screen_text, settle, wait_for
from tests.ui.test_day import NOON_MONDAY, TUESDAY, book, confirm, open_day
from tui.app import make_app
from tui.config.settings import AppConfig, PrinterSettings
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import day as day_screen
from tui.screens.day import DayScreen
from tui.screens.day_dialogs import ManifestsDialog
from tui.session import Session

OFFICE = "Warehouse-2nd-floor-HP-LaserJet-Enterprise-M507-duplex"
ZEBRA = "Zebra-ZT410-shipping-dock-door-7-left-side"

pytestmark = pytest.mark.slow  # a booking on the sandbox, then the screen: 5-15 s


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


@pytest.fixture
def session(sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setattr(day_screen, "today", lambda: TUESDAY)
    monkeypatch.setenv("FREIGHT_STATION", "receiving-and-shipping-desk-by-the-north-door")
    printers = PrinterSettings(document_printer=OFFICE, label_printer=ZEBRA)
    return Session.for_testing(
        "http://sandbox.test",
        DEMO_TOKEN,
        transport=httpx.ASGITransport(app=sandbox),
        config=AppConfig(printers=printers),
    )


def status(screen: DayScreen) -> str:
    return str(screen.query_one("#day-status").render())


async def said(pilot: Pilot[Any], screen: DayScreen, start: str) -> str:
    """The status line once it starts with ``start``, checked to fit the screen."""
    await wait_for(pilot, lambda: status(screen).startswith(start), seconds=30, what=start)
    line = status(screen)
    assert cell_len(line) <= 78  # 80 columns less the status line's padding
    assert line in screen_text(screen.app)  # whole on the screen, on one line
    return line


async def test_print_and_close_messages_fit_80_columns_and_say_what_was_done(
    session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    app = make_app(session)
    notices = Notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await book(session, "30303", "Peach Retail")
        await book(session, "75207", "Lone Star DC")
        screen = await open_day(pilot)

        folder = tmp_path / "a-long-way-down-to-the-folder-of" / "the-day-s-manifests"
        folder.mkdir(parents=True)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ManifestsDialog), what="dialog")
        app.screen.query_one("#manifests-folder", Input).value = str(folder)
        await pilot.press("enter")
        line = await said(pilot, screen, "Wrote")
        carriers = len(screen.shown.carriers) if screen.shown else 0
        assert line.startswith(f"Wrote {carriers} manifest")
        assert f"({2 * carriers} files: CSV and PDF) to " in line
        assert "…" in line  # the folder, shortened in its middle
        assert line.endswith("/the-day-s-manifests")

        await confirm(pilot, "p")
        await wait_for(pilot, lambda: len(lp.calls()) == 2, seconds=30, what="two print jobs")
        line = await said(pilot, screen, "Printed")
        assert line.startswith("Printed 2 BOLs to Warehouse")
        assert ", 2 label files to Zebra-ZT" in line
        await wait_for(pilot, lambda: bool(notices.said), what="the whole message")
        whole = notices.said[-1][1]
        assert f"Printed 2 BOLs to {OFFICE}, 2 label files to {ZEBRA}; files in " in whole
        assert whole.endswith("day-2026-11-24")

        await confirm(pilot, "c")
        line = await said(pilot, screen, "Closed")
        manifests = f"{carriers} manifest{'s' * (carriers != 1)}"
        assert line == f"Closed Tue Nov 24: 2 shipments; {manifests}; printed 2 BOLs, 2 label files"
        await wait_for(pilot, lambda: screen.facts_state == "known", what="read again")
        await settle(pilot)
        assert await said(pilot, screen, "Closed Tue Nov 24: 2 shipments; ")
