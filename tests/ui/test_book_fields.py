"""The booking form's pickup day, ready/close window, receiving hours, POs, notes, shipper
reference and section keys; the confirmation's extras and hazmat (real sandbox, Pilot)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from textual.widgets import Input, Static

from tests.ui.booking_flow import (
    choose_rate,
    counting_session,
    ltl_request,
    open_rates,
    value_after,
)
from tests.ui.screen import screen_text, settle, wait_for
from tui.api.models import Hazard, RateItem, RateRequest
from tui.app import make_app
from tui.domain.pickup_dates import next_business_day
from tui.screens.book import BookScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.result import ResultScreen
from tui.session import Session


def flat(text: str) -> str:
    return " ".join(text.split())


def message(book: BookScreen, selector: str) -> str:
    """The text under a field (its error line)."""
    shown = book.query_one(selector, Static)
    return str(shown.render()) if shown.has_class("-shown") else ""


async def type_into(pilot: Any, field: Input, text: str) -> None:
    field.value = ""
    field.focus()
    await pilot.press(*[{" ": "space", "/": "slash", "+": "plus"}.get(c, c) for c in text])


@dataclass
class Typed:
    day: str = "wed"
    ready: str = "9am"
    close: str = "1630"
    receive_open: str = "0700"
    receive_close: str = "3:30 pm"
    origin_po: str = "PO-4471"
    dest_po: str = "SO-88"
    notes: str = "Dock door 4, call ahead"
    reference: str = "REF-123"


async def fill(pilot: Any, book: BookScreen, typed: Typed) -> None:
    await type_into(pilot, book.pickup.input("date"), typed.day)
    await type_into(pilot, book.origin.input("dock_open"), typed.ready)
    await type_into(pilot, book.origin.input("dock_close"), typed.close)
    await type_into(pilot, book.dest.input("dock_open"), typed.receive_open)
    await type_into(pilot, book.dest.input("dock_close"), typed.receive_close)
    await type_into(pilot, book.origin.input("reference"), typed.origin_po)
    await type_into(pilot, book.dest.input("reference"), typed.dest_po)
    await type_into(pilot, book.dest.input("instructions"), typed.notes)
    await type_into(pilot, book.pickup.input("reference"), typed.reference)
    await pilot.pause()


async def test_every_new_field_reaches_the_booked_shipment(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        await fill(pilot, book, Typed())
        wednesday = book.pickup.pickup_date()
        assert wednesday is not None
        assert wednesday.weekday() == 2
        assert f"{wednesday:%a %Y-%m-%d}" in str(book.query_one("#pickup-date-note").render())
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, BookConfirmScreen)
        confirm = flat(screen_text(app))
        assert f"Pickup {wednesday:%a %Y-%m-%d} 09:00–16:30 · scheduled" in confirm
        assert "Receiving 07:00–15:30" in confirm
        assert "References yours REF-123 · pickup PO PO-4471 · delivery PO SO-88" in confirm
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        client = await ui_session.client()
        detail = await client.get_shipment(value_after(screen_text(app), "Shipment"))
        raw = detail.raw
        assert raw["requestedPickupDate"] == wednesday.isoformat()
        references = raw["references"]
        assert set(references.values()) >= {"REF-123", "PO-4471", "SO-88"}


async def test_bad_days_and_times_are_named_at_the_field_and_kept(
    sandbox_transport: Any, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        bad = Typed(day="sat", ready="9am", close="10am", receive_open="7", receive_close="3pm")
        await fill(pilot, book, bad)
        assert "is a weekend; carriers pick up Monday to Friday" in message(
            book, "#pickup-date-error"
        )
        assert message(book, "#origin-hours-error") == (
            "the window 09:00–10:00 is 60 min; carriers need at least 90 min"
        )
        assert message(book, "#dest-hours-error").startswith("open: enter a time like 9:00")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert book.is_current
        assert "Fix 3 marked fields first." in screen_text(app)
        assert app.focused is book.origin.input("dock_close")  # the first one, in form order
        assert book.origin.input("dock_close").value == "10am"  # nothing typed is lost
        assert book.pickup.input("date").value == "sat"
        assert transport.count("/book") == 0
        await type_into(pilot, book.pickup.input("date"), "2020-01-06")
        await pilot.press("tab")
        assert "has passed; pick today" in message(book, "#pickup-date-error")
        await wait_for(
            pilot, lambda: "2020-01-06" in str(session.drafts.load("booking")), what="the draft"
        )
        draft = session.drafts.load("booking")
        assert draft is not None
        assert draft["pickup"]["date"] == "2020-01-06"
        assert draft["origin"]["dock_close"] == "10am"
        assert draft["dest"]["dock_open"] == "7"
        assert draft["pickup"]["reference"] == "REF-123"


async def test_quote_values_prefill_the_form(ui_session: Session) -> None:
    day = next_business_day(date.today())
    request = ltl_request().model_copy(
        update={
            "pickup_date": day,
            "origin_reference_number": "S-9",  # the quote's Ref: the shipper's own
            "dest_reference_number": "PO-77",  # the quote's PO: the consignee's order
            "dest_instructions": "Leave at door B",
        }
    )
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, request)
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        assert book.pickup.input("date").value == day.isoformat()
        assert book.pickup.pickup_date() == day
        assert book.pickup.input("reference").value == "S-9"  # the reference, not a PO
        assert book.origin.input("reference").value == ""
        assert book.dest.input("reference").value == "PO-77"
        assert book.dest.input("instructions").value == "Leave at door B"
        assert book.origin.input("company").value == "Acme Dock Co"  # the profile still fills
        later = next_business_day(day)
        await type_into(pilot, book.pickup.input("date"), later.isoformat())
        await pilot.press("tab")
        note = str(book.query_one("#pickup-date-note").render())
        assert note.startswith(f"{later:%a %Y-%m-%d}")  # (a day many carriers close says so)
        assert note.endswith(f" · quoted for {day:%a %Y-%m-%d}: the carrier may re-rate")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, BookConfirmScreen), what="confirm")
        confirm = flat(screen_text(app))
        assert "References yours S-9 · delivery PO PO-77" in confirm
        assert "pickup PO" not in confirm


async def test_confirmation_lists_accessorials_and_hazmat(ui_session: Session) -> None:
    hazmat = RateItem(
        weight=Decimal(400),
        length=Decimal(48),
        width=Decimal(40),
        height=Decimal(40),
        quantity=1,
        package="pallet",
        description="Paint",
        hazardous=True,
        hazard=Hazard(hazmat_id="UN1263", hazard_class="3", packing_group="III"),
    )
    request = RateRequest.model_validate(
        {
            **ltl_request().model_dump(),
            "items": [*ltl_request().items, hazmat],
            "dest_type": "residential",
            "charges": ["liftgate delivery", "arrival schedule"],
            "emergency_name": "ChemTel",
            "emergency_phone": "800-255-3924",
        }
    )
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, request)
        await choose_rate(pilot, rates, "ltl")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, BookConfirmScreen)
        confirm = flat(screen_text(app))
        extras = confirm.split("Extras ", 1)[1].split(" Hazmat", 1)[0]
        extras = " ".join(word for word in extras.split() if word != "█")
        assert extras == "residential delivery, liftgate at delivery, delivery appointment"
        assert "Hazmat UN1263 class 3 PG III · 1 × pallet Paint" in confirm
        assert "Emergency ChemTel 800-255-3924" in confirm


async def test_page_keys_travel_between_sections(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        assert app.focused is book.origin.input("company")
        await pilot.press("pagedown")
        assert app.focused is book.dest.input("company")
        await pilot.press("pagedown")
        assert app.focused is book.pickup.input("date")
        assert "Your ref" in screen_text(app)
        await pilot.press("pagedown")
        assert app.focused is book.origin.input("company")
        await pilot.press("pageup")
        assert app.focused is book.pickup.input("date")
        await type_into(pilot, book.pickup.input("date"), "tue")
        await pilot.press("pageup")
        assert book.pickup.input("date").value == "tue"


async def test_saving_a_known_address_keeps_what_the_form_does_not_show(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        assert book.dest.input("company").value == "Peach Retail"
        before = next(e for e in ui_session.address_book() if e.company == "Peach Retail")
        await type_into(pilot, book.dest.input("phone"), "404-555-0123")
        await type_into(pilot, book.dest.input("dock_open"), "6:30am")
        await pilot.press("ctrl+t")
        await wait_for(
            pilot,
            lambda: "Saved Peach Retail (30303) to the address book." in screen_text(app),
            what="Saved Peach Retail (30303) to the address book.",
        )
        saved = [e for e in ui_session.address_book() if e.company == "Peach Retail"]
        assert len(saved) == 1
        assert saved[0].phone == "404-555-0123"
        assert saved[0].dock_open == "06:30"  # as the address book keeps times
        assert (saved[0].label, saved[0].location_type, saved[0].email) == (
            before.label,
            before.location_type,
            before.email,
        )
        assert (saved[0].address, saved[0].address2) == (before.address, before.address2)
