"""No output of a failing run (logs, error text, reprs, tracebacks with locals) holds the token."""

from __future__ import annotations

import logging
import traceback
from typing import Any

import httpx
import pytest

from tests.api.faults import FaultTransport, forward_then, raw, reply
from tui.api import ClientOptions, FreightClient, FreightError, RetryPolicy, Secret
from tui.api.logs import LOG

TOKEN = "acct42.s3cr3t-VALUE-never-shown"
SECRET_PART = "s3cr3t-VALUE"


def _rendered(exc: BaseException, *, skip_test_frame: bool = False) -> str:
    """Everything a crash report could show: str, repr, traceback with every frame's locals.

    ``skip_test_frame`` leaves out the test's own frame (whose locals hold the test's inputs).
    """
    tb = exc.__traceback__
    if skip_test_frame and tb is not None:
        tb = tb.tb_next
    te = traceback.TracebackException(type(exc), exc, tb, capture_locals=True)
    return "\n".join([str(exc), repr(exc), *te.format(chain=True)])


def _script() -> FaultTransport:
    """Faults of every kind, including a server that echoes the token back."""
    echo = {"name": "UNAUTHORIZED", "message": f"token {TOKEN} is not valid (Bearer {TOKEN})"}

    async def echo_headers(request: httpx.Request) -> httpx.Response:
        return reply(500, {"message": str(dict(request.headers))})

    return FaultTransport(
        reply(401, echo),
        *[httpx.ConnectError("refused") for _ in range(4)],
        httpx.ReadTimeout("timed out"),
        raw(200, b"<html>proxy login</html>"),
        httpx.ReadTimeout("timed out"),
        raw(502, b"<html>bad gateway</html>"),
        reply(429, {}, retry_after="999"),
        *[echo_headers for _ in range(4)],
    )


async def test_failing_run_never_shows_the_token(caplog: pytest.LogCaptureFixture) -> None:
    transport = _script()
    opts = ClientOptions(retry=RetryPolicy(backoff_base=0.001, backoff_cap=0.001))
    caplog.set_level(logging.DEBUG)
    outputs: list[str] = []
    async with FreightClient(
        "http://svc.test", Secret(TOKEN), transport=transport, options=opts
    ) as client:
        outputs.append(repr(client))
        calls: list[Any] = [
            client.verify(),
            client.get_shipment("s_1"),
            client.get_shipment("s_2"),
            client.search_shipments(),
            client.book(
                {
                    "id": "q",
                    "rateId": "r",
                    "originCompany": "A",
                    "originAddress": "a",
                    "destCompany": "B",
                    "destAddress": "b",
                }
            ),
            client.book_parcel({"id": "q", "rateId": "r"}),
            client.get_rates(
                {
                    "originPostalCode": "30301",
                    "destPostalCode": "10001",
                    "items": [
                        {
                            "weight": 1,
                            "length": 1,
                            "width": 1,
                            "height": 1,
                            "quantity": 1,
                            "package": "box",
                        }
                    ],
                }
            ),
            client.get_shipment("s_3"),
        ]
        for call in calls:
            with pytest.raises(FreightError) as info:
                await call
            outputs.append(_rendered(info.value))
            LOG.exception("operation failed", exc_info=info.value)
        LOG.debug("header was %s", f"Bearer {TOKEN}")
    outputs.extend(r.getMessage() for r in caplog.records)
    outputs.append(caplog.text)
    assert len(transport.requests) == 14
    for text in outputs:
        assert SECRET_PART not in text
    assert "***" in caplog.text  # the echoed token was redacted, not dropped silently


async def test_booking_lost_after_reaching_server_leaks_nothing() -> None:
    inner = FaultTransport(reply(201, {"shipmentId": "s_1"}))
    transport = FaultTransport(forward_then(inner, httpx.ReadTimeout("timed out")))
    async with FreightClient("http://svc.test", TOKEN, transport=transport) as client:
        with pytest.raises(FreightError) as info:
            await client.book_parcel({"id": "q", "rateId": "r"})
    assert SECRET_PART not in _rendered(info.value)


@pytest.mark.parametrize(
    "bad", ["tök.en-s3cr3t-VALUE", "two words s3cr3t-VALUE", "line\ns3cr3t-VALUE"]
)
def test_unsendable_token_is_refused_without_showing_it(bad: str) -> None:
    with pytest.raises(ValueError, match="API token") as info:
        FreightClient("http://svc.test", bad)
    rendered = _rendered(info.value, skip_test_frame=True)
    assert "__init__" in rendered
    assert SECRET_PART not in rendered


async def test_token_blanks_are_dropped() -> None:
    transport = FaultTransport(reply(200, {"shipments": []}))
    async with FreightClient("http://svc.test", f"  {TOKEN}\n", transport=transport) as client:
        await client.verify()
    assert transport.requests[0].headers["authorization"] == f"Bearer {TOKEN}"
