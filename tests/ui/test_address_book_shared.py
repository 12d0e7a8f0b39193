"""The address book is the store's: on both engines, an address another station (a process of
its own) saved is offered by the Book and Quote screens, and one saved with ctrl+t on the Book
screen is seen by another station."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.booking_flow import choose_rate, ltl_request, open_rates
from tests.ui.screen import screen_text, settle
from tui.app import make_app
from tui.screens.book import BookScreen
from tui.session import Session

ROOT = Path(__file__).resolve().parents[2]


def other_station(url: str, data_dir: Path, *args: str) -> str:
    """``tests.store.named_station`` run as its own process; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.store.named_station", url, str(data_dir), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


async def test_an_address_saved_at_one_station_is_offered_at_another(
    ui_session: Session, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FREIGHT_STORE_URL", store_url)
    # SQLite is one machine's store (the data dir's); PostgreSQL stations have their own dirs.
    elsewhere = ui_session.data_dir if not store_url else tmp_path / "pack2"
    other_station(store_url, elsewhere, "save", "Trinity Cold Storage", "75207")
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request(dest="75207"))
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        book.dest.input("company").focus()
        await pilot.press("f5")
        await settle(pilot)
        assert "● Trinity Cold Storage" in screen_text(app)  # at the destination ZIP
        await pilot.press("escape")
        await pilot.pause()
        book.dest.input("company").value = "Lone Star Annex"
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert "Saved Lone Star Annex (75207) to the address book." in screen_text(app)
    seen = other_station(store_url, elsewhere, "book").splitlines()
    assert any(line.startswith("Lone Star Annex|75207|") for line in seen)
    assert any(line.startswith("Trinity Cold Storage|75207|") for line in seen)


async def test_the_quote_screen_offers_what_another_station_saved(
    ui_session: Session, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FREIGHT_STORE_URL", store_url)
    elsewhere = ui_session.data_dir if not store_url else tmp_path / "pack2"
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        other_station(store_url, elsewhere, "save", "Trinity Cold Storage", "75207")
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert "Trinity Cold Storage" in screen_text(app)  # read when opened, not at start
