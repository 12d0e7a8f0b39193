"""The ASGI app: routing, auth, rate limit, body limits, and JSON errors for everything."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from tui.sandbox import auth, changes, documents, search, store
from tui.sandbox.booking import book
from tui.sandbox.config import SandboxConfig
from tui.sandbox.db import Database
from tui.sandbox.errors import ApiError
from tui.sandbox.geo import warm_in_background
from tui.sandbox.jsonout import dumps
from tui.sandbox.quotes import create_quote
from tui.sandbox.ratelimit import RateLimiter
from tui.sandbox.seed import seed
from tui.sandbox.tracking import tracking_events
from tui.sandbox.validation import parse_booking, parse_rate_request

log = logging.getLogger("tui.sandbox")

Handler = Callable[["Call"], Awaitable[Response]]
_SHIPMENT = re.compile(r"^/shipments/([A-Za-z0-9_-]{1,64})$")
_TRACKING = re.compile(r"^/shipments/([A-Za-z0-9_-]{1,64})/tracking$")
_CANCEL = re.compile(r"^/shipments/([A-Za-z0-9_-]{1,64})/cancel$")
_PICKUP = re.compile(r"^/shipments/([A-Za-z0-9_-]{1,64})/pickup$")
_DOCUMENT = re.compile(r"^/documents/([A-Za-z0-9_-]{1,64})/(bol\.pdf|label\.pdf|label\.zpl)$")
_DOC_TYPES = {"pdf": "application/pdf", "zpl": "application/zpl"}


class Call:
    """One request being handled: the request, its id, the account and path parameters."""

    def __init__(self, request: Request, request_id: str, account: auth.Account) -> None:
        self.request = request
        self.request_id = request_id
        self.account = account
        self.params: tuple[str, ...] = ()


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    """A JSON response (money with two decimals)."""
    return Response(
        dumps(body).encode(),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


class SandboxApp:
    """The sandbox service as an ASGI application."""

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.db = Database(config.db_path)
        if self.db.get_meta("seeded") is None:
            seed(self.db, config.shipments, config.seed, config.current_time(), pause=config.pause)
        self.limiter = RateLimiter(config.rate_limit, config.rate_burst)
        self.document_url = config.document_url
        """The base URL of document links (None: this sandbox's own)."""
        self.hold_documents = False
        """Test switch: document downloads wait (unanswered) while it is set."""
        self.lose_bookings = False
        """Test switch: a booking that arrives while it is set is never answered nor booked
        (as one lost on the way); set it back and such a request gets a 503."""
        self.bookings_lost = 0
        """How many bookings ``lose_bookings`` swallowed."""
        self.request_times: deque[float] = deque(maxlen=100_000)
        self.limited_answers = 0
        """429s answered (what a client's user would have seen as "too many requests")."""
        """When each authorised request arrived (monotonic seconds): what the rate limit
        counts."""
        self._routes: dict[str, dict[str, Handler]] = {
            "/rates": {"POST": self._rates},
            "/book": {"POST": self._book},
            "/book/parcel": {"POST": self._book_parcel},
            "/shipments": {"GET": self._search},
        }
        warm_in_background()

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        request_id = "req_" + secrets.token_hex(8)
        request = Request(scope, receive)
        try:
            response = await self._dispatch(request, request_id)
        except ApiError as error:
            response = json_response(error.status, error.body(request_id), error.headers)
        except Exception:
            log.exception("sandbox: internal error in %s %s", scope["method"], scope["path"])
            response = json_response(
                500,
                {
                    "name": "INTERNAL_ERROR",
                    "requestId": request_id,
                    "message": "The sandbox hit an internal error; see its log.",
                },
            )
        response.headers["X-Request-Id"] = request_id
        response.headers["Cache-Control"] = "no-store"
        await response(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message: Message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _route(self, path: str) -> tuple[dict[str, Handler], tuple[str, ...]]:
        if path in self._routes:
            return self._routes[path], ()
        patterns: tuple[tuple[re.Pattern[str], dict[str, Handler]], ...] = (
            (_SHIPMENT, {"GET": self._detail}),
            (_TRACKING, {"GET": self._tracking}),
            (_DOCUMENT, {"GET": self._document}),
            (_CANCEL, {"POST": self._cancel}),
            (_PICKUP, {"POST": self._pickup, "PUT": self._pickup, "DELETE": self._pickup}),
        )
        for pattern, methods in patterns:
            match = pattern.match(path)
            if match:
                return methods, match.groups()
        raise ApiError(404, "NOT_FOUND", f"No such path: {path}")

    async def _dispatch(self, request: Request, request_id: str) -> Response:
        path = request.url.path.rstrip("/") or "/"
        methods, params = self._route(path)
        account = auth.authenticate(request.headers.get("authorization"))
        self.request_times.append(time.monotonic())
        wait = self.limiter.acquire(account.client_id)
        if wait is not None:
            self.limited_answers += 1
            raise ApiError(
                429,
                "RATE_LIMITED",
                f"Too many requests; retry in {wait} s.",
                headers={"Retry-After": str(wait)},
            )
        auth.require_subscription(account)
        handler = methods.get(request.method)
        if handler is None:
            raise ApiError(
                405,
                "METHOD_NOT_ALLOWED",
                f"{request.method} is not allowed on {path}; use {', '.join(methods)}.",
                headers={"Allow": ", ".join(methods)},
            )
        call = Call(request, request_id, account)
        call.params = params
        return await handler(call)

    async def _body(self, request: Request) -> Any:
        limit = self.config.max_body_bytes
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise ApiError(413, "PAYLOAD_TOO_LARGE", f"The body is over {limit} bytes.")
        chunks = bytearray()
        async for chunk in request.stream():
            chunks += chunk
            if len(chunks) > limit:
                raise ApiError(413, "PAYLOAD_TOO_LARGE", f"The body is over {limit} bytes.")
        if not chunks.strip():
            raise ApiError(400, "MALFORMED_JSON", "The request needs a JSON body.")
        try:
            return json.loads(bytes(chunks).decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise ApiError(400, "MALFORMED_JSON", f"The body is not valid JSON: {exc}") from None

    def _now_s(self) -> int:
        return int(self.config.current_time().timestamp())

    async def _rates(self, call: Call) -> Response:
        body = await self._body(call.request)
        request = parse_rate_request(body, self.config.current_time())
        quote = create_quote(self.db, self.config, call.account.client_id, request)
        return json_response(200, quote)

    async def _book(self, call: Call) -> Response:
        return await self._booking(call, parcel=False)

    async def _book_parcel(self, call: Call) -> Response:
        return await self._booking(call, parcel=True)

    async def _booking(self, call: Call, *, parcel: bool) -> Response:
        auth.require_booking(call.account)
        if self.lose_bookings:
            self.bookings_lost += 1
            while self.lose_bookings:  # noqa: ASYNC110 (set from a test's thread)
                await asyncio.sleep(0.05)
            raise ApiError(503, "UNAVAILABLE", "The booking was lost on the way (test switch).")
        fields = parse_booking(await self._body(call.request), parcel=parcel)
        result = book(
            self.db,
            self.config,
            call.account.client_id,
            fields,
            parcel=parcel,
            base_url=self._documents_base(call),
        )
        return json_response(200 if parcel else 201, result)

    async def _search(self, call: Call) -> Response:
        query = search.parse_query(dict(call.request.query_params))
        with self.db.lock() as conn:
            store.advance(conn, self._now_s())
            rows, after = search.run(conn, query)
        body: dict[str, Any] = {"shipments": [store.listing(row, self._now_s()) for row in rows]}
        if after is not None:
            body["continuationToken"] = search.encode_token(after)
        return json_response(200, body)

    def _load(self, shipment_id: str) -> Any:
        with self.db.lock() as conn:
            store.advance(conn, self._now_s())
            row = conn.execute("SELECT * FROM shipments WHERE id = ?", (shipment_id,)).fetchone()
        if row is None:
            raise ApiError(404, "SHIPMENT_NOT_FOUND", f"No shipment {shipment_id}.")
        return row

    async def _detail(self, call: Call) -> Response:
        row = self._load(call.params[0])
        return json_response(200, store.detail(row, self._documents_base(call), self._now_s()))

    def _documents_base(self, call: Call) -> str:
        return self.document_url or str(call.request.base_url)

    async def _tracking(self, call: Call) -> Response:
        row = self._load(call.params[0])
        return json_response(200, tracking_events(row, self._now_s()))

    async def _cancel(self, call: Call) -> Response:
        auth.require_booking(call.account)
        with self.db.lock() as conn:
            store.advance(conn, self._now_s())
        return json_response(
            200, changes.cancel(self.db, call.params[0], self.config.current_time())
        )

    async def _pickup(self, call: Call) -> Response:
        auth.require_booking(call.account)
        method = call.request.method
        kind = {"POST": "request", "PUT": "move", "DELETE": "cancel"}[method]
        body = await self._body(call.request) if kind != "cancel" else None
        with self.db.lock() as conn:
            store.advance(conn, self._now_s())
        answer = changes.pickup(
            self.db, call.params[0], body, self.config.current_time(), kind=kind,
            speed=self.config.clock_speed,
        )  # fmt: skip
        return json_response(201 if kind == "request" else 200, answer)

    async def _document(self, call: Call) -> Response:
        shipment_id, name = call.params
        while self.hold_documents:  # noqa: ASYNC110 (set from a test's thread)
            await asyncio.sleep(0.05)
        row = self._load(shipment_id)
        shipment = store.detail(row, str(call.request.base_url), self._now_s())
        if name == "bol.pdf":
            if row["mode"] == "parcel":
                raise ApiError(404, "NOT_FOUND", "Parcel shipments have no bill of lading.")
            content = documents.bol_pdf(shipment)
        elif name == "label.pdf":
            content = documents.label_pdf(shipment)
        else:
            content = documents.label_zpl(shipment)
        filename = f"{shipment_id}-{name}"
        return Response(
            content,
            media_type=_DOC_TYPES[name.rsplit(".", 1)[1]],
            headers={"Content-Disposition": f'inline; filename="{filename}"'},
        )


def create_app(config: SandboxConfig) -> SandboxApp:
    """Open (and seed if new) the database and return the ASGI app."""
    return SandboxApp(config)
