"""The Batch screen at 80x24 follows another station booking the open batch: a line of each
station's counts, and the order's row booked with its PRO. On PostgreSQL at once (the store's
notification), on SQLite at the next read of the store (every 2 s)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from tests.ui.screen import screen_text, settle, wait_for
from tests.ui.test_batch import monday, open_file, rate, sandbox, session, two_orders
from tui.app import make_app
from tui.batch.store import SharedBatchStore
from tui.sandbox.app import SandboxApp
from tui.session import Session
from tui.store import open_store
from tui.widgets import batch_stations

__all__ = ["monday", "sandbox", "session"]  # the fixtures this module uses


async def test_another_stations_booking_shows_on_the_open_batch(
    session: Session,
    sandbox: SandboxApp,
    tmp_path: Path,
    store_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FREIGHT_STORE_URL", store_url)
    monkeypatch.setenv("FREIGHT_STATION", "office")
    if store_url:  # PostgreSQL: the screen reads the store only every minute, so only the
        monkeypatch.setattr(batch_stations, "POLL_S", 60.0)  # notification can show it
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, two_orders(tmp_path, "S"))
        await rate(pilot, screen)
        batch = screen.current_batch
        assert batch is not None
        assert "Stations:" not in screen_text(app)
        # Another station, with a connection of its own to the store, books S2: booked first
        # with its paperwork still to fetch, then with it saved.
        other = SharedBatchStore(open_store(session.data_dir, store_url), "pack-2", "pack2:1")
        booked = dataclasses.replace(
            batch.state("S2"),
            status="booked",
            reference="FR-S2",
            pro_number="PRO-77",
            paperwork_missing="the document host docs.test did not answer",
        )
        try:
            assert other.claim(batch.info.id, ["S2"]) == ["S2"]
            booked_at = time.monotonic()
            other.save(batch.info.id, [booked])

            def shown() -> bool:
                return "pack-2 1 booked" in screen_text(app) and "booked!" in screen_text(app)

            await wait_for(pilot, shown, seconds=10, what="the other station's line")
            took = time.monotonic() - booked_at
            assert took < (1.0 if store_url else batch_stations.POLL_S + 1.0)
            text = screen_text(app)
            line = next(line for line in text.splitlines() if "Stations:" in line)
            assert "pack-2 1 booked" in line  # (and this station's ratings: office 1 rated)
            assert batch.state("S2").pro_number == "PRO-77"
            assert any("S2" in line and "booked!" in line for line in text.splitlines())

            saved = dataclasses.replace(booked, paperwork_missing="", documents=("S2-bol.pdf",))
            other.save(batch.info.id, [saved])

            def complete() -> bool:
                text = screen_text(app)
                return "booked!" not in text and any(
                    "S2" in line and "booked" in line for line in text.splitlines()
                )

            await wait_for(pilot, complete, seconds=10, what="its paperwork saved")
            await settle(pilot)
        finally:
            other.close()
