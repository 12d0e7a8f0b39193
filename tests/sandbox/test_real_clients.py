"""Bodies shaped like those real clients of the service send go through rates, booking, detail,
search and the BOL (vocabulary from the evidence in real-service.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import first_ok, rate_body
from tests.sandbox.test_errors import assert_error

#: a rate request as a real client writes it (clock: Tuesday 2026-03-10)
REAL_BODY: dict[str, Any] = {
    "originPostalCode": "60601",
    "originType": "business dock",
    "originCountry": "USA",
    "originCompany": "Prairie Valve Supply Co.",
    "originAddress": "1200 Industrial Dr",
    "originAddress2": "Dock 4",
    "originCity": "Chicago",
    "originState": "IL",
    "originContactName": "Maria Garcia",
    "originContactPhone": "312-555-0142",
    "originContactEmail": "maria@prairie.example",
    "originReferenceNumber": "SO-55120",
    "originInstructions": "Ring the bell at door 4",
    "originDockHoursOpen": "9:00 AM",
    "originDockHoursClose": "04:00 PM",
    "destPostalCode": "30303",
    "destType": "business no dock",
    "destCountry": "USA",
    "destCompany": "Peachtree Foods",
    "destAddress": "88 Marietta St",
    "destCity": "Atlanta",
    "destState": "GA",
    "destContactName": "Sam Lee",
    "destContactPhone": "404-555-0199",
    "destReferenceNumber": "PO-ATL-778",
    "destDockHoursOpen": "07:30 am",
    "destDockHoursClose": "15:30",
    "pickupDate": "2026-03-11",
    "charges": ["liftgate delivery", "arrival schedule", "arrival notice"],
    "reference": "SHIPREF-123",
    "poNumber": "PO-99881",
    "emergencyName": "CHEMTREC",
    "emergencyPhone": "800-424-9300",
    "billPostalCode": "60601",
    "billCountry": "USA",
    "someFieldWeDoNotUse": {"nested": [1, 2, 3]},
    "items": [
        {
            "description": "Valve assemblies on skids",
            "pieces": 2,
            "weight": 450,
            "length": 48,
            "width": 40,
            "height": 40,
            "package": "Pallets_48x40",
            "freightClass": "85",
            "nmfc": "156600-03",
            "stackable": False,
            "hazardous": False,
            "unknownItemField": "ignored",
        },
        {
            "description": "Solvent cleaner drums",
            "pieces": 4,
            "weight": 60,
            "length": 16,
            "width": 12,
            "height": 10,
            "package": "Boxes",
            "freightClass": 70,
            "hazardous": True,
            "hazard": {"hazmatId": "UN1203", "hazardClass": "3", "packingGroup": "II"},
        },
    ],
}


async def test_real_client_body_rates_books_and_is_kept(clocked_client: httpx.AsyncClient) -> None:
    response = await clocked_client.post("/rates", json=REAL_BODY)
    assert response.status_code == 200, response.text
    quote = response.json()
    assert quote["pickupDate"] == "2026-03-11"
    rate = first_ok(quote, "ltl")
    assert rate["pickupDate"] == "2026-03-11"
    assert rate["deliveryDate"] > "2026-03-11"
    names = {c["name"] for c in rate["charges"]}
    assert {"liftgate-delivery", "appointment", "notify-before-delivery", "hazmat"} <= names
    booking = await clocked_client.post(
        "/book",
        json={
            "id": quote["id"],
            "rateId": rate["id"],
            "schedulePickup": True,
            "originDockHoursOpen": "08:00 AM",
            "originDockHoursClose": "4:30 PM",
            "destInstructions": "Call 30 min ahead",
            "anotherUnusedField": True,
        },
    )
    assert booking.status_code == 201, booking.text
    shipment_id = booking.json()["shipmentId"]
    detail = (await clocked_client.get(f"/shipments/{shipment_id}")).json()
    origin, dest = detail["origin"], detail["destination"]
    assert (origin["company"], origin["address2"], origin["country"]) == (
        "Prairie Valve Supply Co.",
        "Dock 4",
        "US",
    )
    assert (origin["dockHoursOpen"], origin["dockHoursClose"]) == ("08:00", "16:30")
    assert (dest["dockHoursOpen"], dest["dockHoursClose"]) == ("07:30", "15:30")
    assert dest["instructions"] == "Call 30 min ahead"
    assert origin["instructions"] == "Ring the bell at door 4"
    assert origin["locationType"] == "business dock"
    assert dest["locationType"] == "business no dock"
    assert detail["requestedPickupDate"] == "2026-03-11"
    assert detail["accessorials"] == ["arrival notice", "arrival schedule", "hazmat",
                                      "liftgate delivery"]  # fmt: skip
    assert detail["references"] == {
        "reference": "SHIPREF-123",
        "poNumber": "PO-99881",
        "originReferenceNumber": "SO-55120",
        "destReferenceNumber": "PO-ATL-778",
    }
    assert detail["reference"] == "SHIPREF-123"
    assert detail["emergencyContact"] == {"name": "CHEMTREC", "phone": "800-424-9300"}
    skids, drums = detail["items"]
    assert (skids["description"], skids["quantity"], skids["package"]) == (
        "Valve assemblies on skids",
        2,
        "pallet",
    )
    assert (skids["nmfc"], skids["stackable"], skids["hazardous"]) == ("156600-03", False, False)
    assert skids["packageSize"] == "48x40"
    assert drums["package"] == "box"
    assert drums["hazardous"] is True
    assert drums["hazard"] == {"hazmatId": "UN1203", "hazardClass": "3", "packingGroup": "II"}

    for words in ("solvent cleaner", "PO-99881", "SHIPREF", "SO-55120"):
        found = (await clocked_client.get("/shipments", params={"search": words})).json()
        assert [s["id"] for s in found["shipments"]] == [shipment_id], words

    bol_url = next(d["url"] for d in detail["documents"] if d["type"] == "bol")
    pdf = (await clocked_client.get(bol_url)).content
    for text in (
        b"Valve assemblies on skids", b"Solvent cleaner drums", b"HM UN1203, Class 3, PG II",
        b"CHEMTREC 800-424-9300", b"PO-99881", b"SHIPREF-123", b"Ref SHIPREF-123", b"SO-55120",
        b"Ref PO-ATL-778", b"liftgate delivery", b"arrival schedule", b"arrival notice",
        b"Dock hours 08:00-16:30", b"Dock hours 07:30-15:30", b"Pickup date: 2026-03-11",
    ):  # fmt: skip
        assert text in pdf, text


@pytest.mark.parametrize(
    "spelling",
    ["business dock", "Business Dock", "business-dock", "BUSINESS_DOCK", "business no dock",
     "business-no-dock", "residential", "limited access", "limited-access", "trade show",
     "trade-show", "construction", "farm", "military", "airport", "place of worship",
     "place-of-worship", "school", "mine", "pier", "distribution-center"],
)  # fmt: skip
async def test_every_location_type_spelling_is_accepted(
    client: httpx.AsyncClient, spelling: str
) -> None:
    response = await client.post("/rates", json=rate_body(origin_type=spelling, dest_type=spelling))
    assert response.status_code == 200, response.text


async def test_limited_access_kinds_carry_the_limited_access_fee(client: httpx.AsyncClient) -> None:
    for kind in ("school", "place of worship", "military", "pier"):
        quote = (await client.post("/rates", json=rate_body(dest_type=kind))).json()
        rate = first_ok(quote, "ltl")
        assert "limited-access-delivery" in {c["name"] for c in rate["charges"]}, kind


@pytest.mark.parametrize(
    ("label", "package"),
    [("Boxes", "box"), ("Pallets_48x40", "pallet"), ("PALLET", "pallet"), ("crates", "crate"),
     ("Drums", "drum"), ("skid", "skid")],
)  # fmt: skip
async def test_package_labels_any_case_plural_or_sized(
    clocked_client: httpx.AsyncClient, label: str, package: str
) -> None:
    quote = (await clocked_client.post("/rates", json=rate_body(package=label))).json()
    rate = first_ok(quote, "ltl")
    booking = await clocked_client.post("/book", json={"id": quote["id"], "rateId": rate["id"]})
    detail = (await clocked_client.get(f"/shipments/{booking.json()['shipmentId']}")).json()
    assert detail["items"][0]["package"] == package


async def test_canadian_postal_code_with_country(client: httpx.AsyncClient) -> None:
    body = {**rate_body("60601", "30303"), "destPostalCode": "H4P 2N2", "destCountry": "CAN"}
    quote = (await client.post("/rates", json=body)).json()
    by_code = {r["carrierCode"]: r for r in quote["rates"] if r["mode"] == "ltl"}
    assert by_code["BCXP"]["status"] == "ok"
    assert "cross-border" in {c["name"] for c in by_code["BCXP"]["charges"]}
    assert by_code["HGFL"]["status"] == "unavailable"
    assert "Canada" in by_code["HGFL"]["message"]
    booking = await client.post("/book", json={"id": quote["id"], "rateId": by_code["BCXP"]["id"]})
    detail = (await client.get(f"/shipments/{booking.json()['shipmentId']}")).json()
    assert (detail["destination"]["postalCode"], detail["destination"]["country"]) == (
        "H4P 2N2",
        "CA",
    )
    assert detail["destination"]["state"] == "QC"
    listing = (await client.get("/shipments", params={"search": "H4P"})).json()
    assert listing["shipments"][0]["destination"]["country"] == "CA"


async def test_weekend_pickup_rolls_to_the_next_business_day(
    clocked_client: httpx.AsyncClient,
) -> None:
    quote = (
        await clocked_client.post("/rates", json={**rate_body(), "pickupDate": "2026-03-14"})
    ).json()
    assert quote["pickupDate"] == "2026-03-16"
    assert "Saturday" in quote["pickupDateMessage"]
    assert first_ok(quote)["pickupDate"] == "2026-03-16"


async def test_no_pickup_date_means_the_next_business_day(
    clocked_client: httpx.AsyncClient,
) -> None:
    quote = (await clocked_client.post("/rates", json=rate_body())).json()
    assert quote["pickupDate"] == "2026-03-11"


async def test_delivery_date_counts_business_days_from_pickup(
    clocked_client: httpx.AsyncClient,
) -> None:
    body = {**rate_body(), "pickupDate": "2026-03-13"}  # a Friday
    quote = (await clocked_client.post("/rates", json=body)).json()
    for rate in quote["rates"]:
        if rate["status"] == "ok" and rate["days"] == 1:
            assert rate["deliveryDate"] == "2026-03-16"
        if rate["status"] == "ok" and rate["days"] == 3:
            assert rate["deliveryDate"] == "2026-03-18"


def _item(**change: Any) -> dict[str, Any]:
    return {**rate_body()["items"][0], **change}


@pytest.mark.parametrize(
    ("change", "field", "hint"),
    [
        ({"originType": "castle"}, "originType", "business dock"),
        ({"destType": 5}, "destType", "place of worship"),
        ({"originDockHoursOpen": "9am"}, "originDockHoursOpen", "9:00 AM"),
        ({"destDockHoursClose": "25:00"}, "destDockHoursClose", "16:00"),
        ({"originDockHoursOpen": "4:00 PM", "originDockHoursClose": "9:00 AM"},
         "originDockHoursClose", "later than"),
        ({"destDockHoursOpen": "16:00", "destDockHoursClose": "16:00"},
         "destDockHoursClose", "later than"),
        ({"charges": ["liftgate delivery", "teleport"]}, "charges[1]", "arrival schedule"),
        ({"charges": ["residential delivery"]}, "charges[0]", "location type"),
        ({"charges": "liftgate"}, "charges", "liftgate delivery"),
        ({"pickupDate": "2026-03-09"}, "pickupDate", "past"),
        ({"pickupDate": "03/11/2026"}, "pickupDate", "YYYY-MM-DD"),
        ({"originCountry": "MX"}, "originCountry", "USA"),
        ({"destCountry": "CA"}, "destPostalCode", "H4P 2N2"),
        ({"originContactEmail": "nobody"}, "originContactEmail", "@"),
        ({"items": [_item(package="sack of gold")]}, "items[0].package", "Pallets_48x40"),
        ({"items": [{k: v for k, v in _item().items() if k != "quantity"}]},
         "items[0].quantity", "pieces"),
        ({"items": [{**{k: v for k, v in _item().items() if k != "quantity"}, "pieces": 0}]},
         "items[0].pieces", "at least 1"),
        ({"items": [_item(hazardous=True)]}, "items[0].hazard", "hazmatId"),
        ({"items": [_item(hazard={"hazmatId": "gas", "hazardClass": "3"})],
          "emergencyName": "X", "emergencyPhone": "1"}, "items[0].hazard.hazmatId", "UN1203"),
        ({"items": [_item(hazard={"hazmatId": "UN1203", "hazardClass": "3",
                                  "packingGroup": "IV"})],
          "emergencyName": "X", "emergencyPhone": "1"}, "items[0].hazard.packingGroup", "III"),
        ({"items": [_item(hazard={"hazmatId": "UN1203", "hazardClass": "3"})]},
         "emergencyPhone", "hazardous"),
        ({"items": [_item(hazard={"hazmatId": "UN1203", "hazardClass": "3"})],
          "emergencyPhone": "800-424-9300"}, "emergencyName", "hazardous"),
        ({"items": [_item(stackable="maybe")]}, "items[0].stackable", "true or false"),
        ({"items": [_item(description={"a": 1})]}, "items[0].description", "string"),
    ],
)  # fmt: skip
async def test_wrong_values_are_400_naming_the_field_and_what_is_allowed(
    clocked_client: httpx.AsyncClient, change: dict[str, Any], field: str, hint: str
) -> None:
    response = await clocked_client.post("/rates", json={**rate_body(), **change})
    error = assert_error(response, 400, "VALIDATION_ERROR")
    messages = {f["field"]: f["message"] for f in error["fields"]}
    assert field in messages, messages
    assert hint in messages[field]


async def test_booking_pickup_date_in_the_past_is_400(clocked_client: httpx.AsyncClient) -> None:
    quote = (await clocked_client.post("/rates", json=rate_body())).json()
    response = await clocked_client.post(
        "/book",
        json={"id": quote["id"], "rateId": first_ok(quote)["id"], "pickupDate": "2026-01-02"},
    )
    error = assert_error(response, 400, "VALIDATION_ERROR")
    assert error["fields"][0]["field"] == "pickupDate"


async def test_a_unit_that_cannot_be_stacked_on_rates_as_full_height(
    client: httpx.AsyncClient,
) -> None:
    low = rate_body(weight=400, dims=(48, 40, 30), freight_class=None)  # 12 pcf: class 85
    flat = {**low, "items": [{**low["items"][0], "stackable": False}]}  # 48 in: 7.5 pcf
    stacked = {**low, "items": [{**low["items"][0], "stackable": True}]}
    totals = []
    for body in (low, stacked, flat):
        quote = (await client.post("/rates", json=body)).json()
        totals.append(_money(first_ok(quote, "ltl")["total"]))
    assert totals[0] == totals[1] < totals[2]


async def test_older_clients_search_by_pro_bol_ref_and_pickup_date(
    clocked_client: httpx.AsyncClient,
) -> None:
    quote = (
        await clocked_client.post(
            "/rates", json={**rate_body(), "poNumber": "PO-31337", "pickupDate": "2026-03-12"}
        )
    ).json()
    booking = (
        await clocked_client.post(
            "/book", json={"id": quote["id"], "rateId": first_ok(quote)["id"]}
        )
    ).json()
    sid = booking["shipmentId"]
    # the listing's pickupDate is on the sandbox's compressed clock (README "Lifecycle")
    detail = (await clocked_client.get(f"/shipments/{sid}")).json()
    day = detail["pickupDate"][:10]
    for params in (
        {"pro": booking["proNumber"]},
        {"bol": booking["bolNumber"]},
        {"ref": "PO-31337"},
        {"ref": "PO-31337", "pickupDate": day},
    ):
        found = (await clocked_client.get("/shipments", params=params)).json()
        assert [s["id"] for s in found["shipments"]] == [sid], params
    other_day = {"ref": "PO-31337", "pickupDate": "2026-03-20"}
    assert (await clocked_client.get("/shipments", params=other_day)).json()["shipments"] == []


def _money(value: Any) -> Any:
    from decimal import Decimal

    return Decimal(str(value))
