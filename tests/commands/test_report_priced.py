"""Every booking keeps its price: one booked on the Book screen and one booked by
``freight batch book`` are both in ``freight report spend``, with their totals."""

from __future__ import annotations

import asyncio
import json
from decimal import Decimal
from pathlib import Path

from tests.commands.conftest import Runner
from tests.commands.test_batch import configured, orders_file  # noqa: F401 (a fixture)
from tests.ui.booking_flow import book_it, choose_rate, ltl_request, open_rates
from tests.ui.screen import screen_text
from tui.api.models import Rate
from tui.app import make_app
from tui.batch.report import BATCH_FIELDS
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.threaded import RunningSandbox
from tui.screens.result import ResultScreen
from tui.session import Session


async def book_on_the_screen(base_url: str) -> tuple[Rate, list[Decimal]]:
    """One LTL booking through the Book screen: the rate booked, the other offers' totals."""
    app = make_app(Session.for_testing(base_url, DEMO_TOKEN))
    async with app.run_test(size=(80, 24)) as pilot:
        rates = await open_rates(pilot, ltl_request())
        assert rates.quote is not None
        chosen = await choose_rate(pilot, rates, "ltl")
        await book_it(pilot)
        assert isinstance(app.screen, ResultScreen), screen_text(app)
    others = [r.total for r in rates.quote.rates if r.is_ok and r.id != chosen.id]
    return chosen, others


def test_the_book_screen_and_the_cli_keep_the_price_for_the_reports(
    freight: Runner,
    live_sandbox: RunningSandbox,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    chosen, others = asyncio.run(book_on_the_screen(live_sandbox.base_url))
    orders = str(orders_file(tmp_path))
    assert freight("batch", "rate", orders).status == 0
    batch = json.loads(
        freight("batch", "book", orders, "--yes", "--json", ",".join(BATCH_FIELDS.names)).out
    )
    done = [r for r in batch if r["status"] == "booked"]
    assert done  # the CLI booked something too
    want: dict[tuple[str, str], Decimal] = {}
    for r in done:
        key = (r["carrier"], r["currency"])
        want[key] = want.get(key, Decimal(0)) + Decimal(r["total"])
    # Each target's report shows its own bookings: the configured profile's batch here...
    rows = json.loads(freight("report", "spend", "--format", "json").out)
    assert {(r["carrier"], r["currency"]): Decimal(r["total"]) for r in rows} == want
    assert sum(r["shipments"] for r in rows) == len(done)
    assert all(r["costPerCwt"] is not None for r in rows)  # the pounds were kept
    # ...and the demo's (the Book screen's session) the one booked on the screen.
    rows = json.loads(freight("--demo", "report", "spend", "--format", "json").out)
    assert [(r["carrier"], r["currency"], Decimal(r["total"])) for r in rows] == [
        (chosen.carrier, chosen.currency, chosen.total)
    ]
    assert rows[0]["costPerCwt"] is not None
    lanes = json.loads(freight("--demo", "report", "lanes", "--format", "json").out)
    assert [r["lane"] for r in lanes] == ["60607 > 30303"]  # the Book screen's lane
    if others:  # the offers shown were kept: the savings against the cheapest other one
        assert Decimal(rows[0]["savings"]) == min(others) - chosen.total
