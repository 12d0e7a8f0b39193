"""The Batch screen at 80x24 says what a user needs whole: the rule in force after a change,
the folder the paperwork went to, each order's service, the one status vocabulary, and a
ship date many carriers close on."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import httpx
import pytest

from tests.batch.conftest import WMS_EXPORT
from tests.ui.screen import screen_text, settle, wait_for
from tests.ui.test_batch import NOON_MONDAY, open_file, rate, two_orders
from tui.app import make_app
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens import batch as batch_screen
from tui.session import Session


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


@pytest.fixture
def session(sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch) -> Session:
    """The batch judges ship dates on the sandbox's Monday, whatever today is."""
    monkeypatch.setattr(batch_screen, "now", lambda: NOON_MONDAY)
    return Session.for_testing(
        "http://sandbox.test", DEMO_TOKEN, transport=httpx.ASGITransport(app=sandbox)
    )


async def test_the_rule_in_force_and_each_orders_service_are_in_view(
    session: Session, tmp_path: Path
) -> None:
    from tui.screens.batch_rules import BatchRulesScreen

    wms = tmp_path / "orders" / "wms-export.csv"
    wms.parent.mkdir()
    wms.write_bytes(WMS_EXPORT.read_bytes())
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, wms)
        await rate(pilot, screen)
        lines = screen_text(app).splitlines()
        bottom = next(line for line in lines if "total " in line)
        assert "by cheapest · total " in bottom
        header = next(line for line in lines if "Order" in line and "Status" in line)
        assert "Service" in header
        batch = screen.current_batch
        assert batch is not None
        for key in ("SO-104200", "SO-104201"):
            choice = batch.state(key).choice
            assert choice is not None
            assert choice.service
            row = next(line for line in lines if f"{key} rated" in line)
            assert choice.service[:6] in row, row
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchRulesScreen))
        await pilot.press("ctrl+u", *"cheapest-within-3", "enter", *"BCXP", "enter")
        await pilot.press("enter", "enter")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the review")
        assert batch.rules.kind == "within"
        bottom = next(line for line in screen_text(app).splitlines() if "total " in line)
        [(currency, total)] = batch.totals().items()
        assert f"by cheapest within 3 days, prefer BCXP · total {total:,.2f} {currency}" in bottom
        assert "cheapest" not in screen_text(app).splitlines()[2]  # the file's line: no rule


async def test_the_paperwork_folder_is_in_view_after_booking(
    session: Session, tmp_path: Path
) -> None:
    from tui.screens.batch_confirm import BatchConfirmScreen

    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, two_orders(tmp_path, "P"))
        await rate(pilot, screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen), what="confirm")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not screen.runs.is_booking, seconds=60, what="booking to end")
        await wait_for(pilot, lambda: "paperwork in" in screen_text(app), what="the folder")
        [line] = [line for line in screen_text(app).splitlines() if "paperwork in" in line]
        assert line.strip().startswith("Booked 2 of 2 · paperwork in ")
        # the folder's own name whole, then the hint: nothing cut at the line's end
        assert line.rstrip().endswith("/batch-two · p prints it"), line
        assert len(line.rstrip()) <= 80
        # an order whose booking was sent with no answer yet reads `unknown`, as in the table
        from tui.screens.batch_order import BatchOrderScreen

        batch = screen.current_batch
        assert batch is not None
        sent = dataclasses.replace(batch.state("P1"), status="booking")
        await app.push_screen(BatchOrderScreen(batch.order("P1"), sent, bookable=False))
        await settle(pilot)
        text = screen_text(app)
        assert "Order P1 · unknown" in text
        assert "booking" not in text.split("Order P1", 1)[1].splitlines()[0]


async def test_a_ship_date_on_christmas_eve_is_kept_with_a_warning(
    session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "eve.csv"
    path.write_text(
        "Order,Ship Date,Zip,Weight,Length,Width,Height,Unit Type\n"
        "E0,12/23/2026,30303,800,48,40,48,Pallet\n"
        "E1,12/24/2026,30303,800,48,40,48,Pallet\n",
        encoding="utf-8",
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        screen.table.focus()
        screen.table.move_cursor_to_key("E1")
        await settle(pilot)
        text = screen_text(app)
        assert "pickup 2026-12-24 is Christmas Eve: many carriers close" in text
        batch = screen.current_batch
        assert batch is not None
        order = batch.order("E1")
        assert order is not None
        assert order.pickup_date == date(2026, 12, 24)  # kept: not a holiday


def test_a_long_rule_is_cut_and_the_totals_stay_whole() -> None:
    from tui.widgets.batch_review import subtitle_text

    rule = "cheapest within 3 days, prefer BCXP, LKIF, exclude HGFL, max 1,500.00 USD"
    text = subtitle_text(rule, "total 74,980.77 USD · 1,204.10 CAD", 74)
    assert len(text) == 74
    assert text.startswith("by cheapest within 3 days, prefer B")
    assert text.endswith("… · total 74,980.77 USD · 1,204.10 CAD")
    assert subtitle_text("fastest", "", 74) == "by fastest"


def test_a_booking_sent_unanswered_is_unknown_in_every_word_the_app_shows() -> None:
    """The store keeps `booking` for a booking sent with no answer yet; the user reads the
    table's word for it, `unknown`, in the unfinished batch's notice as in the table."""
    from datetime import UTC, datetime

    from tui.batch.store import BatchInfo
    from tui.batch.view import unfinished_text

    info = BatchInfo(
        id=1,
        profile="demo",
        source="/orders/wms-export.csv",
        created=datetime(2026, 11, 23, 16, 0, tzinfo=UTC),
        updated=datetime(2026, 11, 23, 17, 0, tzinfo=UTC),
        counts={"rated": 110, "booking": 2, "unknown": 1, "invalid": 7},
    )
    assert unfinished_text(info) == "wms-export.csv: 7 invalid, 110 rated, 3 unknown"


async def test_the_first_enter_on_an_order_parses_no_css(
    session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The order screen's CSS is parsed once the review is shown, not by the first Enter (at
    100,000 orders that first mount was the one review key over 100 ms)."""
    from textual.css.stylesheet import Stylesheet

    from tui.screens.batch_order import BatchOrderScreen

    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, two_orders(tmp_path, "C"))
        sources = app.stylesheet.source
        await wait_for(
            pilot,
            lambda: any(name == "BatchOrderScreen.DEFAULT_CSS" for _file, name in sources),
            what="the order screen's CSS read ahead",
        )
        await settle(pilot)
        parses: list[Stylesheet] = []
        parse = Stylesheet.parse

        def counted(stylesheet: Stylesheet) -> None:
            parses.append(stylesheet)
            parse(stylesheet)

        monkeypatch.setattr(Stylesheet, "parse", counted)
        screen.table.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchOrderScreen), what="the order")
        await settle(pilot)
        assert "Order C1" in screen_text(app)
        assert not parses, "the first Enter parsed CSS"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="back to the review")
