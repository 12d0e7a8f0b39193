"""The Reports screen: the sums of the bookings in the store, per currency, as bars and as a
table; the views, the periods, and bars that read at 16 colours."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from rich.color import ColorSystem
from textual.binding import Binding
from textual.command import CommandPalette
from textual.widgets import Sparkline

import tui.screens.reports
from tests.reports.fill import Booked, cancel, fill
from tests.ui.contrast import DARK, LIGHT, cell_colours, ratio, screen_lines
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import FreightApp, make_app
from tui.domain.money import format_money
from tui.screens.reports import ReportsScreen
from tui.session import Session
from tui.store import ledger_environment, open_store

TODAY = date(2026, 11, 28)
NOV = datetime(2026, 11, 3, 15, tzinfo=UTC)  # a Tuesday of 2026-W45
NOV_LATER = datetime(2026, 11, 17, 9, tzinfo=UTC)  # 2026-W47
OCT = datetime(2026, 10, 14, 12, tzinfo=UTC)

BOOKED = [
    Booked("FRT1", "Harrowgate Freight Lines", "1200.10", "USD", 2000, NOV, [("1300.10", "USD")],
           pickup="2026-11-04", delivered="2026-11-06"),
    Booked("FRT2", "Harrowgate Freight Lines", "799.95", "USD", 1000, NOV_LATER,
           pickup="2026-11-18", delivered="2026-11-24"),
    Booked("FRT3", "Bluecrest Express", "450.00", "USD", 500, NOV_LATER, lane=("60601", "75201"),
           pickup="2026-11-18", delivered="2026-11-20"),
    Booked("FRT4", "Bluecrest Express", "333.33", "CAD", 800, NOV, lane=("60601", "M5V 2T6")),
    Booked("FRT5", "Magnolia Gulf Carriers", "99.99", "USD", 100, OCT),
]  # fmt: skip
"""November: Harrowgate 2,000.05 USD (2), Bluecrest 450.00 USD and 333.33 CAD; October:
Magnolia 99.99 USD."""


@pytest.fixture
def filled(ui_session: Session, monkeypatch: pytest.MonkeyPatch) -> Session:
    """The session, its store holding `BOOKED`, today the 28th of November 2026."""
    store = open_store(ui_session.data_dir, "")
    try:
        fill(store, BOOKED, ledger_environment(ui_session.profile_name, ui_session.environment))
    finally:
        store.close()
    monkeypatch.setattr(tui.screens.reports, "today", lambda: TODAY)
    return ui_session


@pytest.fixture
def reports_app(filled: Session) -> FreightApp:
    return make_app(filled)


async def open_reports(pilot: object, app: FreightApp) -> ReportsScreen:
    await pilot.press("alt+6")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
    screen = app.screen
    assert isinstance(screen, ReportsScreen)
    await wait_for(pilot, lambda: screen.wanted in screen.reads, what="the store's answer")
    await settle(pilot)  # type: ignore[arg-type]
    return screen


def line_of(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if name in line)


async def test_the_month_shows_each_carriers_sum_one_currency_at_a_time(
    reports_app: FreightApp,
) -> None:
    app = reports_app
    async with app.run_test(size=(80, 24)) as pilot:
        await open_reports(pilot, app)
        text = screen_text(app)
        assert "November 2026" in text
        assert "USD 2,450.05 · 3 shipments · c: CAD" in text  # CAD is not added in
        assert "2,000.05 (2)" in line_of(text, "Harrowgate Freight Lines")
        assert "450.00 (1)" in line_of(text, "Bluecrest Express")
        assert "Magnolia" not in text  # booked in October
        assert "2,783.38" not in text  # USD + CAD: never summed
        harrowgate = line_of(text, "Harrowgate").count("█")
        bluecrest = line_of(text, "Bluecrest").count("█")
        assert harrowgate > 3 * bluecrest > 0  # 2,000.05 against 450.00
        await pilot.press("c")
        await settle(pilot)
        text = screen_text(app)
        assert "CAD 333.33 · 1 shipment · c: USD" in text
        assert "333.33 CAD (1)" in line_of(text, "Bluecrest Express")
        assert "Harrowgate" not in text
        await pilot.press("c")
        await settle(pilot)
        assert "USD 2,450.05" in screen_text(app)


async def test_canceled_shipments_show_apart_from_the_spend(filled: Session) -> None:
    store = open_store(filled.data_dir, "")
    try:
        cancel(store, ["FRT2"], ledger_environment(filled.profile_name, filled.environment))
    finally:
        store.close()
    app = make_app(filled)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_reports(pilot, app)
        text = screen_text(app)
        assert "USD 1,650.10 · 2 shipments · c: CAD" in text  # 799.95 left out
        assert "1,200.10 (1)" in line_of(text, "Harrowgate Freight Lines")
        assert "Canceled: 1 shipment, USD 799.95 not billed (left out of the spend)" in text
        await pilot.press("c")  # no CAD shipment was canceled: no line
        await settle(pilot)
        assert "Canceled" not in screen_text(app)
        await pilot.press("c", "3")
        await wait_for(pilot, lambda: "Canceled: 1 shipment" in screen_text(app))
        await pilot.press("4")  # the scorecard counts no money
        await settle(pilot)
        assert "Canceled" not in screen_text(app)


async def test_new_years_morning_at_utc14_still_shows_the_utc_month(ui_session: Session) -> None:
    # at Kiritimati (UTC+14) 00:30 on 1 January is 10:30 on 31 December in UTC: the periods are
    # UTC days, so a booking sent now is December's, and December is the month shown
    moment = datetime(2027, 1, 1, 0, 30, tzinfo=ZoneInfo("Pacific/Kiritimati"))
    store = open_store(ui_session.data_dir, "")
    try:
        nine = Booked("FRT9", "Bluecrest Express", "450.00", "USD", 500, moment)
        fill(store, [nine], ledger_environment(ui_session.profile_name, ui_session.environment))
    finally:
        store.close()
    app = make_app(ui_session)
    with time_machine.travel(moment, tick=True):
        async with app.run_test(size=(80, 24)) as pilot:
            await open_reports(pilot, app)
            text = screen_text(app)
    assert "December 2026" in text
    assert "450.00 (1)" in line_of(text, "Bluecrest Express")


async def test_the_numbers_are_one_key_away(reports_app: FreightApp) -> None:
    app = reports_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_reports(pilot, app)
        await pilot.press("t")
        await settle(pilot)
        assert screen.spend_table.display
        assert not screen.query_one("#reports-scroll").display
        text = screen_text(app)
        header = line_of(text, "Carrier")
        assert header.split() == ["Carrier", "Ships", "Pounds", "Total", "Per", "cwt", "Saved"]
        harrowgate = line_of(text, "Harrowgate Freight Lines").split()
        # 3,000 lb; 2,000.05 / 30 cwt = 66.67; saved 100.00 on the first, nothing on the second
        assert harrowgate[-5:] == ["2", "3,000", "2,000.05", "66.67", "100.00"]
        assert line_of(text, "Bluecrest Express").split()[-5:] == [
            "1", "500", "450.00", "90.00", "0.00",
        ]  # fmt: skip
        assert app.focused is screen.spend_table
        await pilot.press("t")
        await settle(pilot)
        assert not screen.spend_table.display
        assert "2,000.05 (2)" in line_of(screen_text(app), "Harrowgate")


async def test_views_weeks_lanes_and_the_scorecard(reports_app: FreightApp) -> None:
    app = reports_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_reports(pilot, app)
        await pilot.press("2")
        await wait_for(pilot, lambda: screen.wanted in screen.reads)
        await settle(pilot)
        text = screen_text(app)
        assert "[2 By lane]" in text
        assert "2,000.05 (2)" in line_of(text, "60601 > 30301")
        assert "450.00 (1)" in line_of(text, "60601 > 75201")
        await pilot.press("3")
        await wait_for(pilot, lambda: screen.wanted in screen.reads)
        await settle(pilot)
        spark = screen.query_one("#reports-spark", Sparkline)
        assert spark.display
        # November to today, the 28th: W44 (Sunday the 1st) to W48 (no weeks to come)
        assert list(spark.data or []) == [0.0, 1200.10, 0.0, 1249.95, 0.0]
        text = screen_text(app)
        assert "2026-W44" in text
        assert "2026-W49" not in text
        assert "1,249.95 (2)" in line_of(text, "2026-W47")
        await pilot.press("4")
        await wait_for(pilot, lambda: screen.wanted in screen.reads)
        await settle(pilot)
        text = screen_text(app)
        assert "4 shipments booked, 3 delivered" in text
        harrowgate = line_of(text, "Harrowgate")
        # 2 of 4 bookings; delivered in 2 and 4 business days against 3 quoted: one on time
        assert re.search(r"\b2 █+\s+50%\s+on time\s+50%\s+3\.0→3\.0d", harrowgate), harrowgate
        bluecrest = line_of(text, "Bluecrest")
        assert re.search(r"50%\s+on time 100%\s+3\.0→2\.0d", bluecrest), bluecrest
        await pilot.press("v")  # the audit, the last view
        await settle(pilot)
        assert tui.screens.reports.TITLES[screen.view] == "Audit"  # (a str: mypy narrows ==)
        await pilot.press("v")  # from the last view back to the first
        await settle(pilot)
        assert screen.view == "carrier"


async def test_the_period_moves_and_changes_length(reports_app: FreightApp) -> None:
    app = reports_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_reports(pilot, app)
        await pilot.press("left")
        await wait_for(pilot, lambda: screen.wanted in screen.reads)
        await settle(pilot)
        text = screen_text(app)
        assert (
            line_of(text, "October 2026")
            .rstrip()
            .endswith("October 2026 ▸ · USD 99.99 · 1 shipment")
        )
        assert "Magnolia Gulf Carriers" in text
        assert "Harrowgate" not in text
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "November 2026 ▸ · USD 2,450.05" in screen_text(app)
        await pilot.press("p")  # 30 days to today: 30 Oct – 28 Nov
        await wait_for(pilot, lambda: screen.wanted in screen.reads)
        await settle(pilot)
        assert "30 Oct – 28 Nov 2026 ▸ · USD 2,450.05" in screen_text(app)
        await pilot.press("p", "p")  # a quarter, then the year: October comes in
        await wait_for(pilot, lambda: screen.wanted in screen.reads)
        await settle(pilot)
        text = screen_text(app)
        total = format_money(Decimal("2450.05") + Decimal("99.99"))
        assert f"2026 ▸ · USD {total} · 4 shipments · c: CAD" in text
        assert "99.99 (1)" in line_of(text, "Magnolia")


async def test_bars_read_at_16_colours(filled: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", "vt100")
    app = make_app(filled)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_reports(pilot, app)
        assert app.console.color_system == "standard"
        lines = screen_lines(app)
        bar_cells = [
            segment.style
            for line in lines
            for segment in line
            if segment.text.strip() and set(segment.text.strip()) <= set("█▏▎▍▌▋▊▉")
        ]
        assert len(bar_cells) >= 2  # one bar per carrier, told apart by length, not colour
        for style in bar_cells:
            for terminal in (DARK, LIGHT):
                fg, bg = cell_colours(style, ColorSystem.STANDARD, terminal)
                assert ratio(fg, bg) >= 3, (terminal.name, style)


async def test_bookings_made_meanwhile_show_on_coming_back(
    reports_app: FreightApp, filled: Session
) -> None:
    app = reports_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_reports(pilot, app)
        assert "USD 2,450.05" in screen_text(app)
        await pilot.press("alt+1")
        await settle(pilot)
        store = open_store(filled.data_dir, "")
        try:
            nine = Booked("FRT9", "Magnolia Gulf Carriers", "50.00", "USD", 100, NOV)
            fill(store, [nine], ledger_environment(filled.profile_name, filled.environment))
        finally:
            store.close()
        await pilot.press("alt+6")
        await wait_for(pilot, lambda: screen.wanted in screen.reads, what="read anew")
        await settle(pilot)
        text = screen_text(app)
        assert "USD 2,500.05 · 4 shipments" in text
        assert "50.00 (1)" in line_of(text, "Magnolia Gulf Carriers")


async def test_a_store_that_cannot_answer_is_said_on_the_screen(
    filled: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FREIGHT_STORE_URL", "mysql://store.invalid/freight")
    app = make_app(filled)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+6")
        await wait_for(pilot, lambda: "could not answer" in screen_text(app), what="the error")
        status = line_of(screen_text(app), "could not answer")
        assert "FREIGHT_STORE_URL" in status
        screen = app.screen
        assert isinstance(screen, ReportsScreen)
        assert not screen.reads  # nothing kept: r (or the next key) asks again
        monkeypatch.delenv("FREIGHT_STORE_URL")
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.wanted in screen.reads, what="the answer")
        await settle(pilot)
        assert "USD 2,450.05" in screen_text(app)


async def test_the_screens_actions_are_in_the_command_palette(reports_app: FreightApp) -> None:
    app = reports_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_reports(pilot, app)
        named = {c.title for c in screen.palette_commands()}
        footer = {b.description for b in ReportsScreen.BINDINGS if isinstance(b, Binding)}
        assert named == footer  # every action, named as the footer names it
        assert {"Audit", "Export", "Earlier", "Later", "Period", "Scorecard"} <= named
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"scorec")
        await wait_for(pilot, lambda: "Carriers: share, on time" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.view == "carriers", what="the scorecard")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"earlie")
        await wait_for(pilot, lambda: "The period before (←)" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: "October 2026" in screen_text(app), what="October")
        assert screen.back == 1
