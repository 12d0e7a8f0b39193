"""Every error a client can provoke comes back as the JSON error body with a request id."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import client_for, rate_body
from tui.sandbox import SandboxConfig, create_app
from tui.sandbox.app import SandboxApp


def assert_error(response: httpx.Response, status: int, name: str) -> dict[str, Any]:
    """The response is ``status`` with the error body ``name`` and matching request ids."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert body["name"] == name
    assert body["requestId"] == response.headers["x-request-id"]
    assert body["message"]
    assert "Traceback" not in response.text
    return body


@pytest.mark.parametrize(
    ("token", "path"),
    [
        (None, "/shipments"),
        ("demo.wrong-secret", "/shipments"),
        ("nobody.secret", "/rates"),
        ("demo-secret", "/shipments"),
    ],
)
async def test_missing_or_wrong_token_is_401(
    sandbox_app: SandboxApp, token: str | None, path: str
) -> None:
    async with client_for(sandbox_app, token) as http:
        response = await (http.get(path) if path == "/shipments" else http.post(path, json={}))
    assert_error(response, 401, "UNAUTHORIZED")


async def test_basic_scheme_is_401(client: httpx.AsyncClient) -> None:
    response = await client.get("/shipments", headers={"Authorization": "Basic ZGVtbzpkZW1v"})
    assert_error(response, 401, "UNAUTHORIZED")


async def test_secret_never_echoed(sandbox_app: SandboxApp) -> None:
    async with client_for(sandbox_app, "demo.not-the-secret-xyz") as http:
        response = await http.get("/shipments")
    assert "not-the-secret-xyz" not in response.text


async def test_no_subscription_is_402_everywhere(sandbox_app: SandboxApp) -> None:
    async with client_for(sandbox_app, "nosub.nosub-secret") as http:
        for response in (
            await http.get("/shipments"),
            await http.post("/rates", json=rate_body()),
            await http.post("/book", json={"id": "q_x", "rateId": "r_x"}),
        ):
            assert_error(response, 402, "SUBSCRIPTION_INACTIVE")


async def test_readonly_may_search_and_rate_but_not_book(sandbox_app: SandboxApp) -> None:
    async with client_for(sandbox_app, "readonly.readonly-secret") as http:
        assert (await http.get("/shipments")).status_code == 200
        quote = (await http.post("/rates", json=rate_body())).json()
        rate = quote["rates"][0]
        for path in ("/book", "/book/parcel"):
            response = await http.post(path, json={"id": quote["id"], "rateId": rate["id"]})
            assert_error(response, 403, "FORBIDDEN")


async def test_unknown_path_is_404(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/nope"), 404, "NOT_FOUND")
    assert_error(await client.get("/shipments/a/b"), 404, "NOT_FOUND")


async def test_wrong_method_is_405_with_allow(client: httpx.AsyncClient) -> None:
    response = await client.delete("/rates")
    assert_error(response, 405, "METHOD_NOT_ALLOWED")
    assert response.headers["allow"] == "POST"
    assert_error(await client.post("/shipments", json={}), 405, "METHOD_NOT_ALLOWED")


@pytest.mark.parametrize("raw", [b"{", b"not json", b"", b"\xff\xfe", b"[" * 100_000])
async def test_malformed_json_is_400(client: httpx.AsyncClient, raw: bytes) -> None:
    response = await client.post(
        "/rates", content=raw, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "MALFORMED_JSON")


async def test_body_over_one_mib_is_413(client: httpx.AsyncClient) -> None:
    big = b'{"x": "' + b"a" * (1024 * 1024) + b'"}'
    assert_error(await client.post("/rates", content=big), 413, "PAYLOAD_TOO_LARGE")


async def test_streamed_body_over_limit_is_413(client: httpx.AsyncClient) -> None:
    async def chunks() -> Any:
        for _ in range(40):
            yield b" " * 65536

    response = await client.post("/rates", content=chunks())
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")


async def test_wrong_top_level_type_is_validation_error(client: httpx.AsyncClient) -> None:
    body = assert_error(await client.post("/rates", json=[1, 2]), 400, "VALIDATION_ERROR")
    assert body["fields"][0]["field"] == ""


async def test_rate_limit_is_429_with_retry_after(sandbox_config: SandboxConfig) -> None:
    app = create_app(dataclasses.replace(sandbox_config, rate_limit=1.0, rate_burst=3))
    try:
        async with client_for(app, "demo.demo-secret") as http:
            statuses = [(await http.get("/shipments?limit=1")).status_code for _ in range(3)]
            assert statuses == [200, 200, 200]
            response = await http.get("/shipments?limit=1")
            assert_error(response, 429, "RATE_LIMITED")
            assert int(response.headers["retry-after"]) >= 1
        async with client_for(app, "readonly.readonly-secret") as other:
            assert (await other.get("/shipments?limit=1")).status_code == 200
    finally:
        app.close()


async def test_internal_error_is_500_without_traceback(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr("tui.sandbox.app.create_quote", broken)
    response = await client.post("/rates", json=rate_body())
    assert_error(response, 500, "INTERNAL_ERROR")
    assert "secret internal detail" not in response.text


async def test_every_success_carries_a_request_id(client: httpx.AsyncClient) -> None:
    first = await client.get("/shipments?limit=1")
    second = await client.get("/shipments?limit=1")
    assert first.headers["x-request-id"] != second.headers["x-request-id"]
