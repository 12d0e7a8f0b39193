"""Sandbox-backed fixtures for the client tests (the real sandbox app over ASGI)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tui.api import ClientOptions, FreightClient, RetryPolicy
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp

BASE = "http://sandbox.test"
FAST = ClientOptions(retry=RetryPolicy(backoff_base=0.001, backoff_cap=0.002))


class Clock:
    """A settable clock for the sandbox (quotes expire, shipments move on)."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def sandbox(clock: Clock) -> Iterator[SandboxApp]:
    """A fresh in-memory sandbox with 60 seeded shipments and no practical rate limit."""
    app = create_app(
        SandboxConfig(shipments=60, seed=11, rate_limit=1e6, rate_burst=1_000_000, now=clock)
    )
    yield app
    app.close()


@pytest.fixture
def asgi(sandbox: SandboxApp) -> httpx.ASGITransport:
    return httpx.ASGITransport(app=sandbox)


@pytest.fixture
async def client(asgi: httpx.ASGITransport) -> AsyncIterator[FreightClient]:
    async with FreightClient(BASE, DEMO_TOKEN, transport=asgi, options=FAST) as c:
        yield c
