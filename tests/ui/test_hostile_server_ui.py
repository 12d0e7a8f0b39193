"""The app against a hostile server: what it sends is shown as text, never drives the terminal.

Markup must show as the characters it is (``[@click=app.pwned()]`` is no link, a ``[x=`` no
crash), and no escape sequence or control character may be painted: the test reads every
segment the screen would write.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from textual.app import App
from textual.widgets import Static

from tests.hostile_server import MARKUP, NEVER_SHOWN, TOKEN, HostileServer
from tests.textual_probes import screen_render
from tests.ui.booking_flow import ltl_request, open_rates
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import FreightApp, make_app
from tui.config.settings import AppConfig, LimitSettings
from tui.demo_profile import demo_profile
from tui.domain.display_paths import display_path
from tui.screens.book import BookScreen
from tui.screens.book_check import BookingCheckScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.result import ResultScreen
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.screens.shipments import ShipmentsScreen
from tui.session import Session
from tui.widgets.rates_table import RatesTable
from tui.widgets.virtual_table import VirtualTable

# Anything a terminal acts on (newline aside: the screen is drawn line by line).
_ACTS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def hostile_session(
    server: HostileServer,
    data_dir: Path,
    *,
    socket: bool = False,
    limits: Mapping[str, float] | None = None,
) -> Session:
    """A SANDBOX session on the hostile server: through httpx's ASGI transport, or with
    ``socket`` over real HTTP to ``server.base_url`` (``serve()`` running); ``limits`` is the
    profile's [limits] table."""
    profile = demo_profile(server.base_url, data_dir).model_copy(
        update={"name": "hostile", "limits": LimitSettings.model_validate(limits or {})}
    )

    async def connect() -> tuple[str, str]:
        return server.base_url, TOKEN

    return Session(
        environment="SANDBOX",
        profile=profile,
        config=AppConfig(),
        data_dir=data_dir,
        connect=connect,
        transport=None if socket else httpx.ASGITransport(app=server.app()),
    )


def files_under(root: Path) -> set[Path]:
    """Every file under ``root``, relative to it."""
    return {path.relative_to(root) for path in root.rglob("*") if path.is_file()}


def assert_painted_safely(app: App[Any]) -> str:
    """Every segment the screen would write: no control character, no server link or action.

    Returns the screen's text.
    """
    console = Console(
        width=app.size.width,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
    )
    update = screen_render(app.screen)
    assert update is not None
    for segment in console.render(update):
        if segment.control:  # Textual's own cursor moves
            continue
        assert not _ACTS.search(segment.text), repr(segment.text)
        style = segment.style
        if style is not None:
            assert "pwned" not in repr(style.meta), style.meta
            assert not style.link or "evil" not in style.link
    text = screen_text(app)
    for word in NEVER_SHOWN:
        assert word not in text
    return text


async def test_list_and_detail_show_hostile_text_as_text(tmp_path: Path) -> None:
    server = HostileServer()
    app = make_app(hostile_session(server, tmp_path / "data"))
    async with app.run_test(size=(120, 30)) as pilot:
        app.show_shipments()

        def listed() -> bool:
            screen = app.screen
            return isinstance(screen, ShipmentsScreen) and any(
                table.row_count == 3 for table in screen.query(VirtualTable).results()
            )

        await wait_for(pilot, listed, what="the hostile listing")
        listing = assert_painted_safely(app)
        assert "Evil Carrier" in listing

        await pilot.press("enter")  # the first row: PRO 4415[x=227893 (a markup crash before)
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ShipmentDetailScreen) and app.screen.detail is not None,
            what="the detail",
        )
        await settle(pilot)
        detail = assert_painted_safely(app)
        assert "4415[x=227893" in detail
        assert "[@click=app.pwned()]clickme[/]" in detail  # markup is shown, not obeyed
        assert "Widgets" in detail

        await pilot.press("j")  # the raw JSON: every escape visible as an escape
        await settle(pilot)
        raw = assert_painted_safely(app)
        assert "\\u001b]0;PWNED" not in raw  # (json.dumps escapes it; the title word is shown)
        await pilot.press("j")

        # Save all: every document lands in the shipment's folder, which the status names.
        await pilot.press("S")
        status = app.screen.query_one("#detail-status", Static)
        await wait_for(pilot, lambda: "Saved" in str(status.content), what="the save")
        folder = tmp_path / "data" / "documents" / "4415-x-227893"
        # (shortened in the middle on an 80-column line: its start and its own name whole)
        assert display_path(folder, 40) in str(status.content)
        assert str(status.content).endswith(f"/{folder.name}")
        files = files_under(tmp_path)
        saved = {p for p in files if p.parts[:3] == ("data", "documents", "4415-x-227893")}
        assert len(saved) == 5
        assert all(not p.name.startswith(".") for p in saved)
        assert_painted_safely(app)
        assert app.is_running


async def test_rates_and_their_reasons_show_hostile_text_as_text(tmp_path: Path) -> None:
    server = HostileServer()
    app = make_app(hostile_session(server, tmp_path / "data"))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await wait_for(pilot, lambda: rates.quote is not None, what="the hostile quote")
        await settle(pilot)
        text = assert_painted_safely(app)
        assert "Markup Freight" in text
        assert "MKUP[x=" in text

        # A carrier's reason quoted in a notice: plain text too.
        table = rates.query_one(RatesTable)
        assert rates.quote is not None
        declined = next(r for r in rates.quote.rates if r.carrier_code == "DECL")
        rates.book(declined)
        await wait_for(
            pilot, lambda: "does not offer" in screen_text(app), what="the carrier's reason"
        )
        notice = assert_painted_safely(app)
        assert "does not offer this shipment" in notice
        assert MARKUP.split("]")[0] in " ".join(notice.split())  # "[@click=app.pwned()"
        assert table.is_mounted
        assert app.is_running


def test_the_hostile_server_is_hostile() -> None:
    """The attacks are there to be caught: the server's text holds them as they are."""
    from tests.hostile_server import ATTACKS, evil

    text = evil("x")
    assert all(attack in text for attack in ATTACKS)
    assert isinstance(FreightApp, type)


async def _book(pilot: Any, app: FreightApp, scac: str) -> None:
    """Rates, the offer of ``scac``, the prefilled form sent (ctrl+s), then confirmed."""
    rates = await open_rates(pilot, ltl_request())
    await wait_for(pilot, lambda: rates.quote is not None, what="the quote")
    assert rates.quote is not None
    rate = next(r for r in rates.quote.rates if r.carrier_code == scac)
    table = rates.query_one(RatesTable)
    table.move_cursor(row=table.get_row_index(rate.id), animate=False)
    await pilot.pause()
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, BookScreen), what="the booking form")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(app.screen, BookConfirmScreen), what="confirm")
    assert_painted_safely(app)  # the carrier's name on the confirmation
    await pilot.press("enter")


async def test_a_hostile_booking_answer_is_shown_as_text_and_its_papers_stay_in_the_folder(
    tmp_path: Path,
) -> None:
    server = HostileServer()
    app = make_app(hostile_session(server, tmp_path / "data"))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await _book(pilot, app, "MKUP[x=")
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the result")
        await settle(pilot)
        result = assert_painted_safely(app)
        assert "4415[x=227893" in result
        assert server.requests["POST /book"] == 1

        await pilot.press("s")  # save the documents and labels to the folder shown
        status = app.screen.query_one("#result-status", Static)
        await wait_for(pilot, lambda: "Saved" in str(status.content), what="the save")
        assert_painted_safely(app)
    written = {p for p in files_under(tmp_path) if "documents" in p.parts}
    assert len(written) == 5  # each document under its own safe name
    folders = {p.parent for p in written}
    assert len(folders) == 1
    assert all(not p.name.startswith(".") for p in written)


async def test_a_booking_answer_that_never_comes_is_unknown_and_sent_once(tmp_path: Path) -> None:
    server = HostileServer(booking_answer="never")
    with server.serve():
        session = hostile_session(
            server, tmp_path / "data", socket=True, limits={"booking_deadline": 1}
        )
        app = make_app(session)
        async with app.run_test(size=(120, 30), notifications=True) as pilot:
            await _book(pilot, app, "PLNL")
            await wait_for(
                pilot,
                lambda: isinstance(app.screen, BookingCheckScreen),
                seconds=30,
                what="the outcome-unknown check",
            )
            check = app.screen
            assert isinstance(check, BookingCheckScreen)
            await wait_for(pilot, lambda: check.found is not None, what="the search")
            await settle(pilot)
            assert_painted_safely(app)  # the candidates (the search ignores its query)
            assert server.requests["POST /book"] == 1


async def test_a_huge_or_dripping_listing_ends_with_a_message(tmp_path: Path) -> None:
    server = HostileServer(huge={"/shipments"}, drip_seconds=0.2)
    with server.serve():
        # The size cap, with no deadline near: however slow the machine reads the first MB,
        # the cap is what stops it.
        limits = {"max_answer_mb": 1, "deadline": 600}
        app = make_app(hostile_session(server, tmp_path / "huge", socket=True, limits=limits))
        async with app.run_test(size=(120, 30)) as pilot:
            app.show_shipments()
            await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen), what="list")
            status = app.screen.query_one("#shipments-status", Static)
            await wait_for(
                pilot,
                lambda: "larger than Freight reads" in str(status.content),
                seconds=120,
                what="the size cap",
            )
            assert_painted_safely(app)

        # The deadline, on an answer that never ends (a byte every 0.2 s): nothing else can
        # stop it, so it is the deadline whatever the machine's speed.
        server.huge.clear()
        server.drip = {"/shipments"}
        limits = {"max_answer_mb": 1, "deadline": 1}
        app = make_app(hostile_session(server, tmp_path / "drip", socket=True, limits=limits))
        async with app.run_test(size=(120, 30)) as pilot:
            app.show_shipments()
            await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen), what="list")
            status = app.screen.query_one("#shipments-status", Static)
            await wait_for(
                pilot,
                lambda: "did not finish its answer within 1 second" in str(status.content),
                seconds=120,
                what="the deadline",
            )
            assert_painted_safely(app)
            assert app.is_running
