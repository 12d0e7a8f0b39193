"""Bills of lading and labels are real files: a well-formed PDF and ZPL for 4x6 printers."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.sandbox.conftest import first_ok, rate_body
from tests.sandbox.test_errors import assert_error


def assert_valid_pdf(data: bytes) -> int:
    """Check the PDF's header, xref offsets, trailer; return the page count."""
    assert data.startswith(b"%PDF-1.")
    assert data.rstrip().endswith(b"%%EOF")
    startxref = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    assert data[startxref : startxref + 4] == b"xref"
    header = re.match(rb"xref\s+0 (\d+)\s+", data[startxref:])
    assert header is not None
    count = int(header.group(1))
    table = data[startxref + header.end() :].split(b"\n")[:count]
    assert table[0].startswith(b"0000000000 65535 f")
    for number, entry in enumerate(table[1:], start=1):
        offset = int(entry[:10])
        assert data[offset:].startswith(b"%d 0 obj" % number), number
    for match in re.finditer(rb"<< /Length (\d+) >>\nstream\n", data):
        end = match.end() + int(match.group(1))
        assert data[end : end + 10] == b"\nendstream"
    assert b"/Root 1 0 R" in data
    return len(re.findall(rb"/Type /Page ", data))


async def book(client: httpx.AsyncClient, **kwargs: Any) -> dict[str, Any]:
    quote = (await client.post("/rates", json=rate_body(**kwargs))).json()
    response = await client.post(
        "/book",
        json={
            "id": quote["id"],
            "rateId": first_ok(quote, "ltl")["id"],
            "schedulePickup": True,
            "originCompany": "Prairie Valve (Supply) Co.",
            "destCompany": "Café Niño & Sons",
        },
    )
    assert response.status_code == 201
    booking: dict[str, Any] = response.json()
    return booking


async def test_bol_is_a_one_page_letter_pdf(client: httpx.AsyncClient) -> None:
    booking = await book(client)
    url = next(d["url"] for d in booking["documents"] if d["type"] == "bol")
    response = await client.get(url)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert assert_valid_pdf(response.content) == 1
    assert b"/MediaBox [0 0 612 792]" in response.content
    assert booking["bolNumber"].encode() in response.content
    assert booking["proNumber"].encode() in response.content
    assert b"Prairie Valve \\(Supply\\) Co." in response.content


async def test_labels_one_per_handling_unit(client: httpx.AsyncClient) -> None:
    booking = await book(client, quantity=3)
    urls = {d["format"]: d["url"] for d in booking["documents"] if d["type"] == "label"}
    pdf = (await client.get(urls["pdf"])).content
    assert assert_valid_pdf(pdf) == 3
    assert b"/MediaBox [0 0 288 432]" in pdf
    zpl_response = await client.get(urls["zpl"])
    assert zpl_response.status_code == 200
    zpl = zpl_response.text
    assert zpl.startswith("^XA")
    assert zpl.rstrip().endswith("^XZ")
    assert zpl.count("^XA") == zpl.count("^XZ") == 3
    assert "^PW812" in zpl
    assert "^LL1218" in zpl
    assert booking["proNumber"] in zpl
    assert "Unit 3 of 3" in zpl


async def test_documents_need_the_token_and_a_known_shipment(
    client: httpx.AsyncClient, sandbox_base_url: str
) -> None:
    booking = await book(client)
    url = booking["documents"][0]["url"]
    async with httpx.AsyncClient(transport=client._transport) as anonymous:
        assert_error(await anonymous.get(url), 401, "UNAUTHORIZED")
    assert_error(
        await client.get(f"{sandbox_base_url}/documents/shp_nope/bol.pdf"),
        404,
        "SHIPMENT_NOT_FOUND",
    )
    assert_error(
        await client.get(f"{sandbox_base_url}/documents/{booking['shipmentId']}/x.pdf"),
        404,
        "NOT_FOUND",
    )


async def test_seeded_shipments_have_paperwork_too(client: httpx.AsyncClient) -> None:
    listing = (await client.get("/shipments", params={"mode": "ltl", "limit": 1})).json()
    detail = (await client.get(f"/shipments/{listing['shipments'][0]['id']}")).json()
    for document in detail["documents"]:
        response = await client.get(document["url"])
        assert response.status_code == 200
        if document["format"] == "pdf":
            assert assert_valid_pdf(response.content) >= 1
        else:
            assert response.text.startswith("^XA")


def _shown(pdf: bytes) -> list[tuple[float, float, str]]:
    """Each text the page draws: x, y and the text."""
    found = []
    for op in re.finditer(
        rb"BT /\w+ [\d.]+ Tf ([\d.]+) ([\d.]+) Td \(((?:[^()\\]|\\.)*)\) Tj", pdf
    ):
        text = re.sub(rb"\\(.)", rb"\1", op.group(3)).decode("latin-1")
        found.append((float(op.group(1)), float(op.group(2)), text))
    return found


async def test_the_shippers_block_has_the_shippers_reference_not_freights(
    client: httpx.AsyncClient,
) -> None:
    """Freight puts its booking reference (`FRT…`) in the origin's reference number when the
    shipper gave one of their own; the shipper's block shows the shipper's."""
    quote = (await client.post("/rates", json=rate_body())).json()
    response = await client.post(
        "/book",
        json={
            "id": quote["id"],
            "rateId": first_ok(quote, "ltl")["id"],
            "schedulePickup": True,
            "reference": "PO-5521",
            "originReferenceNumber": "FRT0123456789",
        },
    )
    assert response.status_code == 201
    url = next(d["url"] for d in response.json()["documents"] if d["type"] == "bol")
    shown = _shown((await client.get(url)).content)
    top = next(y for x, y, text in shown if text == "SHIP FROM")
    shipper_block = [text for x, y, text in shown if x == 40 and top - 102 <= y < top]
    assert "Ref PO-5521" in shipper_block
    assert not any("FRT" in text for text in shipper_block)
    assert any("FRT0123456789" in text for _x, _y, text in shown)  # listed under References
