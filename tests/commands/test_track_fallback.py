"""`freight track` on a server whose search does not match ids (or finds nothing): the shipment
is asked for by id; and a detail without events shows its last event and delivery day."""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from tests.sandbox_fixtures import SANDBOX_BASE_URL
from tui.api.client import FreightClient
from tui.commands import track
from tui.commands.exits import NotFound
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.app import SandboxApp


class BlindSearch(httpx.AsyncBaseTransport):
    """The sandbox, but its search finds nothing and, with `no_events`, details and the
    tracking endpoint carry no events (a server that only summarises)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, *, no_events: bool = False) -> None:
        self.inner = inner
        self.no_events = no_events

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/shipments":
            return httpx.Response(200, json={"shipments": []})
        if self.no_events and path.endswith("/tracking"):
            return httpx.Response(404, json={"name": "NOT_FOUND"})
        response = await self.inner.handle_async_request(request)
        if self.no_events and path.startswith("/shipments/"):
            body = json.loads(await response.aread())
            body.pop("events", None)
            return httpx.Response(response.status_code, json=body)
        return response


def _args(number: str) -> argparse.Namespace:
    return argparse.Namespace(number=number, format="table", json=None, jq=None, fields=None)


async def _run(
    monkeypatch: pytest.MonkeyPatch, transport: httpx.AsyncBaseTransport, number: str
) -> str:
    @asynccontextmanager
    async def client_on(_args: Any) -> AsyncIterator[FreightClient]:
        async with FreightClient(SANDBOX_BASE_URL, DEMO_TOKEN, transport=transport) as client:
            yield client

    monkeypatch.setattr(track, "open_client", client_on)
    out = io.StringIO()
    status = await track.run(_args(number), out, io.StringIO())
    assert status == 0
    return out.getvalue()


async def _a_delivered_shipment(sandbox: SandboxApp) -> dict[str, Any]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox),
        base_url=SANDBOX_BASE_URL,
        headers={"Authorization": f"Bearer {DEMO_TOKEN}"},
    ) as client:
        page = (await client.get("/shipments", params={"status": "delivered"})).json()
        found: dict[str, Any] = page["shipments"][0]
        return found


async def test_an_id_the_search_does_not_match_is_asked_for_by_id(
    sandbox_app: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipment = await _a_delivered_shipment(sandbox_app)
    blind = BlindSearch(httpx.ASGITransport(app=sandbox_app))
    out = await _run(monkeypatch, blind, f" {shipment['id']} ")
    assert f"Shipment:   {shipment['id']}" in out
    assert "Status:     delivered" in out
    with pytest.raises(NotFound, match="tracking number or id 'shp_nosuchthing'"):
        await _run(monkeypatch, blind, "shp_nosuchthing")


async def test_no_events_listed_shows_the_last_known_state_not_no_events_yet(
    sandbox_app: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipment = await _a_delivered_shipment(sandbox_app)
    bare = BlindSearch(httpx.ASGITransport(app=sandbox_app), no_events=True)
    out = await _run(monkeypatch, bare, shipment["id"])
    assert "No events yet." not in out
    assert "Last event: none listed" in out
    assert "Delivery:   20" in out  # the delivery day the detail's tracking gives
    assert "Pickup:     20" in out
