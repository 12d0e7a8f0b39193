"""Issue 37, item 3 on the Batch screen: an order set aside because its lines look hazardous
says so in its row; `h` on it asks (naming the order and the words), and once the user says
it is not hazardous it is read again as such, rated, and not asked again when the same file
is opened again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.screen import screen_text, wait_for
from tests.ui.test_batch import monday, open_file, rate, sandbox, session  # noqa: F401
from tui.app import make_app
from tui.screens.batch import BatchScreen
from tui.screens.batch_hazard import BatchHazardConfirm
from tui.session import Session

pytestmark = pytest.mark.slow  # a batch by keyboard on the sandbox, opened twice

ORDERS = (
    "Order,Zip,Weight,Length,Width,Height,Unit Type,Description\n"
    "H1,30303,40,12,12,14,Pail,Corrosive cleaner\n"
    "H2,75207,500,48,40,48,Crate,Oak tables\n"
)


def _status(screen: BatchScreen, key: str) -> str:
    batch = screen.current_batch
    assert batch is not None
    return batch.state(key).status


async def test_h_says_an_order_that_looks_hazardous_is_not(
    session: Session,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = tmp_path / "shop.csv"
    path.write_text(ORDERS, encoding="utf-8")
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        assert _status(screen, "H1") == "invalid"
        row = next(line for line in screen_text(app).splitlines() if "H1 " in line)
        assert "HZ?" in row  # looks hazardous, and the user's word is wanted
        screen.table.move_cursor_to_key("H2")
        await pilot.press("h")  # nothing looks hazardous in H2: nothing to ask
        assert not isinstance(app.screen, BatchHazardConfirm)
        assert "Nothing looks hazardous in this order" in screen_text(app)
        screen.table.move_cursor_to_key("H1")
        await wait_for(
            pilot,
            lambda: "looks hazardous (corrosive), row 2 · h if it is not" in screen_text(app),
            what="the reason under the table",
        )
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchHazardConfirm), what="ask")
        asked = " ".join(screen_text(app).split())
        assert "Order H1 looks hazardous (corrosive: row 2)" in asked
        await pilot.press("n")  # left as it is
        await wait_for(pilot, lambda: app.screen is screen, what="back")
        assert _status(screen, "H1") == "invalid"
        first = screen.current_batch
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchHazardConfirm), what="ask")
        await pilot.press("y")
        await wait_for(pilot, lambda: screen.current_batch is not first, what="read again")
        assert _status(screen, "H1") == "pending"
        assert "H1: not hazardous, as you said. r rates it" in screen_text(app)
        await rate(pilot, screen)
        assert _status(screen, "H1") == "rated"
        assert screen.current_batch is not None
        assert screen.current_batch.order("H1").flags.hazmat is False  # type: ignore[union-attr]
    path.write_text(ORDERS, encoding="utf-8")  # the same file, opened again
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path, review=False)
        assert _status(screen, "H1") == "rated"  # not asked again
        screen.table.move_cursor_to_key("H1")
        await pilot.press("h")
        assert not isinstance(app.screen, BatchHazardConfirm)
        assert "is read as not hazardous already" in screen_text(app)
