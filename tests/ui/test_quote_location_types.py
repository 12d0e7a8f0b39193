"""An address book entry's location type reaches the quote: a "No dock" consignee gets its
liftgate (and the rates carry it), and a liftgate turned off is a warning at the extras."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.ui.booking_flow import choose_rate, ltl_request, open_rates
from tests.ui.screen import screen_text, wait_for
from tests.ui.test_quote import fill_row, offline_session, start
from tests.ui.test_quote_fields import fixed_world, sandbox_config
from tui.app import make_app
from tui.config.settings import Location
from tui.domain.accessorials import Accessorial
from tui.domain.locations import LocationType
from tui.screens.book import BookScreen
from tui.screens.book_address_book import BookAddressesScreen
from tui.screens.quote_address_book import QuoteAddressesScreen
from tui.screens.rates import RatesScreen
from tui.session import Session

__all__ = ["fixed_world", "sandbox_config"]  # the quote's Friday, for the sandbox too

PEACH = Location(
    label="Peach Retail", postal_code="30303", city="Atlanta", location_type="business-no-dock"
)


async def test_a_no_dock_consignee_gets_its_liftgate_and_turning_it_off_is_a_warning() -> None:
    session = offline_session()
    session.change_profile(address_book=[PEACH])
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        extras = screen.query_one("#quote-extras")
        await pilot.press("ctrl+a")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        draft = screen.draft()
        assert (draft.dest_zip, draft.dest_type) == ("30303", LocationType.BUSINESS_NO_DOCK)
        assert draft.accessorials == (Accessorial.LIFTGATE_DELIVERY,)
        assert "Extras: Liftgate delivery · ctrl+l to change" in screen_text(app)
        assert not extras.has_class("-warning")
        await pilot.press("ctrl+l", "l", "enter")  # the user turns the liftgate off
        await pilot.pause()
        assert screen.draft().accessorials == ()
        assert "Extras: none · ⚠ No dock delivery without liftgate · ctrl+l" in screen_text(app)
        assert extras.has_class("-warning")
        await pilot.press("ctrl+l", "l", "enter")  # and on again: no warning
        await pilot.pause()
        assert "without liftgate" not in screen_text(app)
        assert not extras.has_class("-warning")


async def test_the_rates_of_a_no_dock_consignee_carry_its_liftgate(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("ctrl+a")
        await pilot.pause()
        book = app.screen
        assert isinstance(book, QuoteAddressesScreen)
        peach = next(i for i, a in enumerate(book.addresses) if a.label == "Peach Retail")
        assert book.addresses[peach].location_type == LocationType.BUSINESS_NO_DOCK
        book.query_one(OptionList).highlighted = peach
        await pilot.press("enter")
        await pilot.pause()
        screen.editor.input_for(0, "quantity").focus()
        await fill_row(pilot, "1", "pallet", "400", "48", "40", "40", "", "Parts")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, RatesScreen), what="the rates")
        rates = app.screen
        assert isinstance(rates, RatesScreen)
        assert rates.request.dest_type == LocationType.BUSINESS_NO_DOCK
        assert rates.request.wire_dict()["charges"] == ["liftgate delivery"]
        await wait_for(pilot, lambda: rates.quote is not None, what="the quote")
        assert rates.quote is not None
        offered = [rate for rate in rates.quote.rates if rate.is_ok]
        assert offered
        for rate in offered:
            assert "liftgate-delivery" in {charge.name for charge in rate.charges}


async def test_the_booking_form_warns_when_its_consignee_is_not_the_type_quoted(
    ui_session: Session,
) -> None:
    """The demo's Peach Retail (30303) has no dock: a rate for a dock is not its rate."""
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        await choose_rate(pilot, rates, "ltl")
        book = app.screen
        assert isinstance(book, BookScreen)
        await wait_for(pilot, lambda: "Peach Retail" in screen_text(app), what="the consignee")
        said = " ".join(screen_text(app).split())
        assert (
            "⚠ Peach Retail is business, no dock; the rate is for business with dock at "
            "delivery with no liftgate: quote again with its type"
        ) in said
        assert book.query_one("#book-status").has_class("-problem")
        # picked again from the address book: said again
        book.dest.input("company").focus()
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, BookAddressesScreen), what="book")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is book, what="the form")
        await wait_for(pilot, lambda: "Filled destination" in screen_text(app), what="filled")
        assert "Peach Retail is business, no dock" in " ".join(screen_text(app).split())


async def test_a_consignee_quoted_with_its_own_type_is_not_warned(ui_session: Session) -> None:
    request = ltl_request().model_copy(
        update={"dest_type": LocationType.BUSINESS_NO_DOCK, "charges": ["liftgate delivery"]}
    )
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, request)
        await choose_rate(pilot, rates, "ltl")
        await wait_for(pilot, lambda: "Peach Retail" in screen_text(app), what="the consignee")
        assert "the rate is for" not in screen_text(app)
