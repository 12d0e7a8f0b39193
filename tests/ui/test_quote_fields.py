"""The quote's second-level fields at 80x24: pickup date, accessorials, item details (hazmat),
references and ZIP places; each kept in the draft, wrong values marked at the field."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox

from tests.ui.screen import screen_text, wait_for
from tests.ui.test_quote import fill_row, offline_session, start, type_text
from tui.app import make_app
from tui.config.settings import Location
from tui.domain.accessorials import Accessorial
from tui.forms import zip_places
from tui.forms.zip_places import ZipPlace
from tui.sandbox import SandboxConfig
from tui.screens.quote import DRAFT_NAME, QuoteScreen
from tui.screens.quote_accessorials import AccessorialsScreen
from tui.screens.quote_item_details import ItemDetailsScreen
from tui.screens.rates import RatesScreen
from tui.session import Session

FRIDAY_AFTERNOON = datetime(2026, 11, 20, 21, 0, tzinfo=UTC)  # Friday 15:00 in Chicago
PLACES = {
    "60607": ZipPlace("Chicago", "IL", "America/Chicago"),
    "30303": ZipPlace("Atlanta", "GA", "America/New_York"),
    "90001": ZipPlace("Los Angeles", "CA", "America/Los_Angeles"),
}


@pytest.fixture(autouse=True)
def fixed_world(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Friday afternoon, and a few known ZIPs (instead of reading the whole data set)."""
    monkeypatch.setattr("tui.screens.quote.now", lambda: FRIDAY_AFTERNOON)
    zip_places.use_index(dict(PLACES))
    yield
    zip_places.use_index(None)


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig) -> SandboxConfig:
    """The sandbox lives on the app's Friday afternoon too (its `today` judges the pickup)."""
    return replace(sandbox_config, now=lambda: FRIDAY_AFTERNOON)


async def to_grid(pilot: Pilot[Any], dest: str = "30303") -> QuoteScreen:
    screen = await start(pilot)
    await type_text(pilot, dest)
    await pilot.press("tab", "tab", "tab")
    return screen


async def filled(pilot: Pilot[Any]) -> QuoteScreen:
    screen = await to_grid(pilot)
    await fill_row(pilot, "1", "drum", "400", "24", "24", "36", "", "Paint")
    return screen


def message(screen: QuoteScreen) -> str:
    return str(screen.query_one("#quote-message").text)  # type: ignore[attr-defined]


async def test_zip_codes_show_their_place_and_an_unknown_one_is_marked_before_any_request() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303")
        await wait_for(
            pilot,
            lambda: "Chicago, IL → Atlanta, GA" in screen_text(app),
            what="Chicago, IL → Atlanta, GA",
        )
        await pilot.press("backspace", "backspace", "backspace", "backspace", "backspace")
        await type_text(pilot, "99999")
        await wait_for(
            pilot,
            lambda: "Chicago, IL → unknown ZIP" in screen_text(app),
            what="Chicago, IL → unknown ZIP",
        )
        assert screen.widget_for("dest_zip").has_class("-invalid")
        assert "to: 99999 is not a US ZIP code" in message(screen)
        assert screen.draft().dest_zip == "99999"


async def test_pickup_date_defaults_to_the_next_business_day_and_takes_shortcuts() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        await pilot.press("tab", "tab", "tab")  # the shipment line: Ref, PO, Pickup
        await wait_for(pilot, lambda: screen._field_of(app.focused) == "pickup_date", what="Pickup")
        assert screen.shipment.field("pickup_date").placeholder == "2026-11-23"
        assert "Mon Nov 23" in screen_text(app)
        await type_text(pilot, "+4")  # Tuesday
        await wait_for(pilot, lambda: "Tue Nov 24" in screen_text(app), what="the text")
        assert not screen.shipment.field("pickup_date").has_class("-invalid")


async def test_a_weekend_or_past_pickup_is_refused_at_the_field_and_kept() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        await pilot.press("tab", "tab", "tab")
        await type_text(pilot, "sat")
        await pilot.pause()
        field = screen.shipment.field("pickup_date")
        assert field.has_class("-invalid")
        assert "pickup date: Sat Nov 21 is a weekend; carriers pick up Monday to Friday" in message(
            screen
        )
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, QuoteScreen)
        assert app.focused is field
        assert screen.draft().pickup_date == "sat"
        await pilot.press("ctrl+u")
        await type_text(pilot, "11-19")
        await pilot.pause()
        assert "Thu Nov 19 has passed" in message(screen)


async def test_the_day_before_thanksgiving_the_default_skips_the_holiday_and_refuses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wednesday = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)  # Wednesday 15:00 in Chicago
    monkeypatch.setattr("tui.screens.quote.now", lambda: wednesday)
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        fields = screen.shipment
        await wait_for(pilot, lambda: fields.pickup_default == "2026-11-27", what="the default")
        assert "Fri Nov 27" in screen_text(app)
        await pilot.press("tab", "tab", "tab")
        await type_text(pilot, "tomorrow")
        field = fields.field("pickup_date")
        await pilot.pause()
        assert field.has_class("-invalid")
        assert (
            "pickup date: Thu Nov 26 is Thanksgiving Day; carriers are closed (next: Fri Nov 27)"
            in message(screen)
        )


async def test_accessorials_are_two_keys_away_and_go_with_the_draft() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        await pilot.press("ctrl+l")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AccessorialsScreen)
        await pilot.press("a", "i")
        assert dialog.box(Accessorial.DELIVERY_APPOINTMENT).value
        await pilot.press("enter")
        await pilot.pause()
        assert screen.draft().accessorials == (
            Accessorial.INSIDE_DELIVERY,
            Accessorial.DELIVERY_APPOINTMENT,
        )
        assert "Extras: Inside, Appt" in screen_text(app)
        await pilot.press("alt+l", "a", "escape")
        await pilot.pause()
        assert screen.draft().accessorials == (Accessorial.INSIDE_DELIVERY,)


async def test_choosing_residential_turns_the_liftgate_on_for_that_end() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await type_text(pilot, "30303")
        await pilot.press("tab", "enter", "down", "down", "enter")  # Residential
        await pilot.pause()
        assert screen.draft().dest_type == "residential"
        assert screen.draft().accessorials == (Accessorial.LIFTGATE_DELIVERY,)
        assert "Extras: Liftgate delivery" in screen_text(app)


async def test_item_details_opens_centred_over_the_quote() -> None:
    """Like every dialog: in the middle of the screen (the quote shows, dimmed, around it)."""
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await filled(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ItemDetailsScreen)
        box = dialog.query_one("ItemDetailsScreen > Vertical").region
        left, right = box.x, 80 - box.right
        top, bottom = box.y, 24 - box.bottom
        assert left > 0, box
        assert abs(left - right) <= 1, box
        assert top > 0, box
        assert abs(top - bottom) <= 1, box


async def test_item_details_hazmat_bad_input_is_marked_and_kept_then_fixed() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ItemDetailsScreen)
        await type_text(pilot, "156600")
        await pilot.press("tab", "tab", "space", "tab")  # Hazardous on
        assert dialog.query_one("#details-hazardous", Checkbox).value
        await type_text(pilot, "UN12")
        await pilot.press("tab")
        await pilot.pause()
        assert dialog.field("hazmat_id").has_class("-invalid")
        assert "UN number: UN and 4 digits" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        item = screen.draft().items[0]
        assert (item.nmfc, item.hazardous, item.hazmat_id) == ("156600", True, "UN12")
        assert screen.widget_for("items.0.hazmat_id").has_class("-invalid")
        await pilot.press("ctrl+r")  # opens the dialog at the wrong field
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ItemDetailsScreen)
        assert app.focused is dialog.field("hazmat_id")
        await type_text(pilot, "03")
        await pilot.press("tab")
        await type_text(pilot, "2.4")
        await wait_for(
            pilot,
            lambda: "class 2 divisions are 2.1, 2.2, 2.3" in screen_text(app),
            what="class 2 divisions are 2.1, 2.2, 2.3",
        )
        await pilot.press("backspace")
        await type_text(pilot, "1")
        await pilot.press("tab")
        await type_text(pilot, "II")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+r")  # now the emergency contact is missing
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ItemDetailsScreen)
        assert app.focused is dialog.field("emergency_name")
        assert "hazardous freight needs a 24-hour emergency contact" in screen_text(app)
        await type_text(pilot, "CHEMTREC")
        await pilot.press("tab")
        await type_text(pilot, "800-424-930")
        await wait_for(pilot, lambda: "emergency phone" in screen_text(app), what="the text")
        await type_text(pilot, "0")
        await pilot.press("enter")  # Enter in the last field closes
        await pilot.pause()
        assert isinstance(app.screen, QuoteScreen)
        draft = screen.draft()
        assert draft.items[0].hazard_class == "2.1"
        assert (draft.emergency_name, draft.emergency_phone) == ("CHEMTREC", "800-424-9300")
        assert "HM UN1203 · 2.1 · PG II" in message(screen)


async def test_every_new_field_survives_a_restart() -> None:
    session = offline_session()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        await pilot.press("ctrl+o", "tab", "space", "escape")  # not stackable
        await pilot.press("ctrl+l", "l", "f", "enter")
        await pilot.press("tab")
        await type_text(pilot, "S-1")
        await pilot.press("tab")
        await type_text(pilot, "PO-77")
        await pilot.press("tab")
        await type_text(pilot, "tue")
        await pilot.pause(0.5)
        before = screen.draft()
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        after = screen.draft()
        assert after == before
        assert not after.items[0].stackable
        assert after.accessorials == (
            Accessorial.LIFTGATE_DELIVERY,
            Accessorial.PROTECT_FROM_FREEZING,
        )
        assert (after.pickup_date, after.po_number, after.shipper_reference) == (
            "tue",
            "PO-77",
            "S-1",
        )
    assert session.drafts.load(DRAFT_NAME) is not None


async def test_an_address_with_its_usual_accessorials_turns_them_on() -> None:
    session = offline_session()
    home = Location(
        label="Home customer",
        postal_code="90001",
        location_type="residential",
        accessorials=["liftgate delivery", "delivery appointment"],
    )
    session.change_profile(address_book=[home])
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        await pilot.press("ctrl+a")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        draft = screen.draft()
        assert (draft.dest_zip, draft.dest_type) == ("90001", "residential")
        assert draft.accessorials == (
            Accessorial.LIFTGATE_DELIVERY,
            Accessorial.DELIVERY_APPOINTMENT,
        )


async def test_the_rate_request_carries_every_field_and_rates_show_their_charges(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await filled(pilot)
        await pilot.press("ctrl+o")
        await type_text(pilot, "156600")
        await pilot.press("tab", "space", "tab", "space", "tab")  # not stackable, hazardous
        await type_text(pilot, "1263")
        await pilot.press("tab")
        await type_text(pilot, "3")
        await pilot.press("tab")
        await type_text(pilot, "ii")
        await pilot.press("tab")
        await type_text(pilot, "CHEMTREC")
        await pilot.press("tab")
        await type_text(pilot, "800-424-9300")
        await pilot.press("escape")
        await pilot.press("ctrl+l", "l", "a", "n", "enter")
        await pilot.press("tab")
        await type_text(pilot, "S-1")
        await pilot.press("tab")
        await type_text(pilot, "PO-77")
        await pilot.press("tab")
        await type_text(pilot, "tue")
        await pilot.press("ctrl+r")
        await pilot.pause()
        rates = app.screen
        assert isinstance(rates, RatesScreen)
        body = rates.request.wire_dict()
        assert body["pickupDate"] == "2026-11-24"
        assert body["charges"] == ["liftgate delivery", "arrival schedule", "arrival notice"]
        assert body["originReferenceNumber"] == "S-1"
        assert body["destReferenceNumber"] == "PO-77"
        assert (body["emergencyName"], body["emergencyPhone"]) == ("CHEMTREC", "800-424-9300")
        item = body["items"][0]
        assert item["description"] == "Paint"
        assert item["nmfc"] == "156600"
        assert item["stackable"] is False
        assert item["hazardous"] is True
        assert item["hazard"] == {"hazmatId": "UN1263", "hazardClass": "3", "packingGroup": "II"}
        await wait_for(pilot, lambda: rates.quote is not None, what="the rates")
        assert rates.quote is not None
        offered = [rate for rate in rates.quote.rates if rate.is_ok]
        assert offered
        for rate in offered:
            names = {charge.name for charge in rate.charges}
            assert {"liftgate-delivery", "appointment", "notify-before-delivery"} <= names
            assert sum((c.amount for c in rate.charges), Decimal(0)) == rate.total


async def test_a_wrong_nmfc_item_or_packing_group_is_marked_in_the_dialog_and_on_its_row() -> None:
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await filled(pilot)
        await pilot.press("ctrl+o")
        await type_text(pilot, "1234567")
        await pilot.press("tab")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ItemDetailsScreen)
        assert dialog.field("nmfc").has_class("-invalid")
        assert "NMFC item: up to 6 digits" in screen_text(app)
        await pilot.press("tab", "space", "tab", "tab", "tab")  # hazardous; to packing group
        await type_text(pilot, "IV")
        await wait_for(
            pilot,
            lambda: "packing group: I, II or III" in screen_text(app),
            what="packing group: I, II or III",
        )
        await pilot.press("escape")
        await pilot.pause()
        item = screen.draft().items[0]
        assert (item.nmfc, item.packing_group) == ("1234567", "IV")
        assert screen.widget_for("items.0.nmfc").has_class("-invalid")
        assert "row 1: NMFC item: up to 6 digits" in message(screen)


async def test_a_new_quote_starts_with_the_default_origins_usual_pickup_accessorials() -> None:
    session = offline_session()
    origin = session.profile.default_origin
    assert origin is not None
    no_dock = origin.model_copy(
        update={"accessorials": ["liftgate pickup", "inside delivery", "sort and segregate"]}
    )
    session.change_profile(default_origin=no_dock)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot)
        assert screen.draft().accessorials == (
            Accessorial.LIFTGATE_PICKUP,
            Accessorial.SORT_AND_SEGREGATE,
        )


async def test_enter_in_the_item_details_moves_on_and_space_flips_a_box_that_reads_in_text() -> (
    None
):
    """The footer says `enter next`: Enter from NMFC through both boxes changes nothing; Space
    flips the focused box; on and off read `[x]` / `[ ]` without colour."""
    app = make_app(offline_session())
    async with app.run_test(size=(80, 24)) as pilot:
        await filled(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ItemDetailsScreen)
        stackable = dialog.query_one("#details-stackable", Checkbox)
        hazardous = dialog.query_one("#details-hazardous", Checkbox)
        assert (stackable.value, hazardous.value) == (True, False)
        text = screen_text(app)
        assert "[x] Stackable" in text
        assert "[ ] Hazardous material" in text
        await pilot.press("enter")  # NMFC -> Stackable
        assert app.focused is stackable
        await pilot.press("enter")  # Stackable -> Hazardous, unchanged
        assert app.focused is hazardous
        assert stackable.value is True
        await pilot.press("space")
        await pilot.press("enter")  # Hazardous -> UN number
        assert hazardous.value is True
        assert dialog.field("hazmat_id").has_focus
        text = screen_text(app)
        assert "[x] Stackable" in text
        assert "[x] Hazardous material" in text
        await pilot.press("shift+tab", "shift+tab", "space")
        assert stackable.value is False
        assert "[ ] Stackable" in screen_text(app)
