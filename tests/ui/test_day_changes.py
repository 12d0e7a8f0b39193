"""Pickups and cancels from the Day, on the sandbox: one row's, or every unconfirmed pickup of
the day at once; a canceled shipment leaves an open day and shows canceled on a closed one."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.screen import screen_text, settle, wait_for
from tests.ui.test_day import book as book_for_tuesday
from tests.ui.test_day import confirm, open_day, sandbox, session  # noqa: F401 (fixtures)
from tui.app import make_app
from tui.screens.day import DayScreen
from tui.screens.shipment_changes import CancelDialog, PickupDialog
from tui.session import Session

pytestmark = pytest.mark.slow  # each books or reads a sandbox of its own: ≥ 4 s


def line_of(text: str, pro: str) -> str:
    return next(line for line in text.splitlines() if pro in line)


async def two_on_the_day(pilot: Pilot[Any], user: Session) -> tuple[DayScreen, str, str]:
    """Two shipments booked for Tuesday, the Day open on them: the screen and their PROs."""
    peach = await book_for_tuesday(user, "30303", "Peach Retail")
    lone = await book_for_tuesday(user, "75207", "Lone Star DC")
    return await open_day(pilot), peach, lone


async def highlight(pilot: Pilot[Any], screen: DayScreen, pro: str) -> None:
    """Put the Day's cursor on the row of ``pro``."""
    table = screen.table
    index = next(
        i for i in range(table.row_count)
        if (row := table.row_at(i)).line is not None and row.line.booking.pro_number == pro
    )  # fmt: skip
    table.move_cursor(index)
    await settle(pilot)


async def test_a_shipment_canceled_from_a_closed_day_shows_canceled(
    session: Session,  # noqa: F811 (the Day's fixture)
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, peach, lone = await two_on_the_day(pilot, session)
        await confirm(pilot, "c")
        await wait_for(pilot, lambda: "closed" in screen_text(app), what="the close")
        await wait_for(pilot, lambda: screen.facts_state == "known" and not screen.reading)
        await highlight(pilot, screen, peach)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelDialog), what="the confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: "canceled." in screen_text(app), what="the cancel")
        await wait_for(
            pilot, lambda: "canceled" in line_of(screen_text(app), peach), what="the row"
        )
        assert "canceled" not in line_of(screen_text(app), lone)
        await pilot.press("x")  # the cursor is still on it
        assert " is canceled." in screen_text(app)


async def test_a_shipment_canceled_from_an_open_day_leaves_it(
    session: Session,  # noqa: F811 (the Day's fixture)
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, peach, lone = await two_on_the_day(pilot, session)
        await highlight(pilot, screen, peach)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, CancelDialog), what="the confirm")
        await pilot.press("y")
        await wait_for(pilot, lambda: peach not in screen_text(app), what="the row gone")
        assert lone in screen_text(app)
        assert "Pickups Tue 2026-11-24 · 1 shipment" in screen_text(app)


async def test_every_unconfirmed_pickup_of_the_day_is_asked_for_at_once(
    session: Session,  # noqa: F811 (the Day's fixture)
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, peach, lone = await two_on_the_day(pilot, session)
        assert "unconfirmed" in line_of(screen_text(app), peach)
        await pilot.press("U")
        await wait_for(pilot, lambda: isinstance(app.screen, PickupDialog), what="the dialog")
        assert "2 unconfirmed shipments" in screen_text(app)
        await pilot.press("enter")  # Tuesday, 08:00-16:00 as offered
        await wait_for(pilot, lambda: "2 of 2 changed" in screen_text(app), what="the changes")
        await wait_for(pilot, lambda: screen.facts_state == "known" and not screen.reading)
        await settle(pilot)
        text = screen_text(app)
        assert "unconfirmed" not in line_of(text, peach)
        assert "unconfirmed" not in line_of(text, lone)


async def test_a_row_s_pickup_moved_to_another_day_leaves_this_one(
    session: Session,  # noqa: F811 (the Day's fixture)
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, peach, lone = await two_on_the_day(pilot, session)
        await highlight(pilot, screen, lone)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, PickupDialog), what="the dialog")
        app.screen.query_one("#pickup-day", Input).value = "2026-11-25"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "pickup on 2026-11-25" in screen_text(app), what="moved")
        await wait_for(pilot, lambda: lone not in screen_text(app), what="the row gone")
        assert peach in screen_text(app)
