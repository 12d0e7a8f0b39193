"""Each accessorial asked for in ``charges`` is its own charge line, priced per carrier;
carriers that do not offer one decline with the reason."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import rate_body

HAZMAT_ITEM = {
    "hazardous": True,
    "hazard": {"hazmatId": "UN1203", "hazardClass": "3", "packingGroup": "II"},
}
EMERGENCY = {"emergencyName": "CHEMTREC", "emergencyPhone": "800-424-9300"}


async def _rates(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[tuple[str, str], Any]:
    response = await client.post("/rates", json=body)
    assert response.status_code == 200, response.text
    return {(r["carrierCode"], r["serviceType"]): r for r in response.json()["rates"]}


def _money(value: Any) -> Decimal:
    return Decimal(str(value))


@pytest.mark.parametrize(
    ("asked", "line", "low", "high"),
    [
        ("liftgate pickup", "liftgate-pickup", 60, 150),
        ("liftgate delivery", "liftgate-delivery", 60, 150),
        ("inside delivery", "inside-delivery", 100, 200),
        ("arrival schedule", "appointment", 20, 60),
        ("appointment", "appointment", 20, 60),
        ("arrival notice", "notify-before-delivery", 15, 50),
        ("Notify", "notify-before-delivery", 15, 50),
        ("sort-and-segregate", "sort-and-segregate", 50, 75),
        ("PROTECT_FROM_FREEZING", "protect-from-freezing", 25, 100),
    ],
)
async def test_each_accessorial_adds_exactly_its_own_charge_line(
    client: httpx.AsyncClient, asked: str, line: str, low: int, high: int
) -> None:
    base = await _rates(client, rate_body("60601", "46204"))  # Chicago -> Indianapolis
    more = await _rates(client, {**rate_body("60601", "46204"), "charges": [asked]})
    compared = 0
    for key, rate in more.items():
        before = base[key]
        if rate["status"] != "ok" or rate["mode"] != "ltl":
            continue
        added = [
            c for c in rate["charges"] if c["name"] not in {x["name"] for x in before["charges"]}
        ]
        assert [c["name"] for c in added] == [line], key
        assert _money(rate["total"]) - _money(before["total"]) == _money(added[0]["amount"])
        assert low <= _money(added[0]["amount"]) <= high, (key, added[0])
        assert added[0]["description"]
        compared += 1
    assert compared >= 3  # HGFL, BCXP and LKIF at least
    amounts = {
        _money(next(c["amount"] for c in r["charges"] if c["name"] == line))
        for r in more.values()
        if r["status"] == "ok" and r["mode"] == "ltl"
    }
    assert len(amounts) >= 2  # each carrier has its own price


async def test_hazmat_is_a_charge_line_and_one_carrier_declines(client: httpx.AsyncClient) -> None:
    plain = await _rates(client, rate_body())
    item = {**rate_body()["items"][0], **HAZMAT_ITEM}
    hazardous = await _rates(client, {**rate_body(), "items": [item], **EMERGENCY})
    harrowgate = hazardous[("HGFL", "Economy")]
    assert harrowgate["status"] == "unavailable"
    assert "hazardous" in harrowgate["message"]
    assert harrowgate["charges"] == []
    bluecrest, before = hazardous[("BCXP", "Standard")], plain[("BCXP", "Standard")]
    hazmat = next(c for c in bluecrest["charges"] if c["name"] == "hazmat")
    assert 25 <= _money(hazmat["amount"]) <= 85
    assert _money(bluecrest["total"]) - _money(before["total"]) == _money(hazmat["amount"])


async def test_inside_delivery_declined_on_a_long_regional_lane(client: httpx.AsyncClient) -> None:
    body = {**rate_body("75201", "30303"), "charges": ["inside delivery"]}  # Dallas -> Atlanta
    rates = await _rates(client, body)
    magnolia = rates[("MGGC", "Standard")]
    assert magnolia["status"] == "unavailable"
    assert "inside delivery" in magnolia["message"]
    short = await _rates(client, {**rate_body("75201", "77002"), "charges": ["inside delivery"]})
    assert short[("MGGC", "Standard")]["status"] == "ok"


async def test_parcel_declines_liftgate_and_hazmat(client: httpx.AsyncClient) -> None:
    small = rate_body(weight=12, dims=(16, 12, 10), freight_class=None, package="box")
    assert (await _rates(client, small))[("WRNP", "Ground")]["status"] == "ok"
    for change in (
        {"charges": ["liftgate delivery"]},
        {"items": [{**small["items"][0], **HAZMAT_ITEM}], **EMERGENCY},
    ):
        ground = (await _rates(client, {**small, **change}))[("WRNP", "Ground")]
        assert ground["status"] == "unavailable"
        assert "does not offer" in ground["message"]


async def test_truckload_declines_liftgate_and_dry_van_declines_freeze_protection(
    client: httpx.AsyncClient,
) -> None:
    heavy = rate_body(weight=1500, quantity=12)
    rates = await _rates(client, {**heavy, "charges": ["liftgate delivery"]})
    assert rates[("TGTL", "Dry Van")]["status"] == "unavailable"
    assert "liftgate" in rates[("TGTL", "Dry Van")]["message"]
    cold = await _rates(client, {**heavy, "charges": ["protect from freezing"]})
    assert cold[("TGTL", "Dry Van")]["status"] == "unavailable"
    assert cold[("TGTL", "Reefer")]["status"] == "ok"


async def test_liftgate_asked_where_the_location_already_needs_one_is_charged_once(
    client: httpx.AsyncClient,
) -> None:
    implied = await _rates(client, rate_body(dest_type="residential"))
    asked = await _rates(
        client, {**rate_body(dest_type="residential"), "charges": ["liftgate delivery"]}
    )
    key = ("BCXP", "Standard")
    names = [c["name"] for c in asked[key]["charges"]]
    assert names.count("liftgate-delivery") == 1
    assert asked[key]["total"] == implied[key]["total"]


async def test_every_ok_rate_still_sums_to_its_total(client: httpx.AsyncClient) -> None:
    body = {**rate_body(), "charges": ["liftgate pickup", "liftgate delivery", "inside delivery",
                                       "arrival notice", "arrival schedule", "sort and segregate",
                                       "protect from freezing"]}  # fmt: skip
    for rate in (await _rates(client, body)).values():
        if rate["status"] == "ok":
            total = sum(_money(c["amount"]) for c in rate["charges"])
            assert total == _money(rate["total"])
