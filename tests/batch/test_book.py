"""Booking a batch through the one booking engine on the sandbox: each order under its own
reference, never twice (a rerun, a crash after sending, another batch of the same orders),
an unknown outcome searched for before anything is sent again, the paperwork in one folder."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.batch.conftest import write
from tests.batch.test_engine import NOON_MONDAY, client_for, open_batch
from tui.api.client import FreightClient
from tui.api.models import BookingRequest
from tui.batch.book import (
    book_again,
    book_orders,
    booking_request,
    claimed,
    documents_folder,
    paperwork_files,
    print_calls,
    to_book,
)
from tui.batch.engine import Batch
from tui.batch.pace import Pace
from tui.booking import BookingEngine
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.store import open_ledger

ORDERS = (
    "Order,Ship From Zip,Consignee,Address,City,State,Zip,Contact,Phone,Handling Units,"
    "Unit Type,Weight,Length,Width,Height,Liftgate,Customer PO,Hazmat UN,Hazard Class,"
    "Description\n"
    "B1,60607,Peach Retail,88 Peachtree St NE,Atlanta,GA,30303,Sam Lee,404-555-0199,2,Pallet,"
    "1600,48,40,48,Y,PO-1,,,\n"
    "B2,30336,Lone Star DC,2400 Irving Blvd,Dallas,TX,75207,Alex Ruiz,214-555-0110,1,Drum,"
    "450,24,24,36,,PO-2,UN1263,3,Paint\n"
    "B3,60607,J. Rivera,17 Maple Ave,Oak Park,IL,60302,Jordan Rivera,708-555-0123,1,Crate,"
    "295,36,30,30,Y,,,,\n"
)


class Gate(httpx.AsyncBaseTransport):
    """Passes to the sandbox; counts bookings; ``lose`` loses the answer of some (the booking
    is made, its answer never arrives)."""

    def __init__(self, app: SandboxApp, lose: Callable[[dict[str, Any]], bool] | None = None):
        self.inner = httpx.ASGITransport(app=app)
        self.lose = lose
        self.bookings: list[dict[str, Any]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        response = await self.inner.handle_async_request(request)
        if request.url.path.startswith("/book"):
            sent = json.loads(body)
            self.bookings.append(sent)
            if self.lose is not None and self.lose(sent):
                await response.aread()
                raise httpx.ReadTimeout("the answer was lost", request=request)
        return response


@pytest.fixture
def sandbox(sandbox_config: SandboxConfig) -> Iterator[SandboxApp]:
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: NOON_MONDAY, shipments=5))
    yield app
    app.close()


async def rated(tmp_path: Path, client: FreightClient, name: str = "orders.csv") -> Batch:
    batch = open_batch(tmp_path, write(tmp_path / name, ORDERS))
    await batch.rate(client, pace=Pace(None))
    assert batch.counts() == {"rated": 3}
    return batch


def engine_for(tmp_path: Path, client: FreightClient) -> BookingEngine:
    return BookingEngine(client, open_ledger(tmp_path / "data", "sandbox"), "demo")


async def test_every_rated_order_is_booked_once_with_its_paperwork(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = Gate(sandbox)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        folder = documents_folder(tmp_path / "docs", batch)
        engine = engine_for(tmp_path, client)
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None))
        assert batch.counts() == {"booked": 3}
        assert len(gate.bookings) == 3
        # a rerun books nothing: every order is booked
        assert to_book(batch) == []
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None))
        assert len(gate.bookings) == 3
    sent = {body["originReferenceNumber"]: body for body in gate.bookings}
    assert set(sent) == {"B1", "B2", "B3"}  # the order number is the shipper's reference
    assert sent["B1"]["destReferenceNumber"] == "PO-1"
    assert sent["B1"]["destCompany"] == "Peach Retail"
    assert sent["B1"]["destContactPhone"] == "404-555-0199"
    assert sent["B2"]["originCompany"] == "Acme Dock Co"  # the Atlanta dock's address
    assert sent["B2"]["originAddress"] == "4500 Fulton Industrial Blvd SW"
    assert sent["B2"]["emergencyName"] == "Acme Safety Desk"
    assert sent["B2"]["schedulePickup"] is True
    references = {batch.state(k).reference for k in ("B1", "B2", "B3")}
    assert len(references) == 3
    assert {body["reference"] for body in gate.bookings} == references
    for key in ("B1", "B2", "B3"):
        state = batch.state(key)
        assert state.pro_number
        assert state.bol_number
        assert state.documents
        assert all(name.startswith(f"{key}-") for name in state.documents)
    files = paperwork_files(batch, folder)
    assert folder.name == "batch-orders"
    assert {p.parent for p in files} == {folder}
    assert any(p.read_bytes().startswith(b"%PDF-") for p in files)
    calls = print_calls(files, document_printer="office", label_printer="zebra")
    assert [(c.printer, c.raw) for c in calls] == [("office", False), ("zebra", True)]
    assert sum(len(c.paths) for c in calls) == len(files)  # two jobs for the whole batch
    records = [r for r in batch.records() if r["status"] == "booked"]
    assert {r["proNumber"] for r in records} == {batch.state(k).pro_number for k in sent}


async def test_a_lost_answer_is_searched_for_and_never_sent_again(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    lost = {"B2"}
    gate = Gate(sandbox, lose=lambda body: body["originReferenceNumber"] in lost)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        await book_orders(batch, engine, client, folder=None, pace=Pace(None))
        assert len(gate.bookings) == 3
        state = batch.state("B2")
        # the engine searched at once and found it by its reference: booked, proven
        assert state.status == "booked"
        assert state.pro_number
        assert any("found by a search" in note for note in state.notes)
        lost.clear()
        await book_orders(batch, engine, client, folder=None, pace=Pace(None))
        assert len(gate.bookings) == 3


async def test_a_kill_after_sending_is_settled_by_the_next_run(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    """The process dies after the booking went out and before the batch heard back: the
    batch says `booking` with its reference; the next run searches, never sends again."""
    gate = Gate(sandbox)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        order = batch.order("B1")
        assert order is not None
        state = batch.state("B1").updated(status="booking", reference="FRT00000000B1")
        batch.save(state)
        # what the dead process did: its ledger line, then the request (answer never heard)
        request = booking_request(order, state)
        assert isinstance(request, BookingRequest)  # an LTL rate
        record = engine.ledger.sent("demo", request.quote_id, request.rate_id, "FRT00000000B1")
        await client.book(request.model_copy(update={"reference": record.reference}))
        assert len(gate.bookings) == 1
        batch.store.close()
        again = open_batch(tmp_path, tmp_path / "orders.csv")
        assert again.state("B1").status == "booking"
        await book_orders(again, engine, client, folder=None, pace=Pace(None))
    assert again.counts() == {"booked": 3}
    assert len(gate.bookings) == 3  # B1 once (before the kill), B2 and B3 once each
    assert again.state("B1").reference == "FRT00000000B1"


async def test_an_order_booked_in_another_batch_is_not_booked_again(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = Gate(sandbox)
    async with client_for(gate) as client:
        first = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        await book_orders(first, engine, client, folder=None, pace=Pace(None))
        first.store.close()
        renamed = open_batch(tmp_path, write(tmp_path / "orders-copy.csv", ORDERS))
        # A copy of a booked file: its orders read booked at once, and are not rated again.
        assert renamed.counts() == {"booked": 3}
        assert renamed.to_rate() == []
        await renamed.rate(client, pace=Pace(None))
        await book_orders(renamed, engine, client, folder=None, pace=Pace(None))
    assert len(gate.bookings) == 3
    assert renamed.counts() == {"booked": 3}
    for key in ("B1", "B2", "B3"):
        assert renamed.state(key).reference == first.state(key).reference
        assert renamed.state(key).pro_number == first.state(key).pro_number != ""
    assert renamed.state("B1").notes[-1] == (
        "booked in the batch of orders.csv: not rated or sent again"
    )
    again = open_batch(tmp_path, write(tmp_path / "orders-copy.csv", ORDERS))  # as kept
    assert again.counts() == {"booked": 3}


async def test_a_booking_run_never_sends_an_order_another_batch_booked(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    """Rated in a second file before the first was booked: the ledger's claim holds."""
    gate = Gate(sandbox)
    async with client_for(gate) as client:
        first = await rated(tmp_path, client)
        second = await rated(tmp_path, client, "orders-copy.csv")
        engine = engine_for(tmp_path, client)
        await book_orders(first, engine, client, folder=None, pace=Pace(None))
        await book_orders(second, engine, client, folder=None, pace=Pace(None))
    assert len(gate.bookings) == 3
    assert second.counts() == {"booked": 3}
    (note,) = second.state("B1").notes
    assert note.startswith(f"booked by {engine.ledger.station} at ")
    assert note.endswith(f"as {first.state('B1').reference}, not sent again")


async def test_an_expired_quote_is_refused_with_what_to_do(
    tmp_path: Path, sandbox_config: SandboxConfig
) -> None:
    from datetime import timedelta

    moments = [NOON_MONDAY]
    app = create_app(
        dataclasses.replace(
            sandbox_config, now=lambda: moments[-1], shipments=5, quote_ttl=timedelta(hours=1)
        )
    )
    try:
        gate = Gate(app)
        async with client_for(gate) as client:
            batch = await rated(tmp_path, client)
            moments.append(NOON_MONDAY + timedelta(hours=2))
            await book_orders(batch, engine_for(tmp_path, client), client, folder=None)
    finally:
        app.close()
    assert batch.counts() == {"failed": 3}
    assert "the quote expired before it was booked: rate it again" in batch.state("B1").error_text


class Unanswered(Gate):
    """Passes to the sandbox, but ``drop`` bookings never reach it and get a 502: the outcome
    is unknown and no search can find them."""

    def __init__(self, app: SandboxApp, drop: set[str]) -> None:
        super().__init__(app)
        self.drop = drop

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/book"):
            sent = json.loads(await request.aread())
            if sent["originReferenceNumber"] in self.drop:
                self.bookings.append(sent)
                return httpx.Response(502, json={"message": "bad gateway"})
        return await super().handle_async_request(request)


async def test_an_unknown_booking_the_user_disowns_is_booked_again_under_a_new_reference(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = Unanswered(sandbox, drop={"B2"})
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        await book_orders(batch, engine, client, folder=None, pace=Pace(None), keys=["B2"])
        assert batch.counts() == {"unknown": 1, "rated": 2}  # keys: only B2 was sent
        first = batch.state("B2").reference
        with pytest.raises(ValueError, match="no booking of unknown outcome"):
            book_again(batch, "B1", first)
        with pytest.raises(ValueError, match="not FRT"):
            book_again(batch, "B2", "FRT-not-it")
        # a rerun only searches: nothing is sent again by accident
        await book_orders(batch, engine, client, folder=None, pace=Pace(None), keys=["B2"])
        assert len(gate.bookings) == 1
        assert batch.state("B2").status == "unknown"
        again = book_again(batch, "B2", first, engine.ledger)
        assert again.status == "rated"
        assert again.reference != first
        gate.drop.clear()
        await book_orders(batch, engine, client, folder=None, pace=Pace(None), keys=["B2"])
        assert len(gate.bookings) == 2
        assert batch.state("B2").status == "booked"
        assert {body["reference"] for body in gate.bookings} == {first, again.reference}


async def test_an_unknown_booking_the_user_recognises_is_booked_with_its_shipments_numbers(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = Unanswered(sandbox, drop={"B3"})
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        await book_orders(batch, engine, client, folder=None, pace=Pace(None), keys=["B3"])
        state = batch.state("B3")
        record = engine.record(state.reference)
        assert record is not None
        assert claimed(batch, "B3", record).status == "unknown"  # the ledger says unknown
        found = (await client.search_shipments({})).shipments[0]
        outcome = await engine.confirm(record, found, "same lane")
        assert outcome.record is not None
        after = claimed(batch, "B3", outcome.record)
        assert after.status == "booked"
        assert after.shipment_id == found.id
        assert batch.state("B3").status == "booked"


async def test_a_pickup_the_service_moves_is_the_batchs_pickup_with_its_reason(
    tmp_path: Path, sandbox_config: SandboxConfig
) -> None:
    """Booked on Thanksgiving eve for the day after (not a federal holiday, so the batch keeps
    it): the service moves the pickup to Monday and says why; the order, its record and the
    results file carry Monday and the reason."""
    from datetime import UTC, date, datetime

    from tui.batch.engine import source_id
    from tui.batch.fields import guess_mapping
    from tui.batch.orders import context_for
    from tui.batch.results import results_text
    from tui.batch.source import read_file
    from tui.batch.store import SharedBatchStore
    from tui.demo_profile import demo_profile

    eve = datetime(2026, 11, 25, 21, 0, tzinfo=UTC)
    app = create_app(dataclasses.replace(sandbox_config, now=lambda: eve, shipments=5))
    try:
        lines = ORDERS.splitlines()
        orders = write(
            tmp_path / "friday.csv",
            lines[0] + ",Ship Date\n" + lines[1] + ",2026-11-27\n",
        )
        sheet = read_file(orders)
        batch = Batch.open(
            SharedBatchStore.in_dir(tmp_path / "data"),
            "demo",
            source_id(orders),
            sheet,
            guess_mapping(sheet.headers),
            context_for(demo_profile(), date(2026, 11, 25)),
        )
        async with client_for(Gate(app)) as client:
            await batch.rate(client, pace=Pace(None))
            assert batch.counts() == {"rated": 1}
            # the 27th is a business day to the batch: kept, with the warning the app gives
            assert batch.state("B1").notes == (
                "pickup 2026-11-27 is the day after Thanksgiving: many carriers close, "
                "the pickup may move",
            )
            await book_orders(
                batch, engine_for(tmp_path, client), client, folder=None, pace=Pace(None)
            )
    finally:
        app.close()
    state = batch.state("B1")
    assert state.status == "booked"
    assert state.pickup_date == "2026-11-30"
    assert any("day after Thanksgiving" in note for note in state.notes), state.notes
    [record] = batch.records()
    assert record["pickupDate"] == "2026-11-30"
    assert ",2026-11-30," in results_text(sheet, batch.orders, batch.states)


def test_a_booking_kept_before_paperwork_was_owed_owes_it_when_none_was_saved() -> None:
    from tui.batch.model import OrderState

    booked = OrderState("B1", status="booked", reference="FRT1").to_json()
    del booked["paperwork_missing"]  # as a batch store written before kept it
    assert OrderState.from_json(booked).owes_paperwork
    saved = {**booked, "documents": ["B1-bol.pdf"]}
    assert not OrderState.from_json(saved).owes_paperwork
    settled = OrderState("B1", status="booked", reference="FRT1", paperwork_missing="")
    assert not OrderState.from_json(settled.to_json()).owes_paperwork  # nothing to fetch
    owing = settled.updated(paperwork_missing="the document host d.example:8443 answered 503")
    assert OrderState.from_json(owing.to_json()) == owing


class OneShipment(Gate):
    """Answers every booking with the first booking's shipment id (a service's mix-up)."""

    def __init__(self, app: SandboxApp) -> None:
        super().__init__(app)
        self.first: str | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if not request.url.path.startswith("/book") or response.status_code >= 300:
            return response
        body = json.loads(await response.aread())
        for name in ("shipmentId", "id"):
            if name in body:
                self.first = self.first or body[name]
                body[name] = self.first
        return httpx.Response(response.status_code, json=body)


@pytest.mark.slow
async def test_a_shipment_id_returned_for_two_orders_is_flagged(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    gate = OneShipment(sandbox)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        await book_orders(batch, engine, client, folder=None, pace=Pace(None), concurrency=1)
    assert len(gate.bookings) == 3  # each sent once: the service said booked
    states = [batch.state(k) for k in ("B1", "B2", "B3")]
    assert {s.shipment_id for s in states} == {gate.first}
    assert all(s.status == "booked" for s in states)
    flagged = {s.key: s.error_text for s in states}
    assert "for order B2 too" in flagged["B1"]
    assert "for order B1 too" in flagged["B2"]
    assert "check both on Shipments" in flagged["B3"]
    kept = batch.store.orders(batch.info.id)  # kept so, not only shown
    assert all("check both on Shipments" in kept[k].error_text for k in ("B1", "B2", "B3"))


class LabelPerPackage(Gate):
    """Answers a booking with one label document per package (4 boxes, 4 labels)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if not request.url.path.startswith("/book") or response.status_code >= 300:
            return response
        body = json.loads(await response.aread())
        for name in ("documents", "labels"):
            listed = body.get(name)
            if not listed:
                continue
            label = next(d for d in listed if d["url"].endswith("label.pdf"))
            others = [d for d in listed if "label" not in d["url"]]
            body[name] = others + [
                {**label, "name": f"Package {n} label", "url": f"{label['url']}?package={n}"}
                for n in range(1, 5)
            ]
        return httpx.Response(response.status_code, json=body)


@pytest.mark.slow
async def test_every_label_of_a_booking_is_kept(tmp_path: Path, sandbox: SandboxApp) -> None:
    gate = LabelPerPackage(sandbox)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        folder = documents_folder(tmp_path / "docs", batch)
        engine = engine_for(tmp_path, client)
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None), keys=["B1"])
        state = batch.state("B1")
        labels = [name for name in state.documents if name.endswith(".pdf") and "bol" not in name]
        assert len(labels) == 4, state.documents  # "saved" means every document listed
        assert all((folder / name).is_file() for name in state.documents)
        assert not state.owes_paperwork
        # A second run saves nothing again: each label is known by its own name.
        await book_orders(batch, engine, client, folder=folder, pace=Pace(None), keys=["B1"])
    assert batch.state("B1").documents == state.documents
    assert sorted(p.name for p in folder.iterdir()) == sorted(state.documents)


class LongRetryAfter(Gate):
    """Answers every booking 429 with a Retry-After of 27 hours."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/book"):
            self.bookings.append(json.loads(await request.aread()))
            return httpx.Response(
                429, headers={"Retry-After": "100000"}, json={"message": "slow down"}
            )
        return await super().handle_async_request(request)


@pytest.mark.slow
async def test_orders_stopped_by_a_long_retry_after_read_rated_not_unknown(
    tmp_path: Path, sandbox: SandboxApp
) -> None:
    from tui.batch.model import OUTPUT_STATUS
    from tui.batch.pace import WaitTooLongError

    async def never(_: float) -> None:  # the others wait for the first answer: stopped there
        await asyncio.Event().wait()

    gate = LongRetryAfter(sandbox)
    async with client_for(gate) as client:
        batch = await rated(tmp_path, client)
        engine = engine_for(tmp_path, client)
        with pytest.raises((WaitTooLongError, ExceptionGroup)):
            await book_orders(
                batch, engine, client, folder=None, pace=Pace(None, sleep=never), concurrency=3
            )
    assert len(gate.bookings) == 1  # one was sent, and refused with the long wait
    assert batch.counts() == {"rated": 3}
    kept = batch.store.orders(batch.info.id)
    assert {OUTPUT_STATUS[s.status] for s in kept.values()} == {"rated"}
