"""Shared helpers for the shipments tests: a 2,000-shipment sandbox and opening the list."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx

from tests.sandbox_fixtures import SANDBOX_BASE_URL, copy_seeded_db
from tests.ui.screen import wait_for
from tui.app import FreightApp, make_app
from tui.listing.rows import ShipmentRow
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.screens.shipments import ShipmentsScreen
from tui.session import Session
from tui.widgets.virtual_table import VirtualTable


def seeded_sandbox(tmp_path: Path, **overrides: Any) -> SandboxApp:
    """A sandbox on a private copy of the 2,000-shipment database."""
    config = SandboxConfig(
        db_path=copy_seeded_db(tmp_path), rate_limit=10_000.0, rate_burst=10_000, **overrides
    )
    return create_app(config)


def service_client(sandbox: SandboxApp) -> httpx.AsyncClient:
    """A client straight to the sandbox (not through the app), signed in as the demo."""
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox),
        base_url=SANDBOX_BASE_URL,
        headers={"Authorization": f"Bearer {DEMO_TOKEN}"},
    )


def app_on(transport: httpx.AsyncBaseTransport, data_dir: Path | None = None) -> FreightApp:
    session = Session.for_testing(
        SANDBOX_BASE_URL, DEMO_TOKEN, transport=transport, data_dir=data_dir
    )
    return make_app(session)


def shipments_screen(app: FreightApp) -> ShipmentsScreen:
    screen = app.screen
    assert isinstance(screen, ShipmentsScreen), screen
    return screen


def table(app: FreightApp) -> VirtualTable[ShipmentRow]:
    return shipments_screen(app).table


async def open_shipments(pilot: Any, app: FreightApp) -> VirtualTable[ShipmentRow]:
    """Switch to the shipments list and wait for its first page."""
    app.show_shipments()
    await wait_for(pilot, lambda: isinstance(app.screen, ShipmentsScreen), what="shipments")
    screen = shipments_screen(app)
    await wait_for(pilot, lambda: bool(screen.query("#shipments-table")), what="composed")
    await wait_for(pilot, lambda: screen.table.row_count > 0 and not screen.is_loading, what="rows")
    return screen.table


class DelayFirstTransport(httpx.AsyncBaseTransport):
    """Delays the first search request until released (a slow answer for old filters)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.release = asyncio.Event()
        self.first_seen = asyncio.Event()
        self._searches = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/shipments"):
            self._searches += 1
            if self._searches == 2:  # the first page of the filtered search is held back
                self.first_seen.set()
                await self.release.wait()
        return await self.inner.handle_async_request(request)


class HeldSearches(httpx.AsyncBaseTransport):
    """While `hold` is set, each search waits for `release_one()`; `texts` lists the search
    text of every search sent while held, in order."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.hold = False
        self.texts: list[str] = []
        self._released = asyncio.Semaphore(0)

    def release_one(self) -> None:
        """Let one held search (the one in flight) be answered."""
        self._released.release()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        first_page = "continuationToken" not in str(request.url)
        if self.hold and first_page and request.url.path.endswith("/shipments"):
            self.texts.append(request.url.params.get("search", ""))
            await self._released.acquire()
        return await self.inner.handle_async_request(request)


class FailingTransport(httpx.AsyncBaseTransport):
    """Answers searches with `failure` while `failing` is set (the client retries GETs)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, failure: str = "503") -> None:
        self.inner = inner
        self.failing = False
        self.failure = failure
        self.failed = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.failing and request.url.path.endswith("/shipments"):
            self.failed += 1
            if self.failure == "connect":
                raise httpx.ConnectError("connection refused", request=request)
            if self.failure == "429":
                return httpx.Response(
                    429,
                    headers={"Retry-After": "0"},
                    json={"name": "RATE_LIMITED", "requestId": "r1", "message": "slow down"},
                    request=request,
                )
            return httpx.Response(
                503,
                json={"name": "UNAVAILABLE", "requestId": "r1", "message": "down for a moment"},
                request=request,
            )
        return await self.inner.handle_async_request(request)
