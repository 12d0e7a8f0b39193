"""A Canadian origin through the app on the real sandbox: the Quote's From takes a postal
code however it is typed, the rates are for the cross-border lane, and the Book screen finds
the warehouse in the address book and books it in Canada."""

from __future__ import annotations

from tests.ui.booking_flow import choose_rate, value_after
from tests.ui.screen import screen_text, settle
from tests.ui.test_quote import fill_row, start, type_text
from tui.app import make_app
from tui.config.settings import Location
from tui.screens.book import BookScreen
from tui.screens.book_confirm import BookConfirmScreen
from tui.screens.rates import RatesScreen
from tui.screens.result import ResultScreen
from tui.session import Session


def with_toronto(session: Session) -> Session:
    """The demo profile with a Toronto warehouse, its postal code written as a person might."""
    session.profile.address_book.append(
        Location(
            label="Toronto DC",
            company="Acme Dock Canada",
            address="200 Front St W",
            city="Toronto",
            state="ON",
            postal_code="m5v2t6",
            contact_name="Sam Leblanc",
            phone="416-555-0134",
            dock_open="08:00",
            dock_close="16:00",
        )
    )
    return session


async def test_a_canadian_origin_is_quoted_and_booked(ui_session: Session) -> None:
    app = make_app(with_toronto(ui_session))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        origin = screen.origin_picker.zip_input
        origin.value = ""
        origin.focus()
        await type_text(pilot, "m5v2t6")
        await pilot.press("tab", "tab")  # past the location type, to the To ZIP
        await type_text(pilot, "30303")
        await pilot.press("tab", "tab", "tab")  # past the type and the mode, to the grid
        await fill_row(pilot, "1", "pal", "800", "48", "40", "48", "", "Machine parts")
        text = screen_text(app)
        assert "Ontario, Canada → Atlanta" in text
        assert "ZIP is 5 digits" not in text
        await pilot.press("ctrl+r")
        await settle(pilot)
        rates = app.screen
        assert isinstance(rates, RatesScreen), screen_text(app)
        body = rates.request.wire_dict()
        assert (body["originPostalCode"], body["originCountry"]) == ("M5V 2T6", "CAN")
        assert body["destPostalCode"] == "30303"
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        # The address book's m5v2t6 is the quote's M5V 2T6.
        assert book.origin.input("company").value == "Acme Dock Canada"
        assert book.origin.input("contact").value == "Sam Leblanc"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, BookConfirmScreen), screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen), screen_text(app)
        shipment_id = value_after(screen_text(app), "Shipment")
        client = await ui_session.client()
        detail = await client.get_shipment(shipment_id)
        assert detail.origin is not None
        assert (detail.origin.postal_code, detail.origin.state, detail.origin.country) == (
            "M5V 2T6",
            "ON",
            "CA",
        )
