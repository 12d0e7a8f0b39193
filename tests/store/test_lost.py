"""A store that is lost (deleted, or a new one pointed at by mistake) is not a licence to
book again: each order's reference is the same wherever it is booked from, and a new store
asks the service for it before anything is sent."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.batch.test_book import Gate, engine_for, rated, sandbox
from tests.batch.test_engine import client_for
from tui.batch.book import book_orders
from tui.batch.pace import Pace
from tui.sandbox.app import SandboxApp
from tui.store import core

__all__ = ["sandbox"]  # the sandbox of the batch booking tests, a fixture


class Counting(Gate):
    """The batch tests' gate, counting shipment searches too."""

    searches = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == "/shipments":
            self.searches += 1
        return await super().handle_async_request(request)


async def test_a_lost_store_finds_the_bookings_on_the_service_and_sends_nothing(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = Counting(sandbox)
    async with client_for(gate) as client:
        first = await rated(tmp_path, client)
        await book_orders(first, engine_for(tmp_path, client), client, folder=None, pace=Pace(None))
        assert first.counts() == {"booked": 3}
        first.store.close()
        assert len(gate.bookings) == 3
        (tmp_path / "data" / "freight.sqlite3").unlink()  # the store is lost
        for suffix in ("-wal", "-shm"):
            (tmp_path / "data" / f"freight.sqlite3{suffix}").unlink(missing_ok=True)
        core._MADE_HERE.clear()  # as a new process would see it
        again = await rated(tmp_path, client)
        assert again.store.fresh
        await book_orders(again, engine_for(tmp_path, client), client, folder=None, pace=Pace(None))
    assert len(gate.bookings) == 3  # nothing sent again
    assert gate.searches >= 3  # each order asked for by its reference
    assert again.counts() == {"booked": 3}
    for key in ("B1", "B2", "B3"):
        assert again.state(key).reference == first.state(key).reference
        assert again.state(key).pro_number == first.state(key).pro_number


async def test_a_store_that_knows_its_bookings_asks_the_service_nothing_first(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = Counting(sandbox)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        core._MADE_HERE.clear()  # a store made by an earlier process
        await book_orders(batch, engine_for(tmp_path, client), client, folder=None, pace=Pace(None))
        assert gate.searches == 3  # the first booking of each order is looked up first
        gate.searches = 0
        await book_orders(batch, engine_for(tmp_path, client), client, folder=None, pace=Pace(None))
    assert len(gate.bookings) == 3
    assert gate.searches == 0  # the ledger holds each booking: nothing to ask
