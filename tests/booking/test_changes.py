"""The change engine: a cancel recorded before it is sent, once, settled by asking the service."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, time
from pathlib import Path

import httpx
import pytest

from tests.api.faults import FaultTransport, forward_then
from tests.independent_server import CHANGES, TOKEN, IndependentServer
from tests.sandbox_fixtures import book_ltl_with_pickup
from tui.api import BookingRequest, FreightClient, PickupChange, RateRequest
from tui.api.changes import ShipmentChanges
from tui.booking.changes import ChangeEngine
from tui.config.settings import Profile
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.session import client_options_for
from tui.store import Store, open_store
from tui.store.changes import ChangeLog

START = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[SandboxApp]:
    config = SandboxConfig(
        db_path=tmp_path / "sb.sqlite3", shipments=20, rate_limit=0, now=lambda: START,
        clock_speed=1.0,
    )  # fmt: skip
    sandbox = create_app(config)
    yield sandbox
    sandbox.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(tmp_path / "data", url="")
    yield opened
    opened.close()


def _log(store: Store, station: str = "desk-1") -> ChangeLog:
    return ChangeLog(store, "shipping", "sandbox", station)


@pytest.fixture
async def client(app: SandboxApp) -> AsyncIterator[FreightClient]:
    async with FreightClient(
        "http://sandbox.test", DEMO_TOKEN, transport=httpx.ASGITransport(app=app)
    ) as c:
        yield c


async def _book(client: FreightClient) -> str:
    booked, _rate = await book_ltl_with_pickup(client)
    assert booked.shipment_id
    return booked.shipment_id


async def test_a_cancel_is_recorded_sent_once_and_touches_only_its_shipment(
    client: FreightClient, store: Store
) -> None:
    sid, other = await _book(client), await _book(client)
    engine = ChangeEngine(ShipmentChanges(client), _log(store))
    first = await engine.cancel(sid)
    assert (first.state, first.ok) == ("canceled", True)
    [record] = _log(store).of_shipment(sid)
    assert (record.kind, record.outcome, record.station) == ("cancel", "done", "desk-1")
    again = await ChangeEngine(ShipmentChanges(client), _log(store, "desk-2")).cancel(sid)
    assert again.state == "already"
    assert len(_log(store).of_shipment(sid)) == 1  # nothing more was sent
    assert (await client.get_shipment(other)).status != "canceled"
    assert _log(store).canceled() == {sid}


async def test_a_crash_after_sending_is_settled_by_asking_the_service(
    client: FreightClient, store: Store
) -> None:
    sid = await _book(client)
    log = _log(store)
    crashed = log.sent(sid, "cancel")  # recorded, then sent, then the station died
    await ShipmentChanges(client).cancel(sid)
    outcome = await ChangeEngine(ShipmentChanges(client), log).cancel(sid)
    assert outcome.state == "already"
    [record] = log.of_shipment(sid)
    assert (record.id, record.outcome, record.note) == (
        crashed.id,
        "done",
        "settled by asking the service",
    )


async def test_a_crash_before_sending_fails_the_record_and_sends_a_new_cancel(
    client: FreightClient, store: Store
) -> None:
    sid = await _book(client)
    log = _log(store)
    log.sent(sid, "cancel")  # recorded; the station died before a byte went out
    outcome = await ChangeEngine(ShipmentChanges(client), log).cancel(sid)
    assert outcome.state == "canceled"
    assert [r.outcome for r in log.of_shipment(sid)] == ["failed", "done"]
    assert (await client.get_shipment(sid)).status == "canceled"


async def test_a_lost_answer_is_settled_by_reading_the_shipment(
    app: SandboxApp, client: FreightClient, store: Store
) -> None:
    sid = await _book(client)
    inner = httpx.ASGITransport(app=app)
    faulty = FaultTransport(
        forward_then(inner, httpx.ReadError("connection reset")), fallback=inner
    )
    async with FreightClient("http://sandbox.test", DEMO_TOKEN, transport=faulty) as lossy:
        outcome = await ChangeEngine(ShipmentChanges(lossy), _log(store)).cancel(sid)
    assert outcome.state == "canceled"
    assert faulty.paths() == [f"POST /shipments/{sid}/cancel", f"GET /shipments/{sid}"]
    assert [r.outcome for r in _log(store).of_shipment(sid)] == ["done"]


async def test_a_pickup_is_moved_or_asked_for_and_a_refusal_is_recorded(
    client: FreightClient, store: Store
) -> None:
    sid = await _book(client)
    engine = ChangeEngine(ShipmentChanges(client), _log(store))
    canceled = await engine.pickup(sid, None)
    assert canceled.ok
    moved = await engine.pickup(
        sid, PickupChange(pickup_date=date(2026, 3, 12), ready=time(9), close=time(15))
    )
    assert moved.ok
    assert "2026-03-12, 09:00-15:00" in moved.message  # asked for anew
    assert (await client.get_shipment(sid)).pickup_date == date(2026, 3, 12)
    await engine.cancel(sid)
    refused = await engine.pickup(sid, PickupChange(pickup_date=date(2026, 3, 13)))
    assert (refused.ok, refused.reason) == (False, "canceled")
    kinds = [(r.kind, r.outcome) for r in _log(store).of_shipment(sid)]
    assert kinds == [
        ("pickup_cancel", "done"),
        ("pickup_change", "done"),
        ("cancel", "done"),
        ("pickup_change", "refused"),
    ]


async def test_the_engine_on_the_independent_server_refuses_a_picked_up_shipment(
    store: Store,
) -> None:
    server = IndependentServer()
    profile = Profile.model_validate(
        {"name": "indie", "base_url": "http://indie.test", "environment": "sandbox",
         "wire": {"change_paths": CHANGES}}
    )  # fmt: skip
    transport = httpx.ASGITransport(app=server.app())
    async with FreightClient(
        "http://indie.test", TOKEN, transport=transport, options=client_options_for(profile)
    ) as client:
        quote = await client.get_rates(
            RateRequest.model_validate(
                {"origin_postal_code": "30318", "dest_postal_code": "H4P 2N2",
                 "items": [{"weight": 640, "length": 48, "width": 40, "height": 50,
                            "quantity": 2, "package": "pallet"}]}
            )
        )  # fmt: skip
        for rate in quote.rates[:2]:
            await client.book(BookingRequest(quote_id=quote.id, rate_id=rate.id))
        server.shipments[1]["status"] = "Picked Up"
        engine = ChangeEngine(ShipmentChanges(client), _log(store))
        assert (await engine.cancel("SH0001")).state == "canceled"
        assert (await engine.cancel("SH0001")).state == "already"
        late = await engine.cancel("SH0002")
        assert late.state == "refused"
        assert "already picked up" in late.message
    assert server.requests["POST /shipments/SH0001/void"] == 1
    assert server.shipments[0]["status"] == "Cancelled"
    assert server.shipments[1]["status"] == "Picked Up"
    assert [r.outcome for r in _log(store).of_shipment("SH0002")] == ["refused"]
