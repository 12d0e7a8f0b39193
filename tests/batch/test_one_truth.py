"""Two stations on one store (SQLite and PostgreSQL), as two processes would be: each with its
own connection, station name and lease holder. Neither writes its stale view of an order over
the other's, each order is rated once, and the ``Stations:`` counts follow who booked what."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from tests.batch.conftest import MONDAY, write
from tests.batch.test_book import ORDERS, sandbox
from tests.batch.test_engine import Counting, client_for
from tui.batch.book import book_orders, documents_folder
from tui.batch.engine import Batch, source_id
from tui.batch.fields import guess_mapping
from tui.batch.follow import others_changes
from tui.batch.orders import context_for
from tui.batch.pace import Pace
from tui.batch.paperwork import owed
from tui.batch.source import read_file
from tui.batch.store import SharedBatchStore
from tui.booking import BookingEngine
from tui.commands.batch_watch import left, progress_line
from tui.demo_profile import demo_profile
from tui.sandbox.app import SandboxApp
from tui.store import Store, open_ledger, open_store

__all__ = ["sandbox"]  # a fixture this module uses

Station = Callable[[str], Batch]
"""Opens the orders file as one more station (its own store connection) named so."""


@pytest.fixture
def station(store_url: str, tmp_path: Path) -> Iterator[Station]:
    path = write(tmp_path / "orders.csv", ORDERS)
    opened: list[Store] = []

    def one(name: str) -> Batch:
        store = open_store(tmp_path / "data", store_url)
        opened.append(store)
        holder = f"{name}@{socket.gethostname()}:{os.getpid()}"
        shared = SharedBatchStore(store, name, holder)
        sheet = read_file(path)
        context = context_for(demo_profile(), MONDAY)
        mapping = guess_mapping(sheet.headers)
        return Batch.open(shared, "demo", source_id(path), sheet, mapping, context)

    yield one
    for store in opened:
        store.close()


async def test_a_stale_view_never_overwrites_another_stations_booking(
    station: Station, sandbox: SandboxApp
) -> None:
    a, b = station("pack-a"), station("pack-b")
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        await a.rate(client, pace=Pace(None))
    b.reload([o.key for o in b.orders])  # B sees B1 rated ...
    rated = b.state("B1")
    assert rated.status == "rated"
    a.save(a.state("B1").updated(status="booked", shipment_id="shp-1", pro_number="PRO-1"))
    # ... and, not having looked again, picks another of its rates by hand
    other = next(r for r in rated.rates if r.ok and r.id != rated.chosen)
    b.pick("B1", other.id)
    kept = station("pack-c").state("B1")
    assert (kept.status, kept.shipment_id) == ("booked", "shp-1")  # never booked again
    assert b.state("B1").status == "booked"  # B now sees the truth


async def test_two_stations_rating_at_once_rate_each_order_once(
    station: Station, sandbox: SandboxApp
) -> None:
    a, b = station("pack-a"), station("pack-b")
    one, two = (
        Counting(httpx.ASGITransport(app=sandbox)),
        Counting(httpx.ASGITransport(app=sandbox)),
    )
    async with client_for(one) as first, client_for(two) as second:
        await asyncio.gather(
            a.rate(first, pace=Pace(None), concurrency=1),
            b.rate(second, pace=Pace(None), concurrency=1),
        )
    assert one.rates + two.rates == 3
    seen = station("pack-c")
    assert seen.counts() == {"rated": 3}


def test_the_stations_line_counts_a_booking_for_the_station_that_made_it(
    station: Station,
) -> None:
    a, b = station("pack-a"), station("pack-b")
    batch_id = a.info.id
    assert a.store.claim(batch_id, ["B1"]) == []  # pending: nothing to book
    assert a.store.claim_to_rate(batch_id, ["B1"], False) == ["B1"]
    a.save(a.state("B1").updated(status="booked", shipment_id="shp-1"))
    a.store.release(batch_id)
    # B takes it to fetch the paperwork it owes: the booking stays A's
    assert b.store.claim(batch_id, ["B1"], booked=True) == ["B1"]
    assert b.store.stations(batch_id) == {"pack-a": {"booked": 1}}


async def test_a_document_written_before_a_crash_is_not_saved_twice(
    tmp_path: Path, station: Station, sandbox: SandboxApp
) -> None:
    batch = station("pack-a")
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        await batch.rate(client, pace=Pace(None))
        folder = documents_folder(tmp_path / "docs", batch)
        engine = BookingEngine(client, open_ledger(tmp_path / "data", "sandbox"), "demo")
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None), keys=["B1"])
        saved = batch.state("B1").documents
        assert saved
        assert not batch.state("B1").owes_paperwork
        # killed after writing the files, before keeping their names
        batch.save(batch.state("B1").updated(documents=(), paperwork_missing="not saved yet"))
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None), keys=["B1"])
    assert batch.state("B1").documents == saved
    assert not batch.state("B1").owes_paperwork
    assert sorted(p.name for p in folder.iterdir()) == sorted(saved)  # no -bol-2.pdf


def test_paperwork_another_process_saves_clears_paperwork_missing_here(station: Station) -> None:
    a, b = station("pack-a"), station("pack-b")
    batch_id = a.info.id
    assert a.store.claim_to_rate(batch_id, ["B1"], False) == ["B1"]
    a.save(owed(a.state("B1").updated(status="booked", shipment_id="shp-1")))
    a.store.release(batch_id)
    assert a.state("B1").owes_paperwork
    assert others_changes(a, {}) == ({"pack-a": {"booked": 1}}, [])
    # B (another terminal, or `freight batch paperwork`) fetches what B1 owes
    assert b.store.claim(batch_id, ["B1"], booked=True) == ["B1"]
    b.reload(["B1"])
    b.save(b.state("B1").updated(documents=("B1-bol.pdf",), paperwork_missing=""))
    _, changed = others_changes(a, {})
    assert [(s.key, s.owes_paperwork, s.documents) for s in changed] == [
        ("B1", False, ("B1-bol.pdf",))
    ]


async def test_a_station_sees_another_stations_rating_without_reopening(
    station: Station, sandbox: SandboxApp
) -> None:
    a, b = station("pack-a"), station("pack-b")
    assert b.counts() == {"pending": 3}
    async with client_for(httpx.ASGITransport(app=sandbox)) as client:
        await a.rate(client, pace=Pace(None))
    stations, changed = others_changes(b, {})
    assert stations == {"pack-a": {"rated": 3}}
    assert sorted((s.key, s.status) for s in changed) == [
        ("B1", "rated"),
        ("B2", "rated"),
        ("B3", "rated"),
    ]
    assert {s.key: s.choice for s in changed} == {k: a.state(k).choice for k in ("B1", "B2", "B3")}


def test_status_watch_waits_for_pending_orders_and_names_one_booked_elsewhere(
    station: Station,
) -> None:
    a, watcher = station("pack-a"), station("office")
    assert left(watcher) == 3  # none rated yet: another station may be rating them
    assert a.store.claim_to_rate(a.info.id, ["B2"], False) == ["B2"]
    a.save(a.state("B2").updated(status="booking", reference="FR-B2"))
    line = progress_line(watcher, datetime(2026, 11, 23, 10, 27, 40, tzinfo=UTC))
    assert line == "10:27:40 · pack-a 1 booking · booking elsewhere: B2 · 0 of 3 booked"
    assert left(watcher) == 3
