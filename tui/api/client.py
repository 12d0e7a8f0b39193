"""FreightClient: the async client of the shipping service, over one keep-alive httpx client."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from decimal import Decimal
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import quote

import httpx
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from tui import __version__
from tui.api.auth import BearerAuth
from tui.api.errors import (
    ApiError,
    BookingOutcomeUnknownError,
    FreightError,
    NotFoundError,
    ProtocolError,
    RequestValidationError,
    TransportError,
)
from tui.api.failures import Diagnosis, Kind
from tui.api.logs import LOG, register_secret, unregister_secret
from tui.api.models import (
    Booking,
    BookingRequest,
    OutgoingModel,
    ParcelBooking,
    ParcelBookingRequest,
    Quote,
    RateRequest,
    Shipment,
    ShipmentDetail,
    ShipmentPage,
    ShipmentQuery,
    TrackingEvent,
    newest_first,
)
from tui.api.options import ClientOptions
from tui.api.retry import backoff_delay
from tui.api.secret import Secret

__all__ = ["USER_AGENT", "FreightClient"]

USER_AGENT = f"freight-tui/{__version__}"
_JSON_BODY = {"Content-Type": "application/json"}
_ANY = {"Accept": "*/*"}
_Out = TypeVar("_Out", bound=OutgoingModel)


class FreightClient:
    """Async client of the shipping service; use as ``async with FreightClient(...) as c``.

    GETs retry on 429 (honouring ``Retry-After`` up to a cap), on connect errors, broken
    connections and 5xx, with jittered back-off; POST /rates retries on 429 and 5xx; bookings are
    never re-sent, and a booking whose outcome cannot be known raises
    ``BookingOutcomeUnknownError``. Redirects are not followed for API calls.

    ``timeout`` (seconds) replaces ``options.read_timeout`` for GETs and POST /rates; bookings
    wait ``options.booking_timeout``. ``sleep`` replaces ``asyncio.sleep`` between retries.

    Each try must bring its whole answer within a deadline (``options.request_deadline``, by
    default the read timeout's budget; ``booking_deadline``; ``document_deadline``) and at most
    ``options.max_answer_bytes`` (documents: ``max_document_bytes``), counted as it streams
    in: past either, ``DeadlineExceededError`` or ``ResponseTooLargeError`` (for a booking,
    ``BookingOutcomeUnknownError``), and the rest is never read.
    """

    def __init__(
        self,
        base_url: str,
        token: str | Secret,
        *,
        timeout: float | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        options: ClientOptions | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        checked = _checked_token(token)
        del token  # no frame of a traceback from here on holds the plain value
        if checked is None:
            raise RequestValidationError(
                {"token": "contains spaces or characters that cannot be sent"},
                "The API token contains spaces or characters that cannot be sent (letters, "
                "digits and punctuation only). Check for a pasted quote or line break and log "
                "in again.",
            )
        self._token = checked
        self.options = options or ClientOptions()
        self.base_url = origin = _origin(base_url)
        opts = self.options
        read = opts.read_timeout if timeout is None else timeout
        self._diagnosis = Diagnosis(origin, read, opts.retry.retry_after_cap)
        self._booking_timeout = httpx.Timeout(
            opts.booking_timeout, connect=opts.connect_timeout, pool=opts.connect_timeout
        )
        self._deadline = opts.request_deadline if opts.request_deadline is not None else read
        self._booking_deadline = (
            opts.booking_deadline if opts.booking_deadline is not None else opts.booking_timeout
        )
        self._sleep = sleep or asyncio.sleep
        self._wire = opts.wire
        self._booking_ctx = {"booking_aliases": opts.wire.booking_aliases}
        self._parcel_ctx = {"parcel_aliases": opts.wire.parcel_aliases}
        register_secret(self._token)
        self._closed = False
        self._http = httpx.AsyncClient(
            base_url=origin,
            auth=BearerAuth(self._token, origin),
            headers={"Accept": "application/json", "User-Agent": USER_AGENT},
            timeout=httpx.Timeout(read, connect=opts.connect_timeout, pool=opts.connect_timeout),
            transport=transport,
            follow_redirects=False,
            limits=httpx.Limits(
                max_connections=10, max_keepalive_connections=5, keepalive_expiry=4
            ),
        )

    @property
    def account(self) -> str | None:
        """The account the credentials name: the client ID of an ``ID.SECRET`` token (not a
        secret: the dashboard shows it); None when the token is not of that form."""
        client_id, dot, _ = self._token.reveal().partition(".")
        return client_id if dot and client_id else None

    def __repr__(self) -> str:
        return f"FreightClient({str(getattr(self, 'base_url', '?'))!r}, token='***')"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool (idempotent)."""
        if not self._closed:
            self._closed = True
            await self._http.aclose()
            unregister_secret(self._token)

    # -- operations -------------------------------------------------------------------------

    async def get_rates(
        self, request: RateRequest | Mapping[str, Any], *, body: Mapping[str, Any] | None = None
    ) -> Quote:
        """POST /rates: a quote with one rate per carrier offer.

        ``body``: a JSON object to send exactly as the caller wrote it (a ``--request`` file),
        its names and spellings intact; ``request`` is then what it was checked as.
        """
        req = _validated(RateRequest, request)
        data = await self._call("POST", "rates", "rates", content=_body(req, self._wire, body))
        return _parse(Quote, data)

    async def book(self, request: BookingRequest | Mapping[str, Any]) -> Booking:
        """POST /book (LTL, truckload). Sent once; never retried.

        Any shipment id, PRO, BOL, pickup confirmation or tracking number in the answer makes it
        a success; an answer with none of them raises ``BookingOutcomeUnknownError``.
        """
        req = _validated(BookingRequest, request)
        data = await self._book_call("book", req)
        return _booked(Booking, data, self._booking_ctx, req)

    async def book_parcel(self, request: ParcelBookingRequest | Mapping[str, Any]) -> ParcelBooking:
        """POST /book/parcel. Sent once; never retried (same success rule as ``book``)."""
        req = _validated(ParcelBookingRequest, request)
        data = await self._book_call("book/parcel", req)
        return _booked(ParcelBooking, data, self._parcel_ctx, req)

    async def _book_call(self, path: str, req: BookingRequest | ParcelBookingRequest) -> Any:
        """Send a booking once; an unknown outcome names the booking's reference when it has one."""
        try:
            return await self._call(
                "POST",
                path,
                "book",
                content=_body(req, self._wire),
                booking=(req.quote_id, req.rate_id),
            )
        except BookingOutcomeUnknownError as exc:
            if req.reference is None:
                raise
            raise BookingOutcomeUnknownError(
                exc.quote_id, exc.rate_id, exc.reason, req.reference
            ) from None

    async def search_shipments(
        self,
        query: ShipmentQuery | Mapping[str, Any] | None = None,
        continuation_token: str | None = None,
        *,
        limit: int | None = None,
    ) -> ShipmentPage:
        """GET /shipments: one page; ``continuation_token`` from the previous page."""
        q = ShipmentQuery() if query is None else _validated(ShipmentQuery, query)
        names = self._wire.shipment_params
        params: list[tuple[str, str]] = []
        if q.text:
            params.append((names.text, q.text))
        if q.status:
            params.append((names.status, q.status))
        if q.mode:
            params.append((names.mode, q.mode))
        if q.pickup_date_from:
            params.append((names.pickup_date_from, q.pickup_date_from.isoformat()))
        if q.pickup_date_to:
            params.append((names.pickup_date_to, q.pickup_date_to.isoformat()))
        size = limit if limit is not None else self.options.page_size
        if size:
            params.append((names.page_size, str(size)))
        if continuation_token:
            params.append((names.continuation_token, continuation_token))
        for name, value in params:
            if not _is_text(value):
                raise RequestValidationError({name: _NOT_TEXT})
        data = await self._call("GET", "shipments", "get", params=params)
        return _parse(ShipmentPage, data)

    async def iter_shipments(
        self, query: ShipmentQuery | Mapping[str, Any] | None = None, *, limit: int | None = None
    ) -> AsyncIterator[Shipment]:
        """Every shipment matching ``query``, page after page, each id once.

        Stops when a page has no token (absent, null, empty), repeats a token, or is empty, and
        after ``options.max_pages`` pages whatever the server says.
        """
        q = ShipmentQuery() if query is None else _validated(ShipmentQuery, query)
        token: str | None = None
        seen_tokens: set[str] = set()
        seen_ids: set[str] = set()
        for _ in range(self.options.max_pages):
            page = await self.search_shipments(q, token, limit=limit)
            for shipment in page.shipments:
                if shipment.id not in seen_ids:
                    seen_ids.add(shipment.id)
                    yield shipment
            token = page.continuation_token
            if not page.shipments or token is None or token in seen_tokens:
                return
            seen_tokens.add(token)

    async def get_shipment(self, shipment_id: str) -> ShipmentDetail:
        """GET /shipments/{id} (the id percent-encoded)."""
        data = await self._call("GET", "shipments/" + _path_segment(shipment_id), "get")
        if not data.get("id"):  # the server left it out: it is the one asked for
            data = {**data, "id": shipment_id.strip()}
        return _parse(ShipmentDetail, data)

    async def get_tracking(self, shipment_id: str) -> list[TrackingEvent]:
        """The tracking events of a shipment, newest first, each with an aware ``time``.

        Reads GET /shipments/{id}/tracking (a JSON array, or an object with ``events``,
        ``trackingEvents`` or ``items``). A server without that endpoint (404 or 405) gets the
        events of the shipment detail instead, and an empty list when it has none.
        """
        segment = _path_segment(shipment_id)
        try:
            data = await self._call("GET", f"shipments/{segment}/tracking", "get", any_json=True)
        except NotFoundError:
            data = None
        except ApiError as exc:
            if exc.status != 405:
                raise
            data = None
        if data is None:
            detail = await self.get_shipment(shipment_id)
            return newest_first(list(detail.events))
        return newest_first(_tracking_events(data))

    async def change(
        self, which: str, shipment_id: str, body: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Send one change after booking (``which`` names a ``ChangePaths`` route: cancel,
        pickup_request, pickup_change, pickup_cancel) once, never retried; the answer's JSON
        object (``tui.api.changes`` reads it)."""
        method, path = self._wire.changes.route(which, _path_segment(shipment_id))
        content = json_bytes(dict(body)) if body is not None else None
        headers = _JSON_BODY if content is not None else None
        _, raw = await self._send(method, path, "book", content=content, headers=headers)
        try:  # any 2xx is the change made: what its body says is only information
            data = json.loads(raw, parse_float=Decimal) if raw.strip() else {}
        except (ValueError, RecursionError):
            data = {}
        return data if isinstance(data, dict) else {}

    async def download_document(self, url: str) -> bytes:
        """The bytes of a document (BOL, label) at ``url`` (absolute, or relative to the base).

        The token is sent only to the service's own origin; redirects are followed, and the
        token is dropped on any hop to another origin.
        """
        try:
            target = self.base_url.join(url.strip())
        except (httpx.InvalidURL, ValueError, TypeError):  # `http://[::1/…`, NUL, 64 KiB
            raise RequestValidationError({"url": "is not a valid address"}) from None
        if target.scheme not in ("http", "https") or not target.host:
            raise RequestValidationError({"url": "must be an http or https address"})
        opts = self.options
        _, body = await self._send(
            "GET",
            target,
            "get",
            headers=_ANY,
            follow=True,
            deadline=opts.document_deadline,
            limit=opts.max_document_bytes,
        )
        return body

    async def verify(self) -> None:
        """One cheap authenticated call (a one-shipment search): raises if the token is bad."""
        names = self._wire.shipment_params
        await self._call("GET", "shipments", "get", params=[(names.page_size, "1")])

    # -- plumbing ---------------------------------------------------------------------------

    async def _call(
        self,
        method: str,
        path: str,
        kind: Kind,
        *,
        params: list[tuple[str, str]] | None = None,
        content: bytes | None = None,
        booking: tuple[str, str] | None = None,
        any_json: bool = False,
    ) -> Any:
        """Send, check the status, and return the JSON object (or, with ``any_json``, any JSON
        value) of a 2xx answer."""
        response, body = await self._send(
            method,
            path,
            kind,
            params=params,
            content=content,
            headers=_JSON_BODY if content is not None else None,
            booking=booking,
        )
        failure: FreightError | None = None
        try:
            data = json.loads(body, parse_float=Decimal)
        except (ValueError, RecursionError):
            failure = self._diagnosis.unreadable(response, booking, "is not complete JSON")
        else:
            if isinstance(data, dict) or any_json:
                return data
            failure = self._diagnosis.unreadable(response, booking, "is not a JSON object")
        del body  # (what the server said stays out of a traceback's locals)
        raise failure

    async def _send(
        self,
        method: str,
        url: str | httpx.URL,
        kind: Kind,
        *,
        params: list[tuple[str, str]] | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        booking: tuple[str, str] | None = None,
        follow: bool = False,
        deadline: float | None = None,
        limit: int | None = None,
    ) -> tuple[httpx.Response, bytes]:
        """Send with the retry rules of ``kind``; return a 2xx response and its body, or raise.

        Each try has ``deadline`` seconds (default: the kind's) for its whole answer, whose
        body may hold ``limit`` bytes (default: ``max_answer_bytes``; a larger error body is
        dropped, a larger 2xx body refused).
        """
        if self._closed:
            raise TransportError("The connection to the shipping service was closed.")
        policy = self.options.retry
        tries = policy.attempts if kind == "get" else policy.rate_attempts if kind == "rates" else 1
        timeout: httpx.Timeout | None = self._booking_timeout if kind == "book" else None
        if deadline is None:
            deadline = self._booking_deadline if kind == "book" else self._deadline
        document = limit is not None
        if limit is None:
            limit = self.options.max_answer_bytes
        retry = 0
        while True:
            failure: FreightError | None = None
            retriable = False
            wait: float | None = None
            response: httpx.Response | None = None
            body: bytes | None = b""
            started = time.perf_counter()
            try:
                request = self._http.build_request(
                    method,
                    url,
                    params=tuple(params) if params else None,
                    content=content,
                    headers=headers,
                    timeout=timeout if timeout is not None else httpx.USE_CLIENT_DEFAULT,
                )
                async with asyncio.timeout(deadline):
                    answer = await self._http.send(request, stream=True, follow_redirects=follow)
                    try:
                        body = await _read_capped(answer, limit)
                    finally:
                        await answer.aclose()
                response = answer
            except httpx.TransportError as exc:
                failure, retriable = self._diagnosis.transport(exc, kind, booking)
            except TimeoutError:
                failure = self._diagnosis.deadline(kind, booking, deadline)
            except (httpx.InvalidURL, UnicodeError):
                failure = RequestValidationError({"url": "is not a valid address"})
            except httpx.RequestError as exc:  # an undecodable body, endless redirects
                failure = self._diagnosis.broken(exc, booking)
            if response is not None:
                status = response.status_code
                if LOG.isEnabledFor(10):
                    LOG.debug(
                        "%s %s -> %d in %.1f ms",
                        method,
                        response.request.url.path,
                        status,
                        (time.perf_counter() - started) * 1000,
                    )
                if body is None and 200 <= status < 300:
                    failure = self._diagnosis.too_large(response, booking, limit, document)
                elif 200 <= status < 300:
                    assert body is not None
                    return response, body
                else:  # an error too large to read is still the error its status says
                    failure, retriable, wait = self._diagnosis.status(
                        response, body or b"", kind, booking
                    )
            body = None  # an error body may echo the token: no frame of a traceback keeps it
            assert failure is not None
            if not retriable or retry + 1 >= tries:
                LOG.info("request failed: %s", failure.message)
                raise failure
            delay = wait if wait is not None else backoff_delay(policy, retry)
            where = url.path if isinstance(url, httpx.URL) else "/" + url.split("?")[0]
            LOG.info("retrying %s %s in %.2f s: %s", method, where, delay, type(failure).__name__)
            retry += 1
            await self._sleep(delay)


def json_bytes(value: Any) -> bytes:
    """A JSON value as UTF-8 bytes, its numbers as written: a ``Decimal`` (what a file read with
    ``parse_float=Decimal`` holds) goes out as its digits, not as a float or a string."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            parts.append(item.text)
        elif isinstance(item, Decimal):
            parts.append(str(item) if item.is_finite() else "null")
        elif isinstance(item, Mapping):
            stack.append(_Raw("}"))
            for index, (key, inner) in enumerate(reversed(list(item.items()))):
                stack.append(inner)
                stack.append(_Raw(json.dumps(str(key), ensure_ascii=False) + ":"))
                if index < len(item) - 1:
                    stack.append(_Raw(","))
            stack.append(_Raw("{"))
        elif isinstance(item, list | tuple):
            stack.append(_Raw("]"))
            for index, inner in enumerate(reversed(item)):
                stack.append(inner)
                if index < len(item) - 1:
                    stack.append(_Raw(","))
            stack.append(_Raw("["))
        else:
            parts.append(json.dumps(item, ensure_ascii=False))
    return "".join(parts).encode("utf-8")


class _Raw:
    """JSON text already written (a bracket, a comma, a key)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


async def _read_capped(response: httpx.Response, limit: int) -> bytes | None:
    """The body, or None as soon as it is known to exceed ``limit`` bytes (the rest unread).

    A declared length over the limit is refused before reading; a plain body of a declared
    length within it is read at once; otherwise the decoded bytes are counted as they come.
    """
    headers = response.headers
    length = headers.get("content-length")
    if length is not None and length.isdigit():
        if int(length) > limit:
            return None
        if "content-encoding" not in headers:
            return await response.aread()
    size = 0
    parts: list[bytes] = []
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            return None
        parts.append(chunk)
    return b"".join(parts)


def _origin(base_url: str) -> httpx.URL:
    """The base URL, ending in ``/``; only http(s), a host, and no user name or password."""
    problem = "expected http:// or https:// and a host name"
    try:
        url = httpx.URL(base_url.strip().rstrip("/") + "/")
    except (httpx.InvalidURL, ValueError, TypeError):
        url = None
    if url is not None and url.userinfo:
        problem = "it must not contain a user name or password"
    elif url is not None and url.scheme in ("http", "https") and url.host:
        return url
    raise RequestValidationError({"baseUrl": problem}, f"Not a usable service address: {problem}.")


def _checked_token(token: str | Secret) -> Secret | None:
    """The token as a Secret, surrounding blanks dropped; None if it cannot go in a header.

    Checked up front so that an encoding error (whose repr would hold the value) never escapes.
    """
    value = Secret(token.reveal().strip() if isinstance(token, Secret) else token.strip())
    if all(33 <= ord(ch) < 127 for ch in value.reveal()):
        return value
    return None


def _validated(model: type[_Out], value: _Out | Mapping[str, Any]) -> _Out:
    """A request model as given, or validated from a mapping (``RequestValidationError``)."""
    if isinstance(value, model):
        return value
    return model.build(value)


_In = TypeVar("_In", Quote, ShipmentPage, ShipmentDetail)


def _parse(model: type[_In], data: dict[str, Any]) -> _In:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        fields = ", ".join(
            ".".join(str(p) for p in e["loc"]) or "body" for e in exc.errors(include_url=False)[:3]
        )
        raise ProtocolError(
            f"The service's answer did not have the expected shape ({fields}). The service may "
            "use a different version of the interface."
        ) from None


_Booked = TypeVar("_Booked", Booking, ParcelBooking)


def _booked(
    model: type[_Booked],
    data: Any,
    context: Mapping[str, Any],
    req: BookingRequest | ParcelBookingRequest,
) -> _Booked:
    """The booking read leniently; outcome unknown unless it names the shipment somehow."""
    try:
        booking = model.model_validate(data, context=context)
    except ValidationError:
        raise BookingOutcomeUnknownError(
            req.quote_id, req.rate_id, "the service's answer could not be read", req.reference
        ) from None
    found = booking.identifiers
    if found.get("shipment_id") == req.quote_id and len(found) == 1:
        found = {}  # the answer only echoed the quote id back
    if not found:
        raise BookingOutcomeUnknownError(
            req.quote_id,
            req.rate_id,
            "the answer named no shipment id, PRO, BOL, pickup confirmation or tracking number",
            req.reference,
        )
    return booking


_EVENT_KEYS = ("events", "trackingEvents", "items", "tracking", "data")


def _tracking_events(data: Any) -> list[TrackingEvent]:
    """Events from a bare array or an envelope; entries that are not objects are skipped."""
    if isinstance(data, dict):
        data = next((data[k] for k in _EVENT_KEYS if isinstance(data.get(k), list)), [])
    if not isinstance(data, list):
        return []
    events: list[TrackingEvent] = []
    for entry in data:
        if isinstance(entry, dict):
            try:
                events.append(TrackingEvent.model_validate(entry))
            except ValidationError:
                continue
    return events


_NOT_TEXT = "holds a byte that is not text (an undecodable character in the input)"


def _is_text(value: str) -> bool:
    """Whether ``value`` can be sent: no lone surrogate (a byte that was not UTF-8)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _body(request: OutgoingModel, wire: Any, raw: Mapping[str, Any] | None = None) -> bytes:
    """A request's JSON body (or ``raw``, the caller's own, as written); text that cannot be
    sent is a ``RequestValidationError``."""
    try:
        return request.wire_json(wire) if raw is None else json_bytes(raw)
    except (ValueError, PydanticSerializationError):  # a lone surrogate in some field
        raise RequestValidationError({"request": _NOT_TEXT}) from None


def _path_segment(value: str) -> str:
    """Percent-encode one path segment (``/``, ``?``, ``#``, ``%`` and dot segments too)."""
    value = value.strip()
    if not value:
        raise RequestValidationError({"shipmentId": "is required"})
    if not _is_text(value):
        raise RequestValidationError({"shipmentId": _NOT_TEXT})
    if value in (".", ".."):
        return value.replace(".", "%2E")
    return quote(value, safe="")
