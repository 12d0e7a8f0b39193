"""Once over a real socket: uvicorn on a loopback port, keep-alive, every kind of call."""

from __future__ import annotations

from tests.api.conftest import SHIPMENTS
from tui.api import FreightClient, RateRequest, ShipmentQuery
from tui.sandbox.threaded import RunningSandbox


async def test_real_socket_round_trip(live_sandbox: RunningSandbox) -> None:
    async with FreightClient(live_sandbox.base_url, live_sandbox.token) as client:
        await client.verify()
        quote = await client.get_rates(
            RateRequest(
                origin_postal_code="30318",
                dest_postal_code="10001",
                items=[{"weight": 800, "length": 48, "width": 40, "height": 60,
                        "quantity": 1, "package": "pallet"}],
            )
        )  # fmt: skip
        assert any(r.is_ok for r in quote.rates)
        ids = [s.id async for s in client.iter_shipments(ShipmentQuery(), limit=8)]
        assert len(ids) == len(set(ids)) == SHIPMENTS
        detail = await client.get_shipment(ids[0])
        assert detail.id == ids[0]
        doc = next(d for d in detail.documents if d.format == "pdf")
        assert doc.url.startswith(live_sandbox.base_url)
        assert (await client.download_document(doc.url)).startswith(b"%PDF")


async def test_a_call_on_a_warm_connection_imports_nothing(live_sandbox: RunningSandbox) -> None:
    """httpcore looks for sniffio on every request; without it installed each call searched
    the whole import path and failed (a fifth of a search's time in the client)."""
    import sys
    from importlib.abc import MetaPathFinder

    looked_for: list[str] = []

    class Watch(MetaPathFinder):
        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            looked_for.append(name)

    async with FreightClient(live_sandbox.base_url, live_sandbox.token) as client:
        await client.search_shipments()  # warm: the connection and every lazy import
        watch = Watch()
        sys.meta_path.insert(0, watch)
        try:
            await client.search_shipments()
            await client.get_shipment((await client.search_shipments()).shipments[0].id)
        finally:
            sys.meta_path.remove(watch)
    assert looked_for == []
