"""Helpers for the sandbox's own tests: a demo client, a hand-moved clock, request builders."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp


class Clock:
    """A clock tests move by hand."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        self.current = start

    def now(self) -> datetime:
        """The current time."""
        return self.current

    def advance(self, delta: timedelta) -> None:
        """Move the clock forward."""
        self.current += delta


def rate_body(
    origin: str = "60601",
    dest: str = "30303",
    *,
    weight: float = 800,
    quantity: int = 1,
    dims: tuple[float, float, float] = (48, 40, 48),
    freight_class: float | None = 70,
    origin_type: str | None = None,
    dest_type: str | None = None,
    package: str = "pallet",
) -> dict[str, Any]:
    """A POST /rates body with one line."""
    item: dict[str, Any] = {
        "weight": weight,
        "length": dims[0],
        "width": dims[1],
        "height": dims[2],
        "quantity": quantity,
        "package": package,
    }
    if freight_class is not None:
        item["freightClass"] = freight_class
    body: dict[str, Any] = {"originPostalCode": origin, "destPostalCode": dest, "items": [item]}
    if origin_type:
        body["originType"] = origin_type
    if dest_type:
        body["destType"] = dest_type
    return body


def first_ok(quote: dict[str, Any], mode: str | None = None) -> dict[str, Any]:
    """The cheapest bookable rate of a quote (of one mode, if given)."""
    rates: list[dict[str, Any]] = quote["rates"]
    for rate in rates:
        if rate["status"] == "ok" and (mode is None or rate["mode"] == mode):
            return rate
    raise AssertionError(f"no ok {mode or ''} rate in {quote['rates']}")


@pytest.fixture
def clock() -> Clock:
    """A clock starting on a Tuesday morning (UTC)."""
    return Clock(datetime(2026, 3, 10, 14, 0, tzinfo=UTC))


@pytest.fixture
def clocked_app(sandbox_config: SandboxConfig, clock: Clock) -> Iterator[SandboxApp]:
    """The sandbox app with time under the test's control."""
    app = create_app(dataclasses.replace(sandbox_config, now=clock.now))
    yield app
    app.close()


def _client(app: SandboxApp, token: str | None = DEMO_TOKEN) -> httpx.AsyncClient:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test", headers=headers
    )


@pytest.fixture
async def client(sandbox_app: SandboxApp) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client of the demo account on the fixture app."""
    async with _client(sandbox_app) as http:
        yield http


@pytest.fixture
async def clocked_client(clocked_app: SandboxApp) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client of the demo account on the app with a hand-moved clock."""
    async with _client(clocked_app) as http:
        yield http


def client_for(app: SandboxApp, token: str | None) -> httpx.AsyncClient:
    """An httpx client of any token (None: no Authorization header)."""
    return _client(app, token)
