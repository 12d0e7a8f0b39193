"""FreightClient against faults a real server or network produces: retries, timeouts, bad bodies."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.api.faults import FaultTransport, Step, raw, reply
from tui.api import (
    AuthenticationError,
    BookingOutcomeUnknownError,
    ClientOptions,
    ConflictError,
    FreightClient,
    InvalidRequestError,
    NotFoundError,
    ProtocolError,
    RateLimitedError,
    RequestTimeoutError,
    RequestValidationError,
    RetryPolicy,
    ServerError,
    SubscriptionError,
    TransportError,
)
from tui.api.client import USER_AGENT
from tui.api.wire import WireFormat

BASE = "http://svc.test"
TOKEN = "demo.demo-secret"

QUOTE = {
    "id": "q_1",
    "rates": [{"id": "r_1", "status": "ok", "mode": "ltl", "total": 100.5, "charges": []}],
}
BOOKING_REQ: dict[str, Any] = {
    "quote_id": "q_1",
    "rate_id": "r_1",
    "origin_company": "Acme",
    "origin_address": "1 Main St, Atlanta, GA 30301",
    "dest_company": "Beta",
    "dest_address": "2 Main St, New York, NY 10001",
}
RATE_REQ: dict[str, Any] = {
    "originPostalCode": "30301",
    "destPostalCode": "10001",
    "items": [
        {"weight": 500, "length": 48, "width": 40, "height": 48, "quantity": 1, "package": "pallet"}
    ],
}


class Harness:
    """A client over a fault transport, with recorded (not slept) back-off waits."""

    def __init__(self, *steps: Step, **options: Any) -> None:
        self.transport = FaultTransport(*steps)
        self.sleeps: list[float] = []
        policy = RetryPolicy(backoff_base=0.01, backoff_cap=0.05, retry_after_cap=5)
        opts = ClientOptions(retry=policy, **options)

        async def sleep(seconds: float) -> None:
            self.sleeps.append(seconds)

        self.client = FreightClient(
            BASE, TOKEN, transport=self.transport, options=opts, sleep=sleep
        )

    @property
    def sent(self) -> int:
        return len(self.transport.requests)


@pytest.fixture
async def harness() -> AsyncIterator[Callable[..., Harness]]:
    made: list[Harness] = []

    def make(*steps: Step, **options: Any) -> Harness:
        h = Harness(*steps, **options)
        made.append(h)
        return h

    yield make
    for h in made:
        await h.client.aclose()


async def test_headers_per_spec(harness: Callable[..., Harness]) -> None:
    h = harness(reply(200, QUOTE), reply(200, {"shipments": []}))
    await h.client.get_rates(RATE_REQ)
    await h.client.search_shipments()
    post, get = h.transport.requests
    assert post.headers["authorization"] == f"Bearer {TOKEN}"
    assert post.headers["content-type"] == "application/json"
    assert post.headers["accept"] == "application/json"
    assert post.headers["user-agent"] == USER_AGENT
    assert USER_AGENT.startswith("freight-tui/")
    assert json.loads(post.content)["originPostalCode"] == "30301"
    assert get.headers["authorization"] == f"Bearer {TOKEN}"
    assert "content-type" not in get.headers


async def test_base_url_path_prefix_is_kept(harness: Callable[..., Harness]) -> None:
    transport = FaultTransport(reply(200, {"shipments": []}))
    async with FreightClient("http://svc.test/api/v1/", TOKEN, transport=transport) as client:
        await client.search_shipments()
    assert transport.requests[0].url.path == "/api/v1/shipments"


async def test_get_retries_5xx_then_succeeds(harness: Callable[..., Harness]) -> None:
    h = harness(reply(503, {"name": "UNAVAILABLE"}), reply(200, {"id": "s_1"}))
    detail = await h.client.get_shipment("s_1")
    assert detail.id == "s_1"
    assert h.sent == 2
    assert len(h.sleeps) == 1
    assert 0 <= h.sleeps[0] <= 0.01


async def test_get_gives_up_after_bounded_attempts(harness: Callable[..., Harness]) -> None:
    err = {"name": "INTERNAL_ERROR", "requestId": "abc", "message": "boom"}
    h = harness(*[reply(500, err) for _ in range(4)])
    with pytest.raises(ServerError) as info:
        await h.client.get_shipment("s_1")
    assert h.sent == 4
    assert len(h.sleeps) == 3
    assert "Try again" in str(info.value)
    assert "abc" in str(info.value)
    assert info.value.status == 500
    assert info.value.request_id == "abc"


async def test_html_502_page_then_readable_error(harness: Callable[..., Harness]) -> None:
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    h = harness(*[raw(502, page) for _ in range(4)])
    with pytest.raises(ServerError) as info:
        await h.client.search_shipments()
    assert "<html" not in str(info.value)
    assert "HTTP 502" in str(info.value)


async def test_429_storm_honours_retry_after_and_stops(harness: Callable[..., Harness]) -> None:
    h = harness(*[reply(429, {"name": "RATE_LIMITED"}, retry_after="2") for _ in range(4)])
    with pytest.raises(RateLimitedError) as info:
        await h.client.search_shipments()
    assert h.sent == 4
    assert h.sleeps == [2.0, 2.0, 2.0]
    assert info.value.retry_after == 2.0
    assert "2 seconds" in str(info.value)


async def test_429_longer_than_the_cap_is_not_waited_for(harness: Callable[..., Harness]) -> None:
    h = harness(reply(429, {"name": "RATE_LIMITED"}, retry_after="120"))
    with pytest.raises(RateLimitedError) as info:
        await h.client.get_shipment("s")
    assert h.sent == 1
    assert h.sleeps == []
    assert info.value.retry_after == 120


async def test_429_without_retry_after_backs_off(harness: Callable[..., Harness]) -> None:
    h = harness(reply(429, None), reply(200, {"shipments": []}))
    await h.client.search_shipments()
    assert h.sent == 2
    assert len(h.sleeps) == 1


async def test_rates_retry_on_429_and_5xx(harness: Callable[..., Harness]) -> None:
    h = harness(reply(429, {}, retry_after="1"), reply(200, QUOTE))
    quote = await h.client.get_rates(RATE_REQ)
    assert quote.rates[0].total == 100.5
    assert h.sent == 2
    # A rate books nothing: a 5xx is asked again (rate_attempts tries in all).
    h1 = harness(reply(503, {}), reply(200, QUOTE))
    assert (await h1.client.get_rates(RATE_REQ)).rates[0].total == 100.5
    assert h1.sent == 2
    h2 = harness(reply(503, {}), reply(502, {}), reply(500, {}))
    with pytest.raises(ServerError):
        await h2.client.get_rates(RATE_REQ)
    assert h2.sent == 3
    h3 = harness(httpx.ConnectError("refused"))
    with pytest.raises(TransportError):
        await h3.client.get_rates(RATE_REQ)
    assert h3.sent == 1


async def test_connect_error_and_reset_are_retried_for_gets(
    harness: Callable[..., Harness],
) -> None:
    h = harness(
        httpx.ConnectError("refused"),
        httpx.ReadError("connection reset by peer"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        reply(200, {"id": "s"}),
    )
    assert (await h.client.get_shipment("s")).id == "s"
    assert h.sent == 4


async def test_connect_failure_message_names_the_host(harness: Callable[..., Harness]) -> None:
    h = harness(*[httpx.ConnectError("refused") for _ in range(4)])
    with pytest.raises(TransportError) as info:
        await h.client.verify()
    assert "svc.test" in str(info.value)
    assert "could not be reached" in str(info.value)
    assert h.sent == 4


async def test_read_timeout_on_get_is_not_retried(harness: Callable[..., Harness]) -> None:
    h = harness(httpx.ReadTimeout("timed out"))
    with pytest.raises(RequestTimeoutError) as info:
        await h.client.get_shipment("s")
    assert h.sent == 1
    assert "did not answer within" in str(info.value)


async def test_truncated_json_is_a_protocol_error(harness: Callable[..., Harness]) -> None:
    h = harness(raw(200, b'{"shipments": [{"id": "s_1", "crea', "application/json"))
    with pytest.raises(ProtocolError) as info:
        await h.client.search_shipments()
    assert "could not read" in str(info.value)
    assert h.sent == 1


async def test_html_200_and_wrong_shapes_are_protocol_errors(
    harness: Callable[..., Harness],
) -> None:
    h = harness(
        raw(200, b"<html>login page</html>"),
        reply(200, [1, 2]),
        reply(200, {"shipments": "none"}),
        reply(200, {"rates": []}),
    )
    with pytest.raises(ProtocolError, match="text/html"):
        await h.client.search_shipments()
    with pytest.raises(ProtocolError, match="not a JSON object"):
        await h.client.search_shipments()
    page = await h.client.search_shipments()  # an optional list of the wrong type: empty
    assert page.shipments == []
    assert page.raw == {"shipments": "none"}
    with pytest.raises(ProtocolError, match="expected shape"):
        await h.client.get_rates(RATE_REQ)


async def test_error_statuses_map_to_the_hierarchy(harness: Callable[..., Harness]) -> None:
    fields = [{"field": "items[0].weight", "message": "must be > 0"}]
    h = harness(
        reply(401, {"name": "UNAUTHORIZED", "requestId": "r1", "message": "bad token"}),
        reply(402, {"name": "SUBSCRIPTION_INACTIVE"}),
        reply(404, {"name": "SHIPMENT_NOT_FOUND", "message": "no shipment s_x"}),
        reply(400, {"name": "VALIDATION_ERROR", "fields": fields}),
        reply(409, {"name": "ALREADY_BOOKED", "shipmentId": "s_9"}),
    )
    with pytest.raises(AuthenticationError, match="freight login") as auth:
        await h.client.verify()
    assert auth.value.request_id == "r1"
    assert auth.value.name == "UNAUTHORIZED"
    with pytest.raises(SubscriptionError):
        await h.client.get_shipment("s")
    with pytest.raises(NotFoundError, match="no shipment s_x"):
        await h.client.get_shipment("s_x")
    with pytest.raises(InvalidRequestError) as bad:
        await h.client.get_rates(RATE_REQ)
    assert bad.value.fields == {"items[0].weight": "must be > 0"}
    with pytest.raises(ConflictError) as conflict:
        await h.client.book(BOOKING_REQ)
    assert conflict.value.shipment_id == "s_9"
    assert "s_9" in str(conflict.value)
    assert h.sent == 5


async def test_invalid_request_is_not_sent(harness: Callable[..., Harness]) -> None:
    h = harness()
    with pytest.raises(RequestValidationError) as info:
        await h.client.get_rates({**RATE_REQ, "destPostalCode": "ABCDE"})
    assert list(info.value.fields) == ["destPostalCode"]
    with pytest.raises(RequestValidationError):
        await h.client.get_shipment("  ")
    assert h.sent == 0


@pytest.mark.parametrize(
    ("exc", "reason"),
    [
        (httpx.ReadTimeout("timed out"), "no answer in time"),
        (httpx.WriteTimeout("timed out"), "no answer in time"),
        (httpx.ReadError("reset"), "connection broke"),
        (httpx.RemoteProtocolError("peer closed connection"), "connection broke"),
    ],
)
async def test_booking_that_may_have_arrived_is_sent_once(
    harness: Callable[..., Harness], exc: Exception, reason: str
) -> None:
    h = harness(exc)
    with pytest.raises(BookingOutcomeUnknownError) as info:
        await h.client.book(BOOKING_REQ)
    assert h.sent == 1
    assert h.sleeps == []
    assert info.value.quote_id == "q_1"
    assert info.value.rate_id == "r_1"
    assert reason in str(info.value)
    assert "Shipments" in str(info.value)
    assert "search for quote" not in str(info.value)  # a listing may not carry quote ids


@pytest.mark.parametrize("status", [500, 502, 503, 504])
async def test_booking_5xx_is_outcome_unknown_never_retried(
    harness: Callable[..., Harness], status: int
) -> None:
    h = harness(raw(status, b"<html>bad gateway</html>"))
    with pytest.raises(BookingOutcomeUnknownError, match=f"HTTP {status}"):
        await h.client.book_parcel({"id": "q_1", "rateId": "r_1"})
    assert h.sent == 1


async def test_booking_rate_limited_or_unreachable_is_not_retried(
    harness: Callable[..., Harness],
) -> None:
    h = harness(reply(429, {}, retry_after="1"), httpx.ConnectError("refused"))
    with pytest.raises(RateLimitedError):
        await h.client.book(BOOKING_REQ)
    with pytest.raises(TransportError, match="Nothing was booked") as info:
        await h.client.book(BOOKING_REQ)
    assert not isinstance(info.value, BookingOutcomeUnknownError)
    assert h.sent == 2
    assert h.sleeps == []


async def test_booking_answer_unreadable_is_outcome_unknown(
    harness: Callable[..., Harness],
) -> None:
    h = harness(raw(201, b'{"shipmentId": "s_1", "proN', "application/json"))
    with pytest.raises(BookingOutcomeUnknownError, match="could not be read"):
        await h.client.book(BOOKING_REQ)
    assert h.sent == 1


async def test_booking_response_aliases_are_configurable(harness: Callable[..., Harness]) -> None:
    body = {"shipment": {"id": "s_7"}, "carrierPro": "777", "docs": [{"url": "/documents/b.pdf"}]}
    aliases = {"pro_number": ("carrierPro",)}
    h = harness(reply(201, body), wire=WireFormat(booking_aliases=aliases))
    booking = await h.client.book(BOOKING_REQ)
    assert booking.shipment_id == "s_7"
    assert booking.pro_number == "777"
    assert booking.documents[0].url == "/documents/b.pdf"
    assert booking.raw == body


def _page(ids: list[str], token: Any = ..., key: str = "continuationToken") -> httpx.Response:
    body: dict[str, Any] = {"shipments": [{"id": i, "status": "pending"} for i in ids]}
    if token is not ...:
        body[key] = token
    return reply(200, body)


@pytest.mark.parametrize(
    ("last", "expected_requests"),
    [
        (_page(["c"]), 2),  # token absent
        (_page(["c"], None), 2),  # token null
        (_page(["c"], ""), 2),  # token empty
        (_page(["c"], "t1"), 2),  # token repeats
        (_page(["c"], "t2"), 3),  # a third page, empty, with a token
    ],
)
async def test_iter_shipments_always_stops(
    harness: Callable[..., Harness], last: httpx.Response, expected_requests: int
) -> None:
    h = harness(_page(["a", "b"], "t1"), last, _page([], "t3"))
    ids = [s.id async for s in h.client.iter_shipments({"status": "pending"})]
    assert ids == ["a", "b", "c"]
    assert h.sent == expected_requests
    second = h.transport.requests[1].url.params
    assert second["continuationToken"] == "t1"
    assert second["status"] == "pending"


async def test_iter_shipments_skips_repeated_ids_and_caps_pages(
    harness: Callable[..., Harness],
) -> None:
    h = harness(*[_page(["a", "b"], f"t{n}") for n in range(5)], max_pages=3)
    ids = [s.id async for s in h.client.iter_shipments()]
    assert ids == ["a", "b"]
    assert h.sent == 3


async def test_query_parameter_names_are_configurable(harness: Callable[..., Harness]) -> None:
    from datetime import date

    from tui.api import ShipmentParams, ShipmentQuery, WireFormat

    names = ShipmentParams(text="q", continuation_token="cursor", page_size="pageSize")
    h = harness(
        _page(["a"], "n"), _page(["b"]), wire=WireFormat(shipment_params=names), page_size=25
    )
    query = ShipmentQuery(text="PRO 1/2", mode="ltl", pickup_date_from=date(2026, 11, 1))
    await h.client.search_shipments(query)
    await h.client.search_shipments(query, "n")
    first, second = (r.url.params for r in h.transport.requests)
    assert dict(first) == {
        "q": "PRO 1/2",
        "mode": "ltl",
        "pickupDateFrom": "2026-11-01",
        "pageSize": "25",
    }
    assert second["cursor"] == "n"


@pytest.mark.parametrize(
    ("shipment_id", "raw_path"),
    [
        ("s_1", "/shipments/s_1"),
        ("a/b c?d#e%f", "/shipments/a%2Fb%20c%3Fd%23e%25f"),
        ("..", "/shipments/%2E%2E"),
        ("über", "/shipments/%C3%BCber"),
    ],
)
async def test_ids_are_percent_encoded(
    harness: Callable[..., Harness], shipment_id: str, raw_path: str
) -> None:
    h = harness(reply(200, {"id": shipment_id}))
    detail = await h.client.get_shipment(shipment_id)
    assert detail.id == shipment_id
    assert h.transport.requests[0].url.raw_path.decode() == raw_path


async def test_redirects_are_not_followed_for_api_calls(harness: Callable[..., Harness]) -> None:
    h = harness(httpx.Response(301, headers={"location": "https://evil.test/shipments"}))
    with pytest.raises(ProtocolError, match="redirects elsewhere"):
        await h.client.search_shipments()
    assert h.sent == 1


async def test_documents_carry_the_token_only_to_the_service_origin(
    harness: Callable[..., Harness],
) -> None:
    h = harness(
        raw(200, b"%PDF-1.4 one", "application/pdf"),
        raw(200, b"%PDF-1.4 two", "application/pdf"),
        httpx.Response(302, headers={"location": "https://cdn.test/x.pdf"}),
        raw(200, b"%PDF-1.4 three", "application/pdf"),
    )
    assert await h.client.download_document(f"{BASE}/documents/1.pdf") == b"%PDF-1.4 one"
    assert await h.client.download_document("https://other.test/2.pdf") == b"%PDF-1.4 two"
    assert await h.client.download_document("/documents/3.pdf") == b"%PDF-1.4 three"
    one, two, hop, three = h.transport.requests
    assert one.headers["authorization"] == f"Bearer {TOKEN}"
    assert "authorization" not in two.headers
    assert hop.headers["authorization"] == f"Bearer {TOKEN}"
    assert str(three.url) == "https://cdn.test/x.pdf"
    assert "authorization" not in three.headers


async def test_document_size_is_capped(harness: Callable[..., Harness]) -> None:
    h = harness(raw(200, b"x" * 2048, "application/pdf"), max_document_bytes=1024)
    with pytest.raises(ProtocolError, match="larger"):
        await h.client.download_document("/documents/big.pdf")


async def test_closed_client_refuses(harness: Callable[..., Harness]) -> None:
    h = harness()
    await h.client.aclose()
    await h.client.aclose()
    with pytest.raises(TransportError):
        await h.client.verify()
    assert h.sent == 0


def test_base_url_must_be_http() -> None:
    with pytest.raises(ValueError, match="http"):
        FreightClient("ftp://x", TOKEN)
    with pytest.raises(ValueError, match="http"):
        FreightClient("svc.test", TOKEN)
    with pytest.raises(ValueError, match="user name or password") as info:
        FreightClient("https://me:hunter2@svc.test", TOKEN)
    assert "hunter2" not in str(info.value)
    with pytest.raises(ValueError, match="http"):
        FreightClient("http://[::1", TOKEN)


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ({"proNumber": "P1", "carrier": {"name": "Acme", "scac": "ACME"}}, {"pro_number": "P1"}),
        ({"shipment": {"id": "s_9", "carrier": {"name": "Acme"}}}, {"shipment_id": "s_9"}),
        ({"result": "ok", "link": "https://svc.test/shipments/s_5"}, {"shipment_id": "s_5"}),
        ({"pickup": {"confirmationNumber": 123}}, {"pickup_confirmation": "123"}),
        ({"tracking": {"trackingNumber": "1Z9"}, "total": "n/a"}, {"tracking_number": "1Z9"}),
        ({"bol": ["B-1", "B-2"], "status": {"code": "Booked"}}, {"bol_number": "B-1"}),
    ],
)
async def test_any_known_number_in_a_booking_answer_is_a_success(
    harness: Callable[..., Harness], body: dict[str, Any], found: dict[str, str]
) -> None:
    h = harness(reply(201, body))
    booking = await h.client.book(BOOKING_REQ)
    assert booking.identifiers == found
    assert booking.raw == body
    assert h.sent == 1


@pytest.mark.parametrize(
    "body",
    [{}, {"status": "received", "carrier": {"name": "Acme"}}, {"id": "q_1", "ok": True}],
)
async def test_an_answer_that_names_no_shipment_is_outcome_unknown(
    harness: Callable[..., Harness], body: dict[str, Any]
) -> None:
    h = harness(reply(201, body))
    with pytest.raises(BookingOutcomeUnknownError, match="named no shipment id, PRO, BOL"):
        await h.client.book(BOOKING_REQ)
    assert h.sent == 1


async def test_parcel_tracking_numbers_inside_packages_are_a_success(
    harness: Callable[..., Harness],
) -> None:
    h = harness(reply(200, {"packages": [{"trackingNumber": "1Z1"}, {"trackingNumber": "1Z2"}]}))
    booking = await h.client.book_parcel({"id": "q_1", "rateId": "r_1"})
    assert booking.tracking_numbers == ["1Z1", "1Z2"]
    assert json.loads(h.transport.requests[0].content) == {"id": "q_1", "rateId": "r_1"}


async def test_tracking_reads_a_bare_array_newest_first(harness: Callable[..., Harness]) -> None:
    events = [
        {"summary": "Created", "createdDate": "2026-11-20T10:00:00Z"},
        {
            "summary": "Delivered",
            "eventDate": "2026-11-23",
            "eventTime": "16:05",
            "offset": "-05:00",
        },
        "not an event",
        {"summary": "Picked up", "eventDate": "2026-11-21", "eventTime": "08:00"},
    ]
    h = harness(reply(200, events))
    got = await h.client.get_tracking("s/1")
    assert [e.summary for e in got] == ["Delivered", "Picked up", "Created"]
    assert got[1].time is not None
    assert got[1].time.isoformat() == "2026-11-21T08:00:00+00:00"  # no zone given: UTC
    assert h.transport.requests[0].url.raw_path == b"/shipments/s%2F1/tracking"


@pytest.mark.parametrize("status", [404, 405])
async def test_tracking_without_the_endpoint_reads_the_detail(
    harness: Callable[..., Harness], status: int
) -> None:
    detail = {"id": "s1", "events": [{"time": "2026-11-20T10:00:00Z", "status": "booked"}]}
    missing = reply(404, {"name": "NOT_FOUND"})
    h = harness(reply(status, {"name": "NOT_FOUND"}), reply(200, detail), missing, missing)
    got = await h.client.get_tracking("s1")
    assert [e.status for e in got] == ["booked"]
    assert [r.url.path for r in h.transport.requests] == ["/shipments/s1/tracking", "/shipments/s1"]
    with pytest.raises(NotFoundError):  # neither the endpoint nor the shipment: not found
        await h.client.get_tracking("s2")


async def test_an_unknown_outcome_names_the_bookings_reference(
    harness: Callable[..., Harness],
) -> None:
    h = harness(reply(502, {}), reply(201, {"status": "queued"}))
    with pytest.raises(BookingOutcomeUnknownError, match=r"search for its reference PO-9\."):
        await h.client.book({**BOOKING_REQ, "reference": "PO-9"})
    with pytest.raises(BookingOutcomeUnknownError) as info:
        await h.client.book({**BOOKING_REQ, "reference": "PO-10"})
    assert info.value.reference == "PO-10"
    assert h.sent == 2
