"""The quote's draft is written off the event loop, and the last one before the app exits."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.ui.screen import wait_for
from tests.ui.test_quote import OFFLINE, TOKEN, start, type_text
from tui.app import make_app
from tui.drafts import DraftStore
from tui.screens.quote import DRAFT_NAME
from tui.session import Session


async def test_the_draft_is_written_off_the_event_loop_and_the_last_before_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    save = DraftStore.save

    def noting_the_thread(store: DraftStore, name: str, data: dict[str, Any]) -> None:
        threads.append(threading.current_thread())
        save(store, name, data)

    monkeypatch.setattr(DraftStore, "save", noting_the_thread)
    session = Session.for_testing(OFFLINE, TOKEN, data_dir=tmp_path)

    def saved_zip() -> str | None:
        data = session.drafts.load(DRAFT_NAME)
        return None if data is None else str(data.get("dest_zip"))

    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await type_text(pilot, "3")
        await wait_for(pilot, lambda: saved_zip() == "3", what="the throttled save")
        loop_thread = threading.current_thread()
        await type_text(pilot, "0303")  # and the app exits at once: its unmount writes it
    assert saved_zip() == "30303"
    assert threads, "nothing was written"
    assert all(thread is not loop_thread for thread in threads), "a write ran on the loop"
