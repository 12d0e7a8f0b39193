"""The rates screen against the real sandbox: fill, sort, filter, marks, charges, faults."""

from __future__ import annotations

import re
from decimal import Decimal

import httpx

from tests.ui.booking_flow import counting_session, ltl_request, open_rates
from tests.ui.screen import screen_text, settle, wait_for
from tui.api.models import Rate
from tui.app import make_app
from tui.sandbox.app import SandboxApp
from tui.sandbox.ratelimit import RateLimiter
from tui.screens.rates import RatesScreen
from tui.session import Session
from tui.widgets.rates_table import RatesTable

AMOUNT = re.compile(r"(-?[\d,]+\.\d\d)\s*│\s*$")


def _row_ids(screen: RatesScreen) -> list[str]:
    table = screen.query_one(RatesTable)
    return [str(row.key.value) for row in table.ordered_rows]


def _charges_box(text: str) -> list[str]:
    """The lines inside the charges panel, as drawn."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Charges" in line and "╭" in line)
    body: list[str] = []
    for line in lines[start + 1 :]:
        if "╰" in line:
            break
        body.append(line)
    return body


async def test_rates_fill_the_table_with_marks_and_the_not_offered_apart(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        assert screen.quote is not None
        offered = [rate for rate in screen.quote.rates if rate.is_ok]
        missing = [rate for rate in screen.quote.rates if not rate.is_ok]
        assert offered
        assert missing, "this lane should have carriers without service"
        text = screen_text(app)
        assert f"{len(offered)} offers · sorted by total ▲" in text
        assert sorted(_row_ids(screen)) == sorted(rate.id for rate in offered)
        cheapest = min(offered, key=lambda rate: rate.total)
        fastest = min(offered, key=lambda rate: (rate.days, rate.total))
        assert f"$ cheapest: {cheapest.carrier_code}" in text
        assert f"» fastest: {fastest.carrier_code} {fastest.days} day" in text
        first_row = next(line for line in text.splitlines() if f"{cheapest.total:,.2f}" in line)
        assert "$" in first_row.split(cheapest.carrier_code or "")[0]
        lines = text.splitlines()
        divider = next(i for i, line in enumerate(lines) if "not offered" in line)
        table_rows = [i for i, line in enumerate(lines) if f"{cheapest.total:,.2f}" in line]
        assert table_rows[0] < divider
        assert f"not offered · {len(missing)}" in lines[divider]
        seen = " ".join(" ".join(line.split()) for line in lines[divider:])
        await pilot.press("tab")  # to the reasons; the arrows scroll them
        for _ in range(2 * len(missing)):
            await pilot.press("down")
            seen += " " + " ".join(" ".join(line.split()) for line in screen_text(app).splitlines())
        for rate in missing:  # every reason whole, none cut with an ellipsis
            assert (rate.carrier_code or "?") in seen
            assert " ".join((rate.message or "").split(": ")[-1].split()) in seen
        assert "…" not in "".join(lines[divider:])


def _offered(screen: RatesScreen) -> dict[str, Rate]:
    """The quote's offered rates by id."""
    assert screen.quote is not None
    return {rate.id: rate for rate in screen.quote.rates if rate.is_ok}


async def test_sorting_by_each_key_and_toggling_direction(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        assert screen.quote is not None
        offered = _offered(screen)
        totals = [offered[key].total for key in _row_ids(screen)]
        assert totals == sorted(totals)
        await pilot.press("t")
        await pilot.pause()
        assert "sorted by total ▼" in screen_text(app)
        totals = [offered[key].total for key in _row_ids(screen)]
        assert totals == sorted(totals, reverse=True)
        await pilot.press("d")
        await pilot.pause()
        assert "sorted by days ▲" in screen_text(app)
        days = [offered[key].days for key in _row_ids(screen)]
        assert days == sorted(days)  # type: ignore[type-var]
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert "sorted by carrier ▼" in screen_text(app)
        carriers = [offered[key].carrier.casefold() for key in _row_ids(screen)]
        assert carriers == sorted(carriers, reverse=True)


async def test_filter_as_you_type_and_escape_clears_it(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        assert screen.quote is not None
        offered = [rate for rate in screen.quote.rates if rate.is_ok]
        await pilot.press("slash", "b", "l", "u", "e")
        await pilot.pause()
        blue = [rate for rate in offered if "blue" in rate.carrier.lower()]
        assert blue
        assert len(blue) < len(offered)
        assert sorted(_row_ids(screen)) == sorted(rate.id for rate in blue)
        assert f"{len(blue)} of {len(offered)} offers matching “blue”" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert len(_row_ids(screen)) == len(offered)
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


async def test_charges_on_screen_sum_to_the_total(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        assert screen.quote is not None
        offered = _offered(screen)
        for index, key in enumerate(_row_ids(screen)):
            if index:
                await pilot.press("down")
                await pilot.pause()
            rate = offered[key]
            box = _charges_box(screen_text(app))
            amounts = [
                Decimal(m.group(1).replace(",", ""))
                for line in box
                if "Total" not in line and (m := AMOUNT.search(line))
            ]
            total_line = next(line for line in box if "Total" in line)
            match = AMOUNT.search(total_line)
            assert match is not None
            shown_total = Decimal(match.group(1).replace(",", ""))
            assert len(amounts) == len(rate.charges) >= 3
            assert sum(amounts) == shown_total == rate.total


async def test_wide_terminal_puts_the_charges_beside_the_table(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_rates(pilot)
        line = next(line for line in screen_text(app).splitlines() if "Charges" in line)
        assert "offers · sorted by total" in line


async def test_escape_cancels_a_request_in_flight(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    held = transport.hold("/rates")  # in flight until the test says, however slow the machine
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = RatesScreen(ltl_request())
        await app.push_screen(screen)
        await wait_for(pilot, lambda: "rating…" in screen_text(app), what="the request shown")
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert "cancelled" in text
        assert "rating…" not in text
        assert app.screen is screen
        assert screen.query_one(RatesTable).row_count == 0
        del transport.gates["/rates"]
        held.set()
        await pilot.press("r")
        await settle(pilot)
        assert screen.query_one(RatesTable).row_count > 0


async def test_a_late_answer_for_an_older_request_is_dropped(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session, transport = counting_session(sandbox_transport, sandbox_base_url)
    first = transport.hold("/rates")  # the first request's answer comes when the test says
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = RatesScreen(ltl_request(dest="30303"))
        await app.push_screen(screen)
        await wait_for(pilot, lambda: transport.count("/rates") == 1, what="the first request")
        del transport.gates["/rates"]  # the second goes through at once
        screen.load(ltl_request(dest="75207"))
        await wait_for(
            pilot,
            lambda: screen.quote is not None and screen.quote.dest_postal_code == "75207",
            what="the second answer",
        )
        first.set()  # now the older answer arrives, late
        await settle(pilot)
        assert screen.quote is not None
        assert screen.quote.dest_postal_code == "75207"
        assert "60607 → 75207" in screen_text(app)


async def test_rate_limited_shows_in_place_and_retry_works(
    ui_session: Session, sandbox_app: SandboxApp
) -> None:
    clock = [1000.0]
    sandbox_app.limiter = RateLimiter(0.02, 1, clock=lambda: clock[0])
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        filled = screen.query_one(RatesTable).row_count
        assert filled > 0
        await pilot.press("r")
        await settle(pilot)
        text = screen_text(app)
        assert "rate limited · r to retry" in text
        assert "Too many requests" in text
        clock[0] += 120
        await pilot.press("r")
        await settle(pilot)
        text = screen_text(app)
        assert "rate limited" not in text
        assert "offers · sorted by total" in text
        assert screen.query_one(RatesTable).row_count == filled


async def test_no_subscription_shows_what_to_do(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str
) -> None:
    session = Session.for_testing(
        sandbox_base_url, "nosub.nosub-secret", transport=sandbox_transport
    )
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        text = screen_text(app)
        assert "no rates · r to retry" in text
        assert "no active subscription" in text
        assert screen.query_one(RatesTable).row_count == 0


async def test_palette_offers_what_makes_sense_on_the_rates(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_rates(pilot)
        titles = [command.title for command in app.get_system_commands(screen)]
        assert "Sort offers by total" in titles
        assert "Rate again" in titles
        assert "Cancel rating" not in titles
        rate = screen.query_one(RatesTable).highlighted_rate
        assert rate is not None
        assert f"Book {rate.carrier_code} {rate.service_type}" in titles
        book = next(c for c in app.get_system_commands(screen) if c.title.startswith("Book "))
        book.callback()
        await pilot.pause()
        from tui.screens.book import BookScreen

        assert isinstance(app.screen, BookScreen)
        assert app.screen.rate.id == rate.id
