"""POST /book and /book/parcel: shipments with real identifiers, exactly once."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import httpx

from tests.sandbox.conftest import Clock, first_ok, rate_body
from tests.sandbox.test_errors import assert_error
from tui.domain.check_digits import gs1_valid, luhn_valid, mod7_check, mod11_check

SMALL_BOX = {"weight": 8, "dims": (14, 10, 8), "freight_class": None, "package": "box"}


async def quote_for(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/rates", json=body)
    assert response.status_code == 200, response.text
    quote: dict[str, Any] = response.json()
    return quote


def assert_pro_valid(code: str, pro: str) -> None:
    """The PRO is in the carrier's own format with a correct check digit."""
    if code in ("HGFL", "LKIF"):
        assert re.fullmatch(r"\d{10}", pro)
        assert int(pro[-1]) == mod7_check(pro[:-1])
    elif code in ("BCXP", "KAML"):
        assert re.fullmatch(r"\d{11}", pro)
        assert luhn_valid(pro)
    elif code == "MGGC":
        assert re.fullmatch(r"\d{3}-\d{6}-[0-9X]", pro)
        assert pro[-1] == mod11_check(pro[4:10])
    elif code == "CSFW":
        assert re.fullmatch(r"\d{9}", pro)
        assert gs1_valid(pro)
    else:
        assert re.fullmatch(r"(TG\d{7}|RG\d{8})", pro)


async def test_book_ltl_returns_201_with_paperwork(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body())
    rate = first_ok(quote)
    response = await client.post(
        "/book",
        json={
            "id": quote["id"],
            "rateId": rate["id"],
            "schedulePickup": True,
            "originCompany": "Prairie Valve Supply Co.",
            "originAddress": "1200 Industrial Dr",
            "originContactName": "Maria Garcia",
            "originContactPhone": "312-555-0142",
            "originDockHoursOpen": "08:00",
            "originDockHoursClose": "16:30",
            "destCompany": "Peachtree Foods",
        },
    )
    assert response.status_code == 201, response.text
    booking = response.json()
    assert booking["shipmentId"].startswith("shp_")
    assert_pro_valid(booking["carrierCode"], booking["proNumber"])
    assert re.fullmatch(r"\d{17}", booking["bolNumber"])
    assert gs1_valid(booking["bolNumber"])
    assert re.fullmatch(r"[A-Z]{3}\d{7}", booking["pickupConfirmation"])
    assert booking["status"] == "pending"
    assert booking["total"] == rate["total"]
    assert (booking["quoteId"], booking["rateId"]) == (quote["id"], rate["id"])
    kinds = {(d["type"], d["format"]) for d in booking["documents"]}
    assert kinds == {("bol", "pdf"), ("label", "pdf"), ("label", "zpl")}
    detail = (await client.get(f"/shipments/{booking['shipmentId']}")).json()
    assert detail["origin"]["company"] == "Prairie Valve Supply Co."
    assert detail["origin"]["city"] == "Chicago"
    assert detail["origin"]["dockHoursOpen"] == "08:00"
    assert detail["destination"]["postalCode"] == "30303"
    assert detail["proNumber"] == booking["proNumber"]
    assert detail["items"][0]["weight"] == 800


async def test_pickup_confirmation_only_when_asked(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body())
    booking = (
        await client.post("/book", json={"id": quote["id"], "rateId": first_ok(quote)["id"]})
    ).json()
    assert booking["pickupConfirmation"] is None


async def test_booking_twice_is_409_naming_the_shipment(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body())
    body = {"id": quote["id"], "rateId": first_ok(quote)["id"], "schedulePickup": True}
    first = await client.post("/book", json=body)
    assert first.status_code == 201
    again = await client.post("/book", json=body)
    error = assert_error(again, 409, "ALREADY_BOOKED")
    assert error["shipmentId"] == first.json()["shipmentId"]
    listing = (await client.get("/shipments", params={"search": quote["id"]})).json()
    assert [s["id"] for s in listing["shipments"]] == [error["shipmentId"]]


async def test_another_rate_of_the_same_quote_books_separately(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body())
    ok = [r for r in quote["rates"] if r["status"] == "ok"]
    ids = set()
    for rate in ok[:2]:
        response = await client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})
        assert response.status_code == 201
        ids.add(response.json()["proNumber"])
    assert len(ids) == 2


async def test_unknown_quote_or_rate_is_404(client: httpx.AsyncClient) -> None:
    response = await client.post("/book", json={"id": "q_nope", "rateId": "r_nope"})
    assert_error(response, 404, "QUOTE_NOT_FOUND")
    quote = await quote_for(client, rate_body())
    response = await client.post("/book", json={"id": quote["id"], "rateId": "r_nope"})
    assert_error(response, 404, "RATE_NOT_FOUND")


async def test_booking_needs_ids(client: httpx.AsyncClient) -> None:
    error = assert_error(await client.post("/book", json={}), 400, "VALIDATION_ERROR")
    assert {f["field"] for f in error["fields"]} == {"id", "rateId"}
    error = assert_error(
        await client.post(
            "/book",
            json={"id": "q", "rateId": "r", "schedulePickup": "yes", "originDockHoursOpen": "8am"},
        ),
        400,
        "VALIDATION_ERROR",
    )
    assert {f["field"] for f in error["fields"]} == {"schedulePickup", "originDockHoursOpen"}
    error = assert_error(
        await client.post(
            "/book/parcel", json={"id": "q", "rateId": "r", "destContactEmail": "nobody"}
        ),
        400,
        "VALIDATION_ERROR",
    )
    assert error["fields"][0]["field"] == "destContactEmail"


async def test_unavailable_rate_is_422(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body("60601", "98101"))
    rate = next(r for r in quote["rates"] if r["status"] != "ok")
    response = await client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})
    assert_error(response, 422, "RATE_NOT_BOOKABLE")


async def test_parcel_and_freight_endpoints_do_not_mix(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body(**SMALL_BOX))  # type: ignore[arg-type]
    parcel = first_ok(quote, "parcel")
    freight = first_ok(quote, "ltl")
    response = await client.post("/book", json={"id": quote["id"], "rateId": parcel["id"]})
    assert "/book/parcel" in assert_error(response, 422, "RATE_NOT_BOOKABLE")["message"]
    response = await client.post("/book/parcel", json={"id": quote["id"], "rateId": freight["id"]})
    assert_error(response, 422, "RATE_NOT_BOOKABLE")


async def test_parcel_booking_returns_tracking_and_labels(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body(quantity=3, **SMALL_BOX))  # type: ignore[arg-type]
    rate = first_ok(quote, "parcel")
    response = await client.post(
        "/book/parcel",
        json={"id": quote["id"], "rateId": rate["id"], "destContactEmail": "ap@example.com"},
    )
    assert response.status_code == 200, response.text
    booking = response.json()
    assert len(booking["trackingNumbers"]) == 3
    for number in booking["trackingNumbers"]:
        assert re.fullmatch(r"WN\d{18}", number)
        assert gs1_valid(number[2:])
    assert {label["format"] for label in booking["labels"]} == {"pdf", "zpl"}
    assert booking["mode"] == "parcel"
    pdf = await client.get(next(x["url"] for x in booking["labels"] if x["format"] == "pdf"))
    assert pdf.content.startswith(b"%PDF-")
    assert pdf.content.count(b"/Type /Page ") == 3


async def test_expired_quote_is_410_but_a_retry_of_a_booking_is_still_409(
    clocked_client: httpx.AsyncClient, clock: Clock
) -> None:
    quote = await quote_for(clocked_client, rate_body(weight=1500, quantity=12))
    truckload = first_ok(quote, "truckload")
    ltl = first_ok(quote, "ltl")
    booked = await clocked_client.post("/book", json={"id": quote["id"], "rateId": ltl["id"]})
    assert booked.status_code == 201
    clock.advance(timedelta(hours=25))
    response = await clocked_client.post(
        "/book", json={"id": quote["id"], "rateId": truckload["id"]}
    )
    assert_error(response, 410, "QUOTE_EXPIRED")
    clock.advance(timedelta(days=7))
    response = await clocked_client.post("/book", json={"id": quote["id"], "rateId": ltl["id"]})
    assert_error(response, 409, "ALREADY_BOOKED")
    other = next(r for r in quote["rates"] if r["status"] == "ok" and r["id"] != ltl["id"])
    response = await clocked_client.post("/book", json={"id": quote["id"], "rateId": other["id"]})
    assert_error(response, 410, "QUOTE_EXPIRED")


async def test_truckload_booking_has_a_load_number(client: httpx.AsyncClient) -> None:
    quote = await quote_for(client, rate_body(weight=1500, quantity=12))
    rate = first_ok(quote, "truckload")
    booking = (await client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})).json()
    assert_pro_valid(rate["carrierCode"], booking["proNumber"])
    assert booking["mode"] == "truckload"


async def test_every_ltl_carrier_pro_format(client: httpx.AsyncClient) -> None:
    lanes = [("60601", "30303"), ("75201", "77002"), ("98101", "97201"), ("60601", "46204"),
             ("10001", "19103")]  # fmt: skip
    seen = set()
    for origin, dest in lanes:
        quote = await quote_for(client, rate_body(origin, dest))
        for rate in quote["rates"]:
            if rate["status"] != "ok" or rate["carrierCode"] in seen:
                continue
            seen.add(rate["carrierCode"])
            response = await client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})
            assert_pro_valid(rate["carrierCode"], response.json()["proNumber"])
    assert {"HGFL", "BCXP", "MGGC", "CSFW", "LKIF", "KAML"} <= seen
