"""Unit counts reach a server that follows the interface (`quantity`) and one that reads
`pieces`; a profile's [wire] table can narrow them; a --request body goes out as written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from tests.independent_server import TOKEN, IndependentServer, serve
from tui.api import FreightClient, InvalidRequestError, RateItem, RateRequest
from tui.cli import main
from tui.config.settings import Profile
from tui.sandbox import DEMO_TOKEN
from tui.session import client_options_for


def _pallets(count: int) -> RateRequest:
    item = RateItem(weight=500, length=48, width=40, height=48, quantity=count, package="pallet")
    return RateRequest(origin_postal_code="60607", dest_postal_code="30303", items=[item])


def _client(server: IndependentServer, item_count: object = None) -> FreightClient:
    wire = {} if item_count is None else {"item_count": item_count}
    profile = Profile.model_validate(
        {"name": "p", "base_url": "http://indie.test", "environment": "sandbox", "wire": wire}
    )
    return FreightClient(
        "http://indie.test",
        TOKEN,
        transport=httpx.ASGITransport(app=server.app()),
        options=client_options_for(profile),
    )


async def test_one_two_and_five_pallets_price_differently_on_a_server_of_the_interface() -> None:
    server = IndependentServer()
    async with _client(server) as client:
        totals = {}
        for count in (1, 2, 5):
            quote = await client.get_rates(_pallets(count))
            totals[count] = next(r.total for r in quote.rates if r.carrier_code == "MLFT")
            item = server.bodies[-1]["items"][0]
            assert (item["quantity"], item["pieces"]) == (count, count)  # both names
    assert totals == {1: Decimal("617.25"), 2: Decimal("1234.50"), 5: Decimal("3086.25")}


async def test_the_sandbox_prices_by_the_count_it_reads(
    sandbox_transport: httpx.ASGITransport, sandbox_base_url: str
) -> None:
    async with FreightClient(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport) as client:
        cheapest = []
        for count in (1, 2, 5):
            quote = await client.get_rates(_pallets(count))
            cheapest.append(min(r.total for r in quote.rates if r.is_ok and r.mode == "ltl"))
    assert cheapest[0] < cheapest[1] < cheapest[2]


async def test_a_profile_can_send_one_name_only() -> None:
    server = IndependentServer()
    async with _client(server, "quantity") as client:
        await client.get_rates(_pallets(2))
        assert server.bodies[-1]["items"][0] == {
            "weight": 500, "length": 48, "width": 40, "height": 48, "quantity": 2,
            "package": "Pallets",
        }  # fmt: skip
    async with _client(server, ["pieces"]) as client:
        # This server reads the interface's name only: told to send `pieces`, it is refused.
        with pytest.raises(InvalidRequestError) as refused:
            await client.get_rates(_pallets(2))
        assert "quantity" not in server.bodies[-1]["items"][0]
        assert refused.value.fields == {"items[0].quantity": "required"}


def test_a_request_file_goes_out_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {
        "originPostalCode": "60607",
        "destPostalCode": "30303",
        "originType": "business dock",
        "items": [
            {"weight": 500.5, "length": 48, "width": 40, "height": 48, "quantity": 5,
             "package": "Pallets", "description": "Five pallets"}
        ],
    }  # fmt: skip
    path = tmp_path / "request.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    server = IndependentServer()
    with serve(server) as url:
        monkeypatch.setenv("FREIGHT_BASE_URL", url)
        monkeypatch.setenv("FREIGHT_API_TOKEN", TOKEN)
        status = main(["rates", "--request", str(path), "--format", "json"])
    assert status == 0, capsys.readouterr().err
    assert server.bodies == [body]  # nothing renamed, nothing added, numbers as written
    rates = json.loads(capsys.readouterr().out)
    maple = next(r for r in rates if r["scac"] == "MLFT")
    assert maple["total"] == "3086.25"  # five pallets, priced as five


@pytest.fixture(autouse=True)
def _quiet_logs() -> Iterator[None]:
    yield
    from tui import logsetup

    logsetup.remove()
