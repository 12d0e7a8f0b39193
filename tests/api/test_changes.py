"""Cancel and pickup changes through the client, on the sandbox and on the independent server."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, time
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import FAST
from tests.independent_server import CHANGES, QUERY, TOKEN, IndependentServer
from tests.sandbox_fixtures import book_ltl_with_pickup
from tui.api import (
    BookingRequest,
    ChangeRefusedError,
    FreightClient,
    InvalidRequestError,
    NotFoundError,
    PickupChange,
    RateRequest,
)
from tui.api.changes import ShipmentChanges
from tui.api.wire import ChangePaths
from tui.config.settings import CHANGE_PATH_KEYS, Profile
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.session import client_options_for

START = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)  # a Tuesday; 09:00 in Atlanta


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Iterator[SandboxApp]:
    config = SandboxConfig(
        db_path=tmp_path / "sandbox.sqlite3", shipments=20, rate_limit=0, now=clock,
        clock_speed=1.0,
    )  # fmt: skip
    sandbox = create_app(config)
    yield sandbox
    sandbox.close()


@pytest.fixture
async def client(app: SandboxApp) -> AsyncIterator[FreightClient]:
    transport = httpx.ASGITransport(app=app)
    async with FreightClient("http://sandbox.test", DEMO_TOKEN, transport=transport,
                             options=FAST) as c:  # fmt: skip
        yield c


async def _book(client: FreightClient) -> str:
    booked, _rate = await book_ltl_with_pickup(client)
    assert booked.shipment_id
    return booked.shipment_id


def test_the_profile_keys_are_the_wire_names() -> None:
    assert tuple(f.name for f in dataclasses.fields(ChangePaths)) == CHANGE_PATH_KEYS


def test_a_pickup_window_must_close_after_it_opens() -> None:
    with pytest.raises(ValueError, match="close time"):
        PickupChange(pickup_date=date(2026, 3, 12), ready=time(15), close=time(9))


async def test_cancel_twice_on_the_sandbox_cancels_once(client: FreightClient) -> None:
    sid = await _book(client)
    changes = ShipmentChanges(client)
    first = await changes.cancel(sid)
    assert (first.shipment_id, first.status, first.already) == (sid, "canceled", False)
    second = await changes.cancel(sid)
    assert second.already
    assert (await client.get_shipment(sid)).status == "canceled"


async def test_pickup_move_cancel_request_and_refusals_on_the_sandbox(
    client: FreightClient, clock: Clock
) -> None:
    sid = await _book(client)
    changes = ShipmentChanges(client)
    moved = await changes.change_pickup(
        sid, PickupChange(pickup_date=date(2026, 3, 13), ready=time(9), close=time(15))
    )
    assert moved.pickup_date == date(2026, 3, 13)
    assert moved.pickup_confirmation
    detail = await client.get_shipment(sid)
    assert detail.pickup_date == date(2026, 3, 13)
    await changes.cancel_pickup(sid)
    with pytest.raises(ChangeRefusedError) as none:
        await changes.cancel_pickup(sid)
    assert none.value.reason == "no-pickup"
    asked = await changes.request_pickup(sid, PickupChange(pickup_date=date(2026, 3, 16)))
    assert asked.pickup_confirmation not in (None, moved.pickup_confirmation)
    clock.now = datetime(2026, 3, 16, 14, 1, tzinfo=UTC)  # 10:01 in Atlanta: past cut-off
    with pytest.raises(ChangeRefusedError) as late:
        await changes.cancel(sid)
    assert late.value.reason == "cutoff"
    assert "cut-off" in str(late.value)
    clock.now = datetime(2026, 3, 17, 14, 30, tzinfo=UTC)
    with pytest.raises(ChangeRefusedError) as gone:
        await changes.change_pickup(sid, PickupChange(pickup_date=date(2026, 3, 18)))
    assert gone.value.reason == "picked-up"
    assert (await client.get_shipment(sid)).status in ("picked-up", "delivered")


async def test_a_field_error_stays_a_field_error(client: FreightClient) -> None:
    sid = await _book(client)
    with pytest.raises(InvalidRequestError) as weekend:
        await ShipmentChanges(client).change_pickup(
            sid, PickupChange(pickup_date=date(2026, 3, 14))
        )
    assert "pickupDate" in weekend.value.fields
    with pytest.raises(NotFoundError) as elsewhere:  # its id stays one path segment
        await ShipmentChanges(client).cancel("../../rates")
    assert "/shipments/../../rates/cancel" in str(elsewhere.value)


def _indie_profile() -> Profile:
    return Profile.model_validate(
        {
            "name": "indie",
            "base_url": "http://indie.test",
            "environment": "sandbox",
            "wire": {
                "search_params": {"search": QUERY["text"], "status": QUERY["status"],
                                  "mode": QUERY["mode"], "continuationToken": QUERY["token"],
                                  "limit": QUERY["size"]},
                "change_paths": CHANGES,
            },
        }
    )  # fmt: skip


async def test_cancel_and_pickup_on_the_independent_server_with_its_refusal() -> None:
    server = IndependentServer()
    transport = httpx.ASGITransport(app=server.app())
    options = client_options_for(_indie_profile())
    async with FreightClient("http://indie.test", TOKEN, transport=transport,
                             options=options) as client:  # fmt: skip
        quote = await client.get_rates(
            RateRequest.model_validate(
                {"origin_postal_code": "30318", "dest_postal_code": "H4P 2N2",
                 "items": [{"weight": 640, "length": 48, "width": 40, "height": 50,
                            "quantity": 2, "package": "pallet"}]}
            )
        )  # fmt: skip
        for rate in quote.rates[:2]:
            await client.book(BookingRequest(quote_id=quote.id, rate_id=rate.id))
        changes = ShipmentChanges(client)
        moved = await changes.change_pickup(
            "SH0001", PickupChange(pickup_date=date(2026, 11, 24), ready=time(8), close=time(14))
        )
        assert moved.pickup_confirmation
        assert moved.pickup_confirmation.startswith("PUX")
        sent = server.bodies[-1]
        assert sent == {"date": "2026-11-24", "readyBy": "08:00 AM", "closeAt": "02:00 PM"}
        canceled_pickup = await changes.cancel_pickup("SH0001")  # a 204, no body
        assert canceled_pickup.shipment_id == "SH0001"
        assert server.shipments[0]["pickupDate"] is None
        done = await changes.cancel("SH0001")
        assert not done.already
        again = await changes.cancel("SH0001")
        assert again.already
        assert server.requests["POST /shipments/SH0001/void"] == 2
        server.shipments[1]["status"] = "Picked Up"
        with pytest.raises(ChangeRefusedError) as late:
            await changes.cancel("SH0002")
        assert late.value.reason == "picked-up"
        assert late.value.status == 422
        assert server.shipments[1]["status"] == "Picked Up"
        assert (await client.get_shipment("SH0002")).status == "picked-up"
