"""Client-test fixtures on top of ``tests/sandbox_fixtures.py`` (the real sandbox, nothing mocked).

Here the sandbox is smaller (60 shipments, for speed) and runs on a settable clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tui.api import ClientOptions, FreightClient, RetryPolicy
from tui.sandbox import DEMO_TOKEN, SandboxConfig

BASE = "http://sandbox.test"
SHIPMENTS = 60
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
def sandbox_config(sandbox_config: SandboxConfig, clock: Clock) -> SandboxConfig:
    """The shared fixture's config with 60 shipments and the test's clock."""
    return replace(sandbox_config, shipments=SHIPMENTS, seed=11, now=clock)


@pytest.fixture
def asgi(sandbox_transport: httpx.ASGITransport, sandbox_base_url: str) -> httpx.ASGITransport:
    assert sandbox_base_url == BASE
    return sandbox_transport


@pytest.fixture
async def client(asgi: httpx.ASGITransport) -> AsyncIterator[FreightClient]:
    async with FreightClient(BASE, DEMO_TOKEN, transport=asgi, options=FAST) as c:
        yield c
