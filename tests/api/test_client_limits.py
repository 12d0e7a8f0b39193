"""Deadlines and size caps: a hostile server on a real loopback socket cannot hold the client
for ever, nor make it read 50 MB, and each limit says what happened in its own error."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.hostile_server import DOCUMENT_BYTES, TOKEN, HostileServer
from tui.api import (
    BookingOutcomeUnknownError,
    ClientOptions,
    DeadlineExceededError,
    DocumentTooLargeError,
    FreightClient,
    RequestValidationError,
    ResponseTooLargeError,
    ShipmentQuery,
)

MIB = 1024 * 1024
BOOKING = {
    "id": "q_1",
    "rateId": "q_1-A",
    "originCompany": "A",
    "originAddress": "1 A St",
    "destCompany": "B",
    "destAddress": "2 B St",
}


@pytest.fixture
def server() -> HostileServer:
    return HostileServer()


@pytest.fixture
def base_url(server: HostileServer) -> Iterator[str]:
    with server.serve() as url:
        yield url


def client_for(base_url: str, **options: object) -> FreightClient:
    return FreightClient(base_url, TOKEN, options=ClientOptions(**options))  # type: ignore[arg-type]


async def test_an_answer_that_drips_ends_at_the_deadline(
    server: HostileServer, base_url: str
) -> None:
    """One byte every 50 ms: each read is in time, the whole answer (about a minute) is not."""
    server.drip = {"/shipments"}
    server.drip_seconds = 0.05
    async with client_for(base_url, request_deadline=1.0) as client:
        with pytest.raises(
            DeadlineExceededError, match="did not finish its answer within 1 second"
        ) as error:
            await client.search_shipments(ShipmentQuery())
    assert error.value.deadline == 1.0
    assert server.requests["GET /shipments"] == 1  # a deadline is not retried
    assert 0 < server.sent["/shipments"] < 1000  # it gave up long before the end


async def test_the_deadline_defaults_to_the_read_timeouts_budget(base_url: str) -> None:
    async with FreightClient(base_url, TOKEN, timeout=7.5) as client:
        assert client._deadline == 7.5
    options = ClientOptions(read_timeout=11, request_deadline=30, booking_timeout=90)
    async with FreightClient(base_url, TOKEN, options=options) as client:
        assert (client._deadline, client._booking_deadline) == (30, 90)


async def test_a_huge_answer_is_refused_while_it_streams(
    server: HostileServer, base_url: str
) -> None:
    server.huge = {"/shipments"}  # 50 MB of shipments, chunked (no length declared)
    async with client_for(base_url, max_answer_bytes=2 * MIB) as client:
        with pytest.raises(ResponseTooLargeError, match=r"larger than Freight reads \(2 MiB\)"):
            await client.search_shipments(ShipmentQuery())
    # The client stopped reading: the server could send little more than the cap and the
    # socket buffers, never the 50 MB.
    assert server.sent["/shipments"] < 20 * MIB


async def test_a_document_stops_at_its_cap_mid_stream(server: HostileServer, base_url: str) -> None:
    server.huge = {"/documents/1"}
    async with client_for(base_url, max_document_bytes=MIB) as client:
        with pytest.raises(DocumentTooLargeError, match=r"larger than Freight saves \(1 MiB\)"):
            await client.download_document("/documents/1")
        assert await client.download_document("/documents/2") == DOCUMENT_BYTES
    assert server.sent["/documents/1"] < 20 * MIB


async def test_a_document_that_drips_ends_at_the_document_deadline(
    server: HostileServer, base_url: str
) -> None:
    server.drip = {"/documents/1"}
    server.drip_seconds = 0.2
    async with client_for(base_url, document_deadline=1.0) as client:
        with pytest.raises(DeadlineExceededError):
            await client.download_document("/documents/1")


async def test_a_booking_answer_that_never_comes_is_an_unknown_outcome_sent_once(
    server: HostileServer, base_url: str
) -> None:
    server.booking_answer = "never"
    async with client_for(base_url, booking_deadline=1.0) as client:
        with pytest.raises(BookingOutcomeUnknownError, match="no answer in time"):
            await client.book(BOOKING)
    assert server.requests["POST /book"] == 1


async def test_the_deadline_holds_on_the_asgi_transport_too(server: HostileServer) -> None:
    """No socket, no read timeouts: only the deadline ends a booking nobody answers."""
    server.booking_answer = "never"
    transport = httpx.ASGITransport(app=server.app())
    options = ClientOptions(booking_deadline=0.5)
    async with FreightClient(server.base_url, TOKEN, transport=transport, options=options) as c:
        with pytest.raises(BookingOutcomeUnknownError):
            await c.book(BOOKING)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/docs/bol.pdf",
        "http://host.test/docs/\x00bol.pdf",
        "http://host.test/docs/\x7fbol.pdf",
        "http://host.test/" + "a" * 70_000,
        "http://host.test/\udcff.pdf",
        "ftp://host.test/bol.pdf",
    ],
)
async def test_a_document_url_that_cannot_be_fetched_is_a_validation_error(
    server: HostileServer, url: str
) -> None:
    transport = httpx.ASGITransport(app=server.app())
    async with FreightClient(server.base_url, TOKEN, transport=transport) as client:
        with pytest.raises(RequestValidationError, match="url"):
            await client.download_document(url)


def test_a_profiles_limits_table_sets_the_clients_limits() -> None:
    from tui.config.settings import Profile
    from tui.session import client_options_for

    base = {"name": "x", "base_url": "https://x.example", "environment": "sandbox"}
    limits = {"deadline": 5, "booking_deadline": 90, "max_answer_mb": 2, "max_document_mb": 0.5}
    options = client_options_for(Profile.model_validate({**base, "limits": limits}))
    assert (options.request_deadline, options.booking_deadline) == (5, 90)
    assert (options.max_answer_bytes, options.max_document_bytes) == (2 * MIB, MIB // 2)
    assert options.read_timeout == 20  # what the table leaves out keeps its default
    defaults = client_options_for(Profile.model_validate(base))
    assert defaults.request_deadline is None
    assert defaults.max_answer_bytes == 10 * MIB
    with pytest.raises(ValueError, match="greater than 0"):
        Profile.model_validate({**base, "limits": {"deadline": 0}})
