"""Booking from the rates screen against the real sandbox: LTL, parcel, truckload, faults."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot

from tests.ui.booking_flow import (
    book_it,
    choose_rate,
    confirm_rate,
    counting_session,
    ltl_request,
    open_rates,
    parcel_request,
    truckload_request,
    value_after,
)
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import make_app
from tui.demo import DEMO_TOKEN
from tui.drafts import DraftStore, draft_writer
from tui.screens.book import BookScreen
from tui.screens.book_address_book import BookAddressesScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.rates import RatesScreen
from tui.screens.result import ResultScreen
from tui.session import Session


def flat(text: str) -> str:
    """The screen's words with line breaks and runs of spaces made single spaces."""
    return " ".join(text.split())


def book_has_no_hours(app: object) -> bool:
    screen = getattr(app, "screen", None)
    return isinstance(screen, BookScreen) and not screen.query("#origin-dock-open")


async def _shipments_for_quote(session: Session, quote_id: str) -> list[str]:
    client = await session.client()
    page = await client.search_shipments({"text": quote_id})
    return [shipment.id for shipment in page.shipments]


async def type_a_contact(pilot: Pilot[Any], session: Session) -> RatesScreen:
    """Rate the LTL lane, choose its rate and type "Jordan Q" as the consignee's contact on
    the booking form, until the form's draft holds it; the rates screen."""
    rates = await open_rates(pilot, ltl_request())
    await choose_rate(pilot, rates, "ltl")
    book = pilot.app.screen
    assert isinstance(book, BookScreen)
    contact = book.dest.input("contact")
    contact.value = ""
    contact.focus()
    await pilot.press(*"Jordan Q")
    await wait_for(
        pilot,
        lambda: "Jordan Q" in str(session.drafts.load("booking")),
        what="the draft written",
    )
    return rates


async def test_ltl_booking_with_pickup_shows_pro_bol_and_pickup(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        rate = await choose_rate(pilot, rates, "ltl")
        assert isinstance(app.screen, BookScreen)
        text = screen_text(app)
        assert "Acme Dock Co" in text  # origin from the profile's default origin
        assert "Peach Retail" in text  # destination from the address book (same ZIP)
        assert "[x] Schedule pickup" in text
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, BookConfirmScreen)
        confirm = screen_text(app)
        assert rate.carrier in confirm
        assert "DEMO" in confirm
        assert f"${rate.total:,.2f}" in confirm
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        assert "Booked · DEMO" in text
        pro = value_after(text, "PRO")
        bol = value_after(text, "BOL")
        pickup = value_after(text, "Pickup conf.")
        shipment_id = value_after(text, "Shipment")
        assert not app.booking_in_flight
        client = await ui_session.client()
        detail = await client.get_shipment(shipment_id)
        assert (detail.pro_number, detail.bol_number, detail.pickup_confirmation) == (
            pro,
            bol,
            pickup,
        )
        assert detail.quote_id == rates.quote.id if rates.quote else False
        assert draft_writer("booking").wait(10), "the draft's removal is on its way"
        assert ui_session.drafts.load("booking") is None


async def test_parcel_booking_shows_tracking_numbers(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, parcel_request(), mode_filter="parcel")
        assert rates.quote is not None
        await choose_rate(pilot, rates, "parcel")
        text = screen_text(app)
        assert "Email" in text
        assert book_has_no_hours(app)
        assert "Schedule pickup" not in text
        await book_it(pilot)
        assert isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        tracking = value_after(text, "Tracking")
        shipment_id = value_after(text, "Shipment")
        client = await ui_session.client()
        detail = await client.get_shipment(shipment_id)
        assert detail.mode == "parcel"
        assert detail.tracking is not None
        assert detail.tracking.tracking_number == tracking
        assert "PRO" not in text


async def test_truckload_booking_without_pickup(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, truckload_request(), mode_filter="truckload")
        await choose_rate(pilot, rates, "truckload")
        assert isinstance(app.screen, BookScreen)
        app.screen.query_one("#book-pickup").focus()
        await pilot.press("space")
        await pilot.press("f10")
        await pilot.pause()
        confirm = screen_text(app)
        assert "truckload" in confirm
        assert "not scheduled" in confirm
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app)
        assert value_after(text, "PRO")
        assert "not scheduled" in text
        client = await ui_session.client()
        detail = await client.get_shipment(value_after(text, "Shipment"))
        assert detail.mode == "truckload"
        assert detail.pickup_confirmation is None


async def test_invalid_phone_and_hours_show_at_the_field_and_block_booking(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        phone = book.origin.input("phone")
        phone.value = ""
        phone.focus()
        await pilot.press(*"555-12")
        close = book.origin.input("dock_close")
        close.value = ""
        close.focus()
        await pilot.press(*"07:00")
        await pilot.pause()
        assert "close must be after ready (08:00)" in flat(screen_text(app))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is book
        text = flat(screen_text(app))
        assert "Fix 2 marked fields first." in text
        assert app.focused is phone
        error = book.query_one("#origin-phone-error")
        assert str(error.render()) == "phone needs 10 digits, like 312-555-0142"
        assert error.has_class("-shown")
        assert "phone needs 10 digits" in text  # at the field, in view
        assert phone.value == "555-12"  # nothing typed is lost
        assert transport.count("/book") == 0


async def test_required_fields_are_named_when_booking(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request(dest="75207"))
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        book.dest.set_values({"company": "", "address": "", "contact": "", "phone": ""})
        await pilot.press("ctrl+s")
        await pilot.pause()
        text = screen_text(app)
        assert "company is required" in text
        assert app.focused is book.dest.input("company")
        assert app.screen is book


async def test_double_enter_in_confirm_books_once(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        assert rates.quote is not None
        await confirm_rate(pilot, rates, "ltl")
        answer = transport.hold("/book")  # every key arrives while the booking is in flight
        await pilot.press("enter", "enter", "ctrl+s", "enter")
        await pilot.pause()
        answer.set()
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen))
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert transport.count("/book") == 1
        assert len(await _shipments_for_quote(session, rates.quote.id)) == 1


async def test_production_asks_for_a_deliberate_word(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(
        sandbox_transport, sandbox_base_url, environment="PRODUCTION"
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await confirm_rate(pilot, rates, "ltl")
        assert isinstance(app.screen, BookConfirmScreen)
        assert "PRODUCTION · a real shipment will be booked and billed" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BookConfirmScreen)
        assert "Type BOOK to book in PRODUCTION." in screen_text(app)
        assert transport.count("/book") == 0
        await pilot.press(*"BOOK", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert "Booked · PRODUCTION" in screen_text(app)
        assert transport.count("/book") == 1


async def test_escape_in_confirm_sends_nothing(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await confirm_rate(pilot, rates, "ltl")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, BookScreen)
        assert "Not booked." in screen_text(app)
        assert transport.count("/book") == 0


async def test_booking_twice_opens_the_existing_shipment(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        assert rates.quote is not None
        rate = min((r for r in rates.quote.rates if r.is_ok), key=lambda r: r.total)
        client = await ui_session.client()
        first = await client.book(
            {
                "id": rates.quote.id,
                "rateId": rate.id,
                "originCompany": "Acme Dock Co",
                "originAddress": "1200 W Lake St",
                "destCompany": "Peach Retail",
                "destAddress": "88 Peachtree St NE",
            }
        )
        await choose_rate(pilot, rates, "ltl")
        await book_it(pilot)
        from tui.screens.shipment_detail import ShipmentDetailScreen

        assert app.current_mode == "shipments"
        assert isinstance(app.screen, ShipmentDetailScreen)
        app.switch_mode("quote")
        await wait_for(
            pilot,
            lambda: f"Already booked as shipment {first.shipment_id}." in screen_text(app),
            what=f"Already booked as shipment {first.shipment_id}.",
        )


async def test_booking_draft_is_restored_after_the_app_is_rebuilt(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await type_a_contact(pilot, ui_session)
        assert rates.quote is not None
        first_quote = rates.quote.id
        saved = ui_session.drafts.load("booking")
        assert saved is not None
        assert saved["dest"]["contact"] == "Jordan Q"  # written while the app still runs
    # A new app and a new quote on the same lane: what was typed comes back.
    session = Session.for_testing(
        "http://sandbox.test",
        DEMO_TOKEN,
        transport=ui_session._transport,
        data_dir=ui_session.data_dir,
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        assert rates.quote is not None
        assert rates.quote.id != first_quote
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        assert book.dest.input("contact").value == "Jordan Q"
        shown = " ".join(screen_text(app).split())  # (the status line may wrap)
        assert "Restored what you typed earlier for 60607 → 30303" in shown
        await pilot.press("escape", "escape")
        await pilot.pause()
        # Another lane: the draft is not applied blindly.
        rates = await open_rates(pilot, ltl_request(dest="75207"))
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        assert book.dest.input("contact").value != "Jordan Q"
        assert "Restored" not in screen_text(app)


async def test_address_book_fills_the_focused_end_and_saves_a_new_address(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request(dest="75207"))
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        book.dest.input("company").focus()
        await pilot.press("f5")
        await wait_for(
            pilot,
            lambda: "Address book → Destination" in screen_text(app),
            what="Address book → Destination",
        )
        assert "● Lone Star DC" in screen_text(app)  # the entry at the destination ZIP, first
        await pilot.press("enter")
        await pilot.pause()
        assert book.dest.input("company").value == "Lone Star Distribution"
        assert not isinstance(app.screen, BookAddressesScreen)
        company = book.dest.input("company")
        company.value = "Lone Star Annex"
        await pilot.press("ctrl+t")
        await wait_for(
            pilot,
            lambda: "Saved Lone Star Annex (75207) to the address book." in screen_text(app),
            what="Saved Lone Star Annex (75207) to the address book.",
        )
        saved = [e for e in ui_session.address_book() if e.company == "Lone Star Annex"]
        assert len(saved) == 1
        assert saved[0].postal_code == "75207"
        assert saved[0].contact_name == book.dest.input("contact").value
        assert app.screen is book


async def test_while_the_booking_is_in_flight_nothing_can_send_it_again(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    answer = transport.hold("/book")  # in flight until the test lets the server answer
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: transport.count("/book") == 1)
        await pilot.pause()
        assert app.booking_in_flight
        assert "booking…" in screen_text(app)
        assert book.query_one("#book-body").disabled
        await pilot.press("ctrl+s", "f10", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, BookConfirmScreen)
        book.action_book()
        await pilot.pause()
        await pilot.pause()
        assert transport.count("/book") == 1
        answer.set()
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen))
        await settle(pilot)
        assert transport.count("/book") == 1
        assert not app.booking_in_flight


async def test_an_empty_field_shows_a_hint_not_someone_elses_data(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        origin_phone = book.origin.input("phone").value
        assert origin_phone
        book.dest.set_values({"phone": ""})
        await pilot.pause()
        text = screen_text(app)
        assert text.count(origin_phone) == 1, text  # the origin's own, not the destination's
        placeholder = book.dest.input("phone").placeholder
        assert not any(character.isdigit() for character in placeholder), placeholder


async def test_the_booking_forms_draft_is_written_and_removed_off_the_event_loop(
    ui_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typing saves the form's draft and booking removes it, on the draft's writer thread:
    the form never waits for the disk."""
    writes: list[tuple[str, threading.Thread]] = []
    save, clear = DraftStore.save, DraftStore.clear

    def noting_save(store: DraftStore, name: str, data: dict[str, Any]) -> None:
        if name == "booking":
            writes.append(("save", threading.current_thread()))
        save(store, name, data)

    def noting_clear(store: DraftStore, name: str) -> None:
        if name == "booking":
            writes.append(("clear", threading.current_thread()))
        clear(store, name)

    monkeypatch.setattr(DraftStore, "save", noting_save)
    monkeypatch.setattr(DraftStore, "clear", noting_clear)
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_a_contact(pilot, ui_session)
        await book_it(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, ResultScreen), what="the result")
    assert draft_writer("booking").wait(10)
    assert ui_session.drafts.load("booking") is None
    kinds = [kind for kind, _ in writes]
    assert "save" in kinds, kinds
    assert kinds[-1] == "clear", kinds
    loop_thread = threading.current_thread()
    assert all(thread is not loop_thread for _, thread in writes), "a write ran on the loop"
