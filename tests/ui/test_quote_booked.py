"""A restored quote whose booking already went through says as what it was booked (the PRO
the store knows) and offers a fresh quote, rather than being booked twice."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from tests.ui.booking_flow import book_it, choose_rate, value_after
from tests.ui.screen import screen_text, settle, wait_for
from tests.ui.test_quote import start
from tui.app import make_app
from tui.domain.quote_form import ItemDraft, QuoteDraft
from tui.drafts import BOOKED, DraftStore
from tui.screens.book import BookScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.quote import DRAFT_NAME, QuoteScreen
from tui.screens.quote_booked import BookAgainConfirm, QuoteBookedScreen
from tui.screens.rates import RatesScreen
from tui.screens.result import ResultScreen
from tui.session import Session
from tui.widgets.plain import Static

PALLETS = ItemDraft(
    quantity="2",
    package="pallet",
    weight="500",
    length="48",
    width="40",
    height="48",
    description="Machine parts",
)


def top(app: App[Any]) -> Screen[Any]:
    """The screen on top (a function: a narrowed `app.screen` would stick)."""
    return app.screen


def flat(text: str) -> str:
    """The screen's words in one line, without the dialog's borders."""
    return " ".join(word for word in text.split() if word not in ("│", "┃", "█"))


async def rate_and_choose(pilot: Pilot[Any]) -> None:
    """On the quote: ctrl+r, then the cheapest LTL rate chosen (the Book form comes)."""
    app = pilot.app
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: isinstance(top(app), RatesScreen), what="the rates")
    rates = top(app)
    assert isinstance(rates, RatesScreen)
    await wait_for(pilot, lambda: rates.quote is not None, what="the quote")
    await choose_rate(pilot, rates, "ltl")
    await wait_for(pilot, lambda: isinstance(top(app), BookScreen), what="the form")


async def book_the_quote(app: App[Any], session: Session) -> str:
    """Rate the restored quote, book its cheapest LTL rate; the PRO the result shows."""
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await rate_and_choose(pilot)
        await book_it(pilot)
        await wait_for(pilot, lambda: isinstance(top(app), ResultScreen), what="the result")
        return value_after(screen_text(app), "PRO")


async def test_a_restored_quote_already_booked_says_its_pro_and_offers_a_new_one(
    ui_session: Session,
) -> None:
    typed = QuoteDraft(origin_zip="60607", dest_zip="30303", items=(PALLETS,))
    ui_session.drafts.save(DRAFT_NAME, typed.to_dict())
    pro = await book_the_quote(make_app(ui_session), ui_session)
    saved = ui_session.drafts.load(DRAFT_NAME)
    assert saved is not None
    assert saved[BOOKED], "the booking marks the quote's draft"

    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(top(app), QuoteBookedScreen), what="the word")
        text = flat(screen_text(app))
        assert f"This quote was booked as PRO {pro}" in text
        assert "n or enter: new quote" in text
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(top(app), QuoteScreen), what="the quote")
        screen = top(app)
        assert isinstance(screen, QuoteScreen)
        await wait_for(pilot, lambda: screen.draft().dest_zip == "", what="a fresh quote")
        await settle(pilot)
        assert screen.draft().items[0].weight == ""
    again = ui_session.drafts.load(DRAFT_NAME)
    assert again is None or BOOKED not in again


async def test_the_booking_marks_the_draft_off_the_event_loop(
    ui_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The draft is read and written marked on its writer's thread, after the form's writes."""
    marks: list[threading.Thread] = []
    mark, save = DraftStore.mark_booked, DraftStore.save

    def noting_the_mark(store: DraftStore, name: str, reference: str) -> None:
        marks.append(threading.current_thread())
        mark(store, name, reference)

    def noting_a_marked_save(store: DraftStore, name: str, data: dict[str, Any]) -> None:
        if BOOKED in data:  # (a mark on a version still waiting its turn is written so)
            marks.append(threading.current_thread())
        save(store, name, data)

    monkeypatch.setattr(DraftStore, "mark_booked", noting_the_mark)
    monkeypatch.setattr(DraftStore, "save", noting_a_marked_save)
    typed = QuoteDraft(origin_zip="60607", dest_zip="30303", items=(PALLETS,))
    ui_session.drafts.save(DRAFT_NAME, typed.to_dict())
    marks.clear()
    await book_the_quote(make_app(ui_session), ui_session)
    saved = ui_session.drafts.load(DRAFT_NAME)
    assert saved is not None
    assert saved[BOOKED], "the booking marks the quote's draft"
    assert saved["dest_zip"] == "30303"
    assert marks, "nothing was marked"
    loop_thread = threading.current_thread()
    assert all(thread is not loop_thread for thread in marks), "the mark ran on the loop"


async def test_keeping_a_booked_quote_keeps_its_values_and_asks_no_more(
    ui_session: Session,
) -> None:
    typed = QuoteDraft(origin_zip="60607", dest_zip="30303", items=(PALLETS,))
    ui_session.drafts.save(DRAFT_NAME, {**typed.to_dict(), BOOKED: "FR-UNKNOWN-1"})
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(top(app), QuoteBookedScreen), what="the word")
        assert "booked as reference FR-UNKNOWN-1" in flat(screen_text(app))
        await pilot.press("k")
        await wait_for(pilot, lambda: isinstance(top(app), QuoteScreen), what="the quote")
        screen = top(app)
        assert isinstance(screen, QuoteScreen)
        assert screen.draft().dest_zip == "30303"
    kept = ui_session.drafts.load(DRAFT_NAME)
    assert kept is not None
    assert BOOKED not in kept
    assert kept["dest_zip"] == "30303"


async def test_a_quote_booked_then_rated_again_unchanged_asks_before_booking_again(
    ui_session: Session,
) -> None:
    """Book, back to the quote without changing it, rate and book again in the same run:
    the Book step says as what it was booked, as a restored quote does, and asks."""
    typed = QuoteDraft(origin_zip="60607", dest_zip="30303", items=(PALLETS,))
    ui_session.drafts.save(DRAFT_NAME, typed.to_dict())
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await start(pilot)
        await rate_and_choose(pilot)
        await book_it(pilot)
        await wait_for(pilot, lambda: isinstance(top(app), ResultScreen), what="the result")
        pro = value_after(screen_text(app), "PRO")
        await pilot.press("alt+1")  # back to the quote, as it was
        await wait_for(pilot, lambda: isinstance(top(app), QuoteScreen), what="the quote")
        await rate_and_choose(pilot)
        book = top(app)
        assert isinstance(book, BookScreen)
        await wait_for(pilot, lambda: book._quote_booked is not None, what="the mark read")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(top(app), BookAgainConfirm), what="the ask")
        asked = top(app).query_one("#book-again-text", Static)  # toasts may overlap it
        assert f"This quote was booked as PRO {pro}" in flat(str(asked.render()))
        await pilot.press("n")
        await wait_for(pilot, lambda: top(app) is book, what="the form")
        assert "Not booked again." in screen_text(app)
        await pilot.press("ctrl+s")  # asked again until the user says go on
        await wait_for(pilot, lambda: isinstance(top(app), BookAgainConfirm), what="the ask")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(top(app), BookConfirmScreen), what="confirm")
