"""The Batch screen at 80x24 when booked orders owe their paperwork: shown as ``booked!`` with
the host that failed, and ``b`` fetches what is missing once the host is back."""

from __future__ import annotations

from pathlib import Path

from tests.ui.screen import screen_text, settle, wait_for
from tests.ui.test_batch import monday, open_file, rate, sandbox, session, two_orders
from tui.app import make_app
from tui.sandbox.app import SandboxApp
from tui.screens.batch_confirm import BatchConfirmScreen
from tui.session import Session

__all__ = ["monday", "sandbox", "session"]  # the fixtures this module uses


async def test_paperwork_missing_is_shown_and_b_fetches_it(
    session: Session, sandbox: SandboxApp, tmp_path: Path
) -> None:
    sandbox.document_url = "http://docs.down.test"  # links to a host that will not serve them
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, two_orders(tmp_path, "P"))
        await rate(pilot, screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen), what="confirm")
        await pilot.press("enter")

        def booked() -> bool:
            batch = screen.current_batch
            return (
                batch is not None and batch.counts() == {"booked": 2} and not screen.runs.is_booking
            )

        await wait_for(pilot, booked, seconds=60, what="booking to end")
        await settle(pilot)
        text = screen_text(app)
        assert "2 booked (2 paperwork missing)" in text
        assert text.count("booked!") == 2
        assert "paperwork missing for 2 (b tries again): the document host" in text
        await pilot.press("down")
        await settle(pilot)
        assert "booked, paperwork missing (b fetches it): the document host docs.down" in (
            screen_text(app)
        )

        sandbox.document_url = None  # the host is back
        await pilot.press("b")  # nothing to book: only paperwork, nothing asked

        def fetched() -> bool:
            batch = screen.current_batch
            assert batch is not None
            owed = any(batch.state(o.key).owes_paperwork for o in batch.orders)
            return not owed and not screen.runs.is_booking

        await wait_for(pilot, fetched, seconds=60, what="the paperwork fetched")
        await settle(pilot)
        text = screen_text(app)
        assert "paperwork missing" not in text
        assert "booked!" not in text
        assert "2 booked" in text
        batch = screen.current_batch
        assert batch is not None
        assert all(len(batch.state(o.key).documents) == 3 for o in batch.orders)
