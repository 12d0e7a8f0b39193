"""POST /rates: quotes that look like real freight rates, and 400s naming the bad field."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import rate_body
from tests.sandbox.test_errors import assert_error


def ok_rates(quote: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in quote["rates"] if r["status"] == "ok"]


async def quote_for(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/rates", json=body)
    assert response.status_code == 200, response.text
    quote: dict[str, Any] = response.json()
    return quote


async def test_carriers_are_named_as_given_with_no_environment_tag(
    client: httpx.AsyncClient,
) -> None:
    """The real service's `carrier` is the carrier's display name (real-service.md): the
    sandbox names its fictional carriers the same way; the header says it is a sandbox."""
    names = {rate["carrier"] for rate in ok_rates(await quote_for(client, rate_body()))}
    assert "Harrowgate Freight Lines" in names
    for name in names:
        assert "SANDBOX" not in name.upper()


async def test_quote_shape_and_charges_sum_to_total(client: httpx.AsyncClient) -> None:
    response = await client.post("/rates", json=rate_body(dest_type="business-no-dock"))
    assert response.status_code == 200
    assert '"total":' in response.text
    quote = response.json()
    assert quote["id"].startswith("q_")
    assert quote["originPostalCode"] == "60601"
    assert quote["expiresAt"] > quote["createdDate"]
    rates = ok_rates(quote)
    assert len(rates) >= 2
    for rate in rates:
        assert rate["id"].startswith("r_")
        assert rate["carrier"]
        assert rate["mode"] == "ltl"
        assert rate["currency"] == "USD"
        assert 1 <= rate["days"] <= 9
        names = [c["name"] for c in rate["charges"]]
        assert names[:3] == ["linehaul", "discount", "fuel"]
        assert "liftgate-delivery" in names
        discount = next(c for c in rate["charges"] if c["name"] == "discount")
        assert Decimal(str(discount["amount"])) <= 0
        total = sum(Decimal(str(c["amount"])) for c in rate["charges"])
        assert total == Decimal(str(rate["total"]))
    totals = [Decimal(str(r["total"])) for r in rates]
    assert totals == sorted(totals)
    # Chicago -> Atlanta, one 800 lb pallet: a few hundred dollars, as in real life.
    assert Decimal(150) < totals[0] < Decimal(700)


async def test_money_has_two_decimals_on_the_wire(client: httpx.AsyncClient) -> None:
    response = await client.post("/rates", json=rate_body())
    import re

    for number in re.findall(r'"(?:total|amount)":(-?[0-9.]+)', response.text):
        assert re.fullmatch(r"-?\d+\.\d\d", number), number


async def test_same_request_same_day_same_rates(client: httpx.AsyncClient) -> None:
    first = await quote_for(client, rate_body())
    second = await quote_for(client, rate_body())
    assert first["id"] != second["id"]

    def key(quote: dict[str, Any]) -> list[tuple[str, str, float]]:
        return [(r["id"], r["carrierCode"], r["total"]) for r in quote["rates"]]

    assert key(first) == key(second)


async def test_regional_carriers_outside_their_area_say_why(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body("60601", "98101"))  # Chicago -> Seattle
    by_code = {r["carrierCode"]: r for r in quote["rates"]}
    for code in ("MGGC", "KAML", "CSFW", "LKIF"):
        assert by_code[code]["status"] == "unavailable"
        assert by_code[code]["total"] == 0
        assert by_code[code]["charges"] == []
        assert "No direct service" in by_code[code]["message"]
    inside = await quote_for(client, rate_body("75201", "77002"))  # Dallas -> Houston
    magnolia = next(r for r in inside["rates"] if r["carrierCode"] == "MGGC")
    assert magnolia["status"] == "ok"
    assert magnolia["days"] == 1


async def test_parcel_rates_only_for_parcel_sized_items(client: httpx.AsyncClient) -> None:
    small = await quote_for(
        client, rate_body(weight=12, dims=(16, 12, 10), freight_class=None, package="box")
    )
    parcel = [r for r in ok_rates(small) if r["mode"] == "parcel"]
    assert {r["serviceType"] for r in parcel} == {"Ground", "3 Day", "2 Day", "Overnight"}
    ground = next(r for r in parcel if r["serviceType"] == "Ground")
    overnight = next(r for r in parcel if r["serviceType"] == "Overnight")
    assert ground["total"] < overnight["total"]
    assert overnight["days"] == 1
    pallet = await quote_for(client, rate_body(weight=800))
    assert not [r for r in pallet["rates"] if r["mode"] == "parcel"]


async def test_truckload_for_heavy_loads_only(client: httpx.AsyncClient) -> None:
    heavy = await quote_for(client, rate_body(weight=1500, quantity=12))
    modes = {r["mode"] for r in ok_rates(heavy)}
    assert {"ltl", "truckload"} <= modes
    truckload = [r for r in ok_rates(heavy) if r["mode"] == "truckload"]
    assert all(r["expiresAt"] < heavy["expiresAt"] for r in truckload)
    light = await quote_for(client, rate_body(weight=500))
    assert "truckload" not in {r["mode"] for r in light["rates"]}


async def test_class_from_density_when_not_given(client: httpx.AsyncClient) -> None:
    dense = await quote_for(client, rate_body(weight=1000, freight_class=None))
    light = await quote_for(client, rate_body(weight=1000, freight_class=None, dims=(96, 48, 96)))
    cheapest = {r["carrierCode"]: r["total"] for r in ok_rates(dense)}
    bulky = {r["carrierCode"]: r["total"] for r in ok_rates(light)}
    assert bulky["BCXP"] > cheapest["BCXP"]


async def test_residential_costs_more_and_adds_a_day(client: httpx.AsyncClient) -> None:
    dock = {
        (r["carrierCode"], r["serviceType"]): r
        for r in ok_rates(await quote_for(client, rate_body()))
    }
    home = await quote_for(client, rate_body(dest_type="residential"))
    for rate in ok_rates(home):
        if rate["serviceType"] != "Standard":
            continue
        names = {c["name"] for c in rate["charges"]}
        assert {"residential-delivery", "liftgate-delivery"} <= names
        before = dock[(rate["carrierCode"], rate["serviceType"])]
        assert rate["total"] > before["total"]
        assert rate["days"] == before["days"] + 1


async def test_alaska_has_no_direct_ltl(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body("60601", "99501"))
    ltl = [r for r in quote["rates"] if r["mode"] == "ltl"]
    assert ltl
    assert all(r["status"] == "unavailable" for r in ltl)


def _items(count: int) -> list[dict[str, Any]]:
    return rate_body()["items"] * count  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"originPostalCode": "6060"}, "originPostalCode"),
        ({"originPostalCode": 60601}, "originPostalCode"),
        ({"destPostalCode": "00000"}, "destPostalCode"),
        ({"destPostalCode": None}, "destPostalCode"),
        ({"originType": "castle"}, "originType"),
        ({"items": []}, "items"),
        ({"items": None}, "items"),
        ({"items": "pallet"}, "items"),
        ({"items": _items(41)}, "items"),
        ({"items": [*_items(2), {**_items(1)[0], "weight": 0}]}, "items[2].weight"),
        ({"items": [{**_items(1)[0], "weight": -5}]}, "items[0].weight"),
        ({"items": [{**_items(1)[0], "weight": "heavy"}]}, "items[0].weight"),
        ({"items": [{**_items(1)[0], "weight": True}]}, "items[0].weight"),
        ({"items": [{**_items(1)[0], "freightClass": 75}]}, "items[0].freightClass"),
        ({"items": [{**_items(1)[0], "quantity": 0}]}, "items[0].quantity"),
        ({"items": [{**_items(1)[0], "quantity": 1.5}]}, "items[0].quantity"),
        ({"items": [{**_items(1)[0], "length": 0}]}, "items[0].length"),
        ({"items": [{**_items(1)[0], "package": "sack of gold"}]}, "items[0].package"),
        ({"items": ["pallet"]}, "items[0]"),
    ],
)
async def test_invalid_request_names_the_field(
    client: httpx.AsyncClient, change: dict[str, Any], field: str
) -> None:
    body = {**rate_body(), **change}
    response = await client.post("/rates", json=body)
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert field in [f["field"] for f in error["fields"]]
    assert field in error["message"]


async def test_all_eighteen_classes_accepted(client: httpx.AsyncClient) -> None:
    classes = [50, 55, 60, 65, 70, 77.5, 85, 92.5, 100, 110, 125, 150, 175, 200, 250, 300, 400]
    items = [{**rate_body()["items"][0], "freightClass": c} for c in [*classes, 500]]
    response = await client.post("/rates", json={**rate_body(), "items": items})
    assert response.status_code == 200, response.text
