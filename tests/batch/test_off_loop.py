"""No store call of a batch run waits on the event loop (the app's screen): its saves,
claims, lease renewals and reads go to worker threads, so a lock another process holds on
the store never freezes the app."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.batch.conftest import write
from tests.batch.test_book import ORDERS
from tests.batch.test_engine import NOON_MONDAY, client_for, open_batch
from tui.batch.book import book_orders, documents_folder
from tui.batch.pace import Pace
from tui.booking import BookingEngine
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.store import Store, open_ledger
from tui.store.engine import Engine, Listener, Row, Transaction


class OffLoopOnly:
    """An engine that notes every call made on a thread running an event loop."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.dialect = inner.dialect
        self.where = inner.where
        self.on_loop: list[str] = []
        self.calls = 0

    def _check(self, what: str) -> None:
        self.calls += 1
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # a worker thread: no loop here
        self.on_loop.append(what)

    def write(self) -> AbstractContextManager[Transaction]:
        self._check("write")
        return self.inner.write()

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._check(sql)
        return self.inner.read(sql, params)

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Row]:
        self._check(sql)
        return self.inner.stream(sql, params)

    def close(self) -> None:
        self.inner.close()

    def listen(self, channel: str, payload: str) -> Listener | None:
        self._check("listen")
        return self.inner.listen(channel, payload)


def guard(store: Store) -> OffLoopOnly:
    watched = OffLoopOnly(store.engine)
    store.engine = watched
    return watched


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


@pytest.mark.slow
async def test_a_batch_runs_saves_claims_and_renewals_never_run_on_the_loop(
    tmp_path: Path, sandbox: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.store

    monkeypatch.setattr(tui.store, "LEASE_S", 0.03)  # renewed every 10 ms while it books
    batch = open_batch(tmp_path, write(tmp_path / "orders.csv", ORDERS))
    batch_store = batch.store.store  # type: ignore[attr-defined]
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        ledger = open_ledger(tmp_path / "data", "sandbox")
        engine = BookingEngine(client, ledger, "demo")
        watched = [guard(batch_store), guard(ledger.store)]
        await batch.rate(client, pace=Pace(None))
        assert batch.counts() == {"rated": 3}
        folder = documents_folder(tmp_path / "docs", batch)
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None))
        assert batch.counts() == {"booked": 3}
    assert all(w.calls for w in watched)
    assert [w.on_loop for w in watched] == [[], []]
