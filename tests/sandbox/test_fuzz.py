"""Whatever JSON a client sends, the sandbox answers with a status below 500 and its error body."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.sandbox.conftest import rate_body
from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats()
    | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = ["originPostalCode", "destPostalCode", "originType", "destType", "items", "id",
          "rateId", "schedulePickup", "originDockHoursOpen", "destContactEmail", "charges",
          "pickupDate", "originCountry", "destCountry", "destDockHoursClose", "emergencyName",
          "poNumber", "originReferenceNumber", "destCompany", "billCountry"]  # fmt: skip
ITEM_FIELDS = ["weight", "length", "width", "height", "quantity", "freightClass", "package",
               "pieces", "description", "nmfc", "stackable", "hazardous", "hazard"]  # fmt: skip


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxApp]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    app = create_app(SandboxConfig(db_path=path, shipments=20, rate_limit=0))
    yield app
    app.close()


def post(app: SandboxApp, path: str, body: Any) -> httpx.Response:
    async def send() -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://sandbox.test",
            headers={"Authorization": f"Bearer {DEMO_TOKEN}"},
        ) as client:
            raw = json.dumps(body)  # Infinity and NaN too, as a sloppy client might send
            return await client.post(path, content=raw.encode())

    return asyncio.run(send())


def assert_answered(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"name", "requestId", "message"}


SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(field=st.sampled_from(FIELDS), value=json_values, path=st.sampled_from(["/rates", "/book"]))
def test_any_top_level_field_value(fuzz_app: SandboxApp, field: str, value: Any, path: str) -> None:
    body = {**rate_body(), "id": "q_x", "rateId": "r_x", field: value}
    assert_answered(post(fuzz_app, path, body))


@SETTINGS
@given(field=st.sampled_from(ITEM_FIELDS), value=json_values)
def test_any_item_field_value(fuzz_app: SandboxApp, field: str, value: Any) -> None:
    body = rate_body()
    body["items"] = [{**body["items"][0], field: value}]
    assert_answered(post(fuzz_app, "/rates", body))


@SETTINGS
@given(body=json_values)
def test_any_body(fuzz_app: SandboxApp, body: Any) -> None:
    for path in ("/rates", "/book", "/book/parcel"):
        assert_answered(post(fuzz_app, path, body))


@SETTINGS
@given(field=st.sampled_from(["hazmatId", "hazardClass", "packingGroup", "properShippingName"]),
       value=json_values)  # fmt: skip
def test_any_hazard_field_value(fuzz_app: SandboxApp, field: str, value: Any) -> None:
    body = {**rate_body(), "emergencyName": "CHEMTREC", "emergencyPhone": "800-424-9300"}
    hazard = {"hazmatId": "UN1203", "hazardClass": "3", field: value}
    body["items"] = [{**body["items"][0], "hazard": hazard}]
    assert_answered(post(fuzz_app, "/rates", body))
