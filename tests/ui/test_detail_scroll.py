"""The shipment detail at 80x24: a booking's accessorials (its residential delivery, the
liftgate and the appointment asked for) are shown, and the whole detail scrolls from the
keyboard — ↓ a line, PgDn a page, End to its last line — while the screen's letters keep
their jobs."""

from __future__ import annotations

from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from tests.booking.conftest import booking_of, lane_of
from tests.ui.screen import screen_text, settle, wait_for
from tui.api.models import RateItem, RateRequest
from tui.app import make_app
from tui.domain.accessorials import Accessorial
from tui.domain.locations import LocationType
from tui.screens.shipment_detail import ShipmentDetailScreen
from tui.session import Session

pytestmark = pytest.mark.slow  # a booking on the sandbox, then the screen: 5-15 s


async def book_residential(session: Session) -> str:
    """Book the cheapest LTL rate of two pallets to a home in Atlanta, with a liftgate and a
    delivery appointment: its shipment id."""
    client = await session.client()
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=2, package="pallet")
    request = RateRequest(
        origin_postal_code="60607",
        dest_postal_code="30303",
        dest_type=LocationType.RESIDENTIAL,
        charges=[Accessorial.LIFTGATE_DELIVERY, Accessorial.DELIVERY_APPOINTMENT],
        items=[item, item.model_copy(update={"package": "crate", "quantity": 1})],
    )
    quote = await client.get_rates(request)
    rate = min((r for r in quote.rates if r.is_ok and r.mode == "ltl"), key=lambda r: r.total)
    outcome = await session.booking_engine(client).book(
        booking_of(quote, rate, destCompany="Home of Dana Reyes"), lane=lane_of(request, rate)
    )
    assert outcome.status == "booked", outcome
    assert outcome.shipment_id
    return outcome.shipment_id


async def open_detail(pilot: Pilot[Any], session: Session) -> ShipmentDetailScreen:
    app = pilot.app
    shipment_id = await book_residential(session)
    app.open_shipment(shipment_id)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, ShipmentDetailScreen), what="detail")
    screen = app.screen
    assert isinstance(screen, ShipmentDetailScreen)
    await wait_for(pilot, lambda: screen.detail is not None, what="the shipment")
    await settle(pilot)
    return screen


async def test_the_detail_shows_the_accessorials_asked_for(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_detail(pilot, ui_session)
        shown = str(screen.query_one("#detail-accessorials").render())
        assert shown.startswith("Accessorials  ")
        for name in ("Residential delivery", "Liftgate at delivery", "Delivery appointment"):
            assert name in shown
        text = screen_text(app)
        start = text.index("Accessorials")
        on_screen = " ".join(text[start : text.index("Items", start)].split())
        assert all(name in on_screen for name in shown.split(" · ")[1:])  # whole, wrapped


async def test_down_pgdn_and_end_scroll_the_whole_detail(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_detail(pilot, ui_session)
        body = screen.query_one("#detail-body", VerticalScroll)
        await pilot.press("j")  # the raw JSON: the detail is now far longer than the screen
        await settle(pilot)
        assert body.max_scroll_y > 20
        raw = str(screen.query_one("#detail-raw").render()).splitlines()
        last = next(line.strip() for line in reversed(raw) if '"' in line)  # the JSON's last
        assert last not in screen_text(app)
        await pilot.press("home")
        await settle(pilot)
        assert body.scroll_y == 0

        await pilot.press("down")
        await settle(pilot)
        assert body.scroll_y == 1  # one line
        await pilot.press("pagedown")
        await settle(pilot)
        assert body.scroll_y == 1 + body.scrollable_content_region.height
        await pilot.press("end")
        await settle(pilot)
        assert body.scroll_y == body.max_scroll_y
        assert last in screen_text(app)  # the last line of the detail, in view
        await pilot.press("up")
        await settle(pilot)
        assert body.scroll_y == body.max_scroll_y - 1
        await pilot.press("home")
        await settle(pilot)
        assert body.scroll_y == 0
        assert isinstance(app.screen, ShipmentDetailScreen)  # no key left the screen
