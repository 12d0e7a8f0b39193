"""Choosing by rule, and the one pace a batch's requests keep (a fake clock: no waiting)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from tui.batch.book import BookProgress
from tui.batch.model import RateOption
from tui.batch.pace import Pace, WaitTooLongError
from tui.batch.rules import RuleError, Rules, choose, parse_max_total, parse_rule


def offer(
    rid: str, carrier: str, code: str, total: str, days: int | None, currency: str = "USD"
) -> RateOption:
    return RateOption(rid, carrier, code, "Standard", "ltl", Decimal(total), currency, days)


OFFERS = (
    offer("a", "Harrowgate Freight Lines", "HGFL", "410.00", 5),
    offer("b", "Bluecrest Express", "BCXP", "620.50", 1),
    offer("c", "Lakeshore Interstate Freight", "LKIF", "455.25", 2),
    offer("d", "Magnolia Gulf Carriers", "MGGC", "399.99", 4),
    RateOption("e", "Quirkwood", "QWDL", "", "ltl", Decimal(0), "USD", None, False, "no service"),
)


@pytest.mark.parametrize(
    ("rules", "chosen"),
    [
        (Rules(), "d"),
        (Rules(kind="fastest"), "b"),
        (Rules(kind="within", within_days=2), "c"),
        (Rules(kind="within", within_days=4), "d"),
        (Rules(prefer=("LKIF",)), "c"),
        (Rules(prefer=("lakeshore",), kind="fastest"), "c"),
        (Rules(prefer=("BCXP",), kind="within", within_days=2), "b"),
        (Rules(exclude=("MGGC", "harrowgate")), "c"),
        (Rules(max_total=Decimal(400)), "d"),
    ],
)
def test_rules_choose(rules: Rules, chosen: str) -> None:
    best, why = choose(OFFERS, rules)
    assert best is not None
    assert best.id == chosen
    assert why == ""


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        (Rules(max_total=Decimal(300)),
         "the cheapest offer, 399.99 USD, is over the maximum of 300.00"),
        (Rules(kind="within", within_days=1, exclude=("BCXP",)),
         "no offer within 1 transit days (the fastest takes 2 days)"),
        (Rules(exclude=("HGFL", "BCXP", "LKIF", "MGGC")),
         "every offer is from an excluded carrier"),
    ],
)  # fmt: skip
def test_rules_that_nothing_fits_say_why(rules: Rules, why: str) -> None:
    assert choose(OFFERS, rules) == (None, why)


def test_no_offer_at_all_gives_the_carriers_reasons() -> None:
    assert choose(OFFERS[4:], Rules()) == (None, "no carrier offered a rate (no service)")


def test_totals_are_compared_within_one_currency() -> None:
    mixed = (
        offer("cad", "Maple Leaf Freight", "MLFT", "300.00", 2, "CAD"),
        offer("usd", "Prairie Lines", "PRLN", "987.25", 3),
    )
    best, _ = choose(mixed, Rules())
    assert best is not None
    assert best.id == "usd"
    only_cad = (mixed[0], offer("cad2", "Toque Freight", "TQFR", "280.00", 4, "CAD"))
    best, _ = choose(only_cad, Rules(max_total=Decimal(250), max_currency="USD"))
    assert best is not None
    assert best.id == "cad2"


def test_rules_are_written_as_the_cli_takes_them() -> None:
    assert parse_rule("cheapest") == ("cheapest", None)
    assert parse_rule("Fastest") == ("fastest", None)
    assert parse_rule("cheapest-within-3") == ("within", 3)
    assert parse_rule("cheapest within 5 days") == ("within", 5)
    with pytest.raises(RuleError, match="cheapest-within-N"):
        parse_rule("best")
    assert parse_max_total("1,500") == (Decimal(1500), None)
    assert parse_max_total("1500.50 cad") == (Decimal("1500.50"), "CAD")
    with pytest.raises(RuleError):
        parse_max_total("lots")
    kept = Rules(kind="within", within_days=3, prefer=("LKIF",), max_total=Decimal("900.5"))
    assert Rules.from_json(kept.to_json()) == kept
    assert kept.text == "cheapest within 3 days, prefer LKIF, max 900.50"


class FakeTime:
    """A clock that moves only when slept on."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_the_pace_spaces_requests_evenly() -> None:
    time = FakeTime()
    pace = Pace(4.0, clock=time.clock, sleep=time.sleep)
    starts = []
    for _ in range(5):
        await pace.turn()
        starts.append(time.now)
        pace.ok()
    # evenly spaced at 90 % of the limit (3.6/s): 4 take longer than a second, never 5 in one
    gap = 1 / 3.6
    assert starts == pytest.approx([100.0 + n * gap for n in range(5)])


async def test_no_window_of_a_second_holds_more_than_the_limit() -> None:
    time = FakeTime()
    pace = Pace(20.0, clock=time.clock, sleep=time.sleep)
    starts = []
    for _ in range(200):
        await pace.turn()
        starts.append(time.now)
        pace.ok()
    busiest = max(sum(1 for t in starts if s <= t < s + 1.0) for s in starts)
    assert busiest == 18  # 90 % of the limit: the rest is room for a request that leaves late


async def test_the_first_request_goes_alone_until_its_answer() -> None:
    time = FakeTime()

    async def yielding(seconds: float) -> None:
        time.now += seconds
        await asyncio.sleep(0)

    pace = Pace(20.0, clock=time.clock, sleep=yielding)
    await pace.turn()
    first = time.now
    waiting = asyncio.ensure_future(pace.turn())
    for _ in range(5):
        await asyncio.sleep(0)  # the others wait while its connection is set up
    assert not waiting.done()
    pace.ok()
    await waiting
    assert time.now - first < 0.2  # its answer let it go, not the half second
    no_answer = Pace(20.0, clock=time.clock, sleep=time.sleep)
    await no_answer.turn()
    started = time.now
    await no_answer.turn()  # an answer that never comes holds the rest half a second at most
    assert time.now - started == pytest.approx(0.5, abs=0.011)


async def test_a_retry_after_beyond_the_cap_stops_the_run_with_the_reason() -> None:
    time = FakeTime()
    pace = Pace(20.0, max_wait=300, clock=time.clock, sleep=time.sleep)
    assert pace.limited(300) == 300  # up to the cap: waited for, however long
    with pytest.raises(WaitTooLongError) as caught:
        pace.limited(100_000)
    text = str(caught.value)
    assert "wait 27 h 47 min" in text
    assert "Retry-After: 100000" in text
    assert "longer than the 5 min" in text
    assert "max_retry_after" in text


async def test_a_pause_is_shown_as_a_wait_with_its_end_time() -> None:
    time = FakeTime()
    noon = datetime(2026, 3, 2, 12, 0, 0, tzinfo=UTC)
    shown: list[datetime | None] = []
    pace = Pace(20.0, clock=time.clock, sleep=time.sleep, wall=lambda: noon)
    pace.on_wait = lambda: shown.append(pace.wait_end())
    assert pace.wait_end() is None
    pace.limited(90)
    assert shown == [noon + timedelta(seconds=90)]
    progress = BookProgress(3, 10, 3, 5.0, pace.wait_end())
    local = (noon + timedelta(seconds=90)).astimezone()
    assert progress.text.endswith(
        f"waiting until {local:%H:%M:%S} (the service said 429: too many requests)"
    )
    await pace.turn()
    assert pace.wait_end() is None


async def test_a_429_pauses_everyone_for_its_retry_after_and_slows_the_pace() -> None:
    time = FakeTime()
    pace = Pace(10.0, clock=time.clock, sleep=time.sleep)
    await pace.turn()
    assert pace.limited(3.0) == 3.0
    assert pace.limited(2.0) == 2.0  # a second answer of the same moment: no longer pause
    await pace.turn()
    assert time.now == pytest.approx(103.0)
    assert pace.rate == pytest.approx(9.0 * 0.85)  # 90 % of 10/s, slowed once, not twice
    assert pace.limited_count == 2
    assert pace.waited == pytest.approx(3.0)
    for _ in range(40):
        pace.ok()
    assert pace.rate == pytest.approx(9.0)


async def test_without_retry_after_the_pause_doubles() -> None:
    time = FakeTime()
    pace = Pace(None, clock=time.clock, sleep=time.sleep)
    assert [pace.limited(None) for _ in range(4)] == [1.0, 2.0, 4.0, 8.0]
    pace.ok()
    assert pace.limited(None) == 1.0
    assert pace.limited(None) == 2.0
    assert pace.limited(240) == 240  # a Retry-After within the cap is waited for whole
