"""Shared steps for the rates → book → result tests: requests, rates, transports."""

from __future__ import annotations

import asyncio
import itertools
import re
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.ui.screen import settle
from tui.api.models import RateItem, RateRequest
from tui.demo import DEMO_TOKEN
from tui.sandbox import SandboxConfig
from tui.session import Session

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from tui.api.models import Rate
    from tui.screens.rates import RatesScreen


def _one_item(origin: str, dest: str, **item: Any) -> RateRequest:
    """A rate request for one line of items between two ZIP codes."""
    return RateRequest(origin_postal_code=origin, dest_postal_code=dest, items=[RateItem(**item)])


def ltl_request(origin: str = "60607", dest: str = "30303") -> RateRequest:
    """Two pallets from the demo dock in Chicago to Atlanta."""
    return _one_item(
        origin,
        dest,
        weight=Decimal(500),
        length=Decimal(48),
        width=Decimal(40),
        height=Decimal(48),
        quantity=2,
        package="pallet",
        description="Machine parts",
    )


def parcel_request() -> RateRequest:
    """One small box, which parcel carriers take."""
    return _one_item(
        "60607",
        "30303",
        weight=Decimal(12),
        length=Decimal(16),
        width=Decimal(12),
        height=Decimal(10),
        quantity=1,
        package="box",
    )


async def open_rates(
    pilot: Pilot[Any], request: RateRequest | None = None, mode_filter: str | None = None
) -> RatesScreen:
    """Push the rates screen for a request (as the quote screen does) and wait for the table."""
    from tui.screens.rates import RatesScreen

    await pilot.pause()
    screen = RatesScreen(request or ltl_request(), mode_filter)
    await pilot.app.push_screen(screen)
    await settle(pilot)
    return screen


class CountingTransport(httpx.AsyncBaseTransport):
    """Forwards to the sandbox; counts requests by path; may delay or fail chosen paths.

    `delays[path]` holds one delay per coming call; `hold(path)` keeps calls to a path waiting
    until the test sets the event it returns; `fail_after_forward[path]` lets the sandbox
    handle the next call, then raises the exception instead of returning the answer.
    """

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.calls: list[str] = []
        self.delays: dict[str, list[float]] = {}
        self.fail_after_forward: dict[str, BaseException] = {}
        self.replace: dict[str, list[httpx.Response]] = {}
        self.gates: dict[str, asyncio.Event] = {}

    def hold(self, path: str) -> asyncio.Event:
        """Keep requests to `path` waiting (in flight, however slow the machine) until the
        returned event is set."""
        gate = self.gates[path] = asyncio.Event()
        return gate

    def count(self, path: str) -> int:
        """How many requests went to this path (e.g. `/book`)."""
        return sum(1 for call in self.calls if call == path)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        self.calls.append(path)
        if self.replace.get(path):
            return self.replace[path].pop(0)
        if self.delays.get(path):
            await asyncio.sleep(self.delays[path].pop(0))
        if path in self.gates:
            await self.gates[path].wait()
        response = await self.inner.handle_async_request(request)
        if path in self.fail_after_forward:
            await response.aread()
            raise self.fail_after_forward.pop(path)
        return response


def counting_session(
    sandbox_transport: httpx.AsyncBaseTransport, base_url: str, **options: Any
) -> tuple[Session, CountingTransport]:
    """A DEMO session (unless `options` say otherwise) whose requests are counted."""
    transport = CountingTransport(sandbox_transport)
    session = Session.for_testing(base_url, DEMO_TOKEN, transport=transport, **options)
    return session, transport


async def choose_rate(pilot: Pilot[Any], screen: RatesScreen, mode: str) -> Rate:
    """Move the cursor to the cheapest bookable rate of a mode and press Enter on it."""
    from tui.widgets.rates_table import RatesTable

    assert screen.quote is not None, "no quote on the rates screen"
    rate = min((r for r in screen.quote.rates if r.is_ok and r.mode == mode), key=lambda r: r.total)
    table = screen.query_one(RatesTable)
    table.move_cursor(row=table.get_row_index(rate.id), animate=False)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    return rate


async def confirm_rate(pilot: Pilot[Any], screen: RatesScreen, mode: str) -> Rate:
    """Choose the cheapest rate of a mode, then ctrl+s on the prefilled form: the confirmation."""
    rate = await choose_rate(pilot, screen, mode)
    await pilot.press("ctrl+s")
    await pilot.pause()
    return rate


def value_after(text: str, label: str) -> str:
    """The first word after a label on the screen (e.g. the PRO number after `PRO`)."""
    match = re.search(rf"\b{re.escape(label)}\s+(\S+)", text)
    assert match is not None, f"{label!r} not on screen:\n{text}"
    return match.group(1)


def truckload_request() -> RateRequest:
    """Twelve heavy pallets: enough for truckload offers."""
    return _one_item(
        "60607",
        "30303",
        weight=Decimal(1500),
        length=Decimal(48),
        width=Decimal(40),
        height=Decimal(60),
        quantity=12,
        package="pallet",
    )


async def book_to_result(
    pilot: Pilot[Any], request: RateRequest | None = None, mode: str = "ltl"
) -> None:
    """Rates → cheapest rate of `mode` → book with the prefilled form → confirm → result."""
    rates = await open_rates(pilot, request or ltl_request(), mode_filter=mode)
    await choose_rate(pilot, rates, mode)
    await book_it(pilot)


async def book_it(pilot: Pilot[Any]) -> None:
    """On the booking form: ctrl+s, Enter in the confirm dialog, then let the booking finish."""
    await pilot.press("ctrl+s")
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)


FIXED_NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
"""The sandbox clock in snapshot tests (fuel index and truckload prices depend on the day)."""


def deterministic_sandbox(config: SandboxConfig, monkeypatch: pytest.MonkeyPatch) -> SandboxConfig:
    """A sandbox with a fixed clock, no seeded shipments (so serials start fresh) and numbered
    quote ids (the sandbox draws them at random)."""
    counter = itertools.count(1)
    monkeypatch.setattr(
        "tui.sandbox.quotes.random_id", lambda prefix, length=12: f"{prefix}snap{next(counter):04d}"
    )
    return replace(config, now=lambda: FIXED_NOW, shipments=0)
