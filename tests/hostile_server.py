"""A hostile server of the shipping interface: everything it sends is an attack on the client.

Not the sandbox and not the independent server: it speaks the interface's shape (so the client
reads its answers) but fills every text field with what must never reach a terminal or a
path — Textual markup (``[@click=app.pwned()]``, a stray ``[x=``), terminal escapes (OSC 52
clipboard write, OSC 0 window title, ``ESC[2J``, OSC 8 hyperlinks, 8-bit C1 forms), NUL, BEL,
DEL and a bidi override — and documents whose type, format and name are paths
(``/home/u/`` + ``bashrc``, ``../../``, ``.ssh/authorized_keys``, ``CON``).

Its search ignores its query (every search answers the same shipments). What else it does is
set per test:

- ``huge``: request paths answered with a ``huge_bytes`` body (50 MB by default), streamed;
- ``drip``: request paths answered one byte every ``drip_seconds``, for as long as it takes;
- ``booking_answer``: ``"hostile"`` (a PRO, BOL and documents full of the above), ``"never"``
  (POST /book and /book/parcel never answer: the connection stays open and silent — other
  helpers' booking tests use this), or ``"error"`` (a 400 whose message is markup and escapes);
- ``no_detail_id``: the shipment detail comes back without its ``id``.

Every request is counted in ``requests`` (``"POST /book"`` …), so a test can tell a booking was
sent once. Use it through httpx's ASGI transport (``app()``), or on a real loopback socket
with ``serve()`` for what only a socket can show (bodies that drip, or are too big to read).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

TOKEN = "hostile.token-1"

OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"  # writes "rm -rf ~" to the clipboard
TITLE = "\x1b]0;PWNED-TITLE\x07"  # sets the window (tmux pane) title
CLEAR = "\x1b[2J\x1b[H"  # wipes the screen
LINK = "\x1b]8;;https://evil.example/\x07"  # opens a hyperlink
C1 = "\x9b2J\x9d0;C1-TITLE\x9c"  # the same in 8-bit C1 form
MARKUP = "[@click=app.pwned()]clickme[/] [b]bold[/b] [x="
CONTROLS = "\x00\x07\x08\x7f\u202e"
ATTACKS = (OSC52, TITLE, CLEAR, LINK, C1, CONTROLS)
"""What must never reach a terminal as it is (markup is checked apart: it must show as text)."""
NEVER_SHOWN = ("PWNED-TITLE", "C1-TITLE", "cm0gLXJmIH4K", "evil.example")
"""Words inside the escape sequences: drawn anywhere, an escape got through as text."""


def evil(word: str) -> str:
    """``word`` followed by every attack: what each text field of this server holds."""
    return f"{word}{OSC52}{TITLE}{CLEAR}{LINK}{MARKUP}{C1}{CONTROLS}"


PRO = "4415[x=227893" + TITLE
"""A PRO with a stray markup bracket (it killed the detail screen) and a title escape."""

DOCUMENTS: list[dict[str, Any]] = [
    # The ~/.bashrc of issue 20: the name sanitises to nothing, the type is a path.
    {"type": "/home/u/", "format": "bashrc", "name": "...", "url": "/documents/1"},
    {"type": "../../", "format": "../pdf", "name": "../../etc/passwd", "url": "/documents/2"},
    {"type": "label", "format": "zpl", "name": ".ssh/authorized_keys", "url": "/documents/3"},
    {"type": "CON", "format": "txt", "name": "CON", "url": "/documents/4"},
    {"type": evil("bol"), "format": evil("pdf"), "name": evil("BOL"), "url": "/documents/5"},
]
DOCUMENT_BYTES = b"%PDF-1.4 hostile\n"


def _address(word: str) -> dict[str, str]:
    return {
        "company": evil(word),
        "address": evil("1 Main St"),
        "city": evil("Chicago"),
        "state": "IL",
        "postalCode": "60607",
        "country": "USA",
    }


def _shipment(number: int) -> dict[str, Any]:
    return {
        "id": f"shp_{number}",
        "createdDate": "2026-11-20T15:04:05Z",
        "status": evil("confirmed") if number % 2 else "confirmed",
        "mode": evil("ltl"),
        "proNumber": PRO if number == 1 else evil(f"PRO{number}"),
        "bolNumber": evil(f"BOL{number}"),
        "trackingNumber": evil(f"TRK{number}"),
        "reference": evil("REF"),
        "origin": _address("Origin Co"),
        "destination": _address("Dest Co"),
        "carrier": {"name": evil("Evil Carrier"), "scac": evil("EVIL")},
        "cost": {"total": 1234.5, "currency": evil("USD")},
        "pickupDate": "2026-11-23",
    }


def _rates(quote_id: str) -> list[dict[str, Any]]:
    return [
        {
            "id": f"{quote_id}-A",
            "status": "ok",
            "mode": "LTL",
            "total": 512.25,
            "days": 3,
            "carrier": evil("Markup Freight"),
            "carrierCode": "MKUP[x=",
            "serviceType": evil("standard"),
            "charges": [
                {"name": evil("linehaul"), "amount": 500.0, "description": evil("note")},
                {"name": "fuel", "amount": 12.25},
            ],
        },
        {
            "id": f"{quote_id}-B",
            "status": "ok",
            "mode": "LTL",
            "total": 700,
            "days": 2,
            "carrier": "Plain Lines",
            "carrierCode": "PLNL",
            "serviceType": "standard",
            "charges": [{"name": "linehaul", "amount": 700}],
        },
        {
            "id": f"{quote_id}-C",
            "status": evil("declined"),
            "mode": "LTL",
            "total": 0,
            "carrier": evil("Declining Co"),
            "carrierCode": "DECL",
            "message": evil("no trucks"),
        },
    ]


@dataclass
class HostileServer:
    """One hostile server; set its behaviours, then use ``app()`` or ``serve()``."""

    shipments: int = 3
    huge: set[str] = field(default_factory=set)
    """Paths (``/shipments``, ``/documents/1``) whose answer is ``huge_bytes`` long."""
    huge_bytes: int = 50 * 1024 * 1024
    drip: set[str] = field(default_factory=set)
    """Paths answered one byte every ``drip_seconds`` (a body that never quite ends)."""
    drip_seconds: float = 0.5
    booking_answer: Literal["hostile", "never", "error"] = "hostile"
    no_detail_id: bool = False
    requests: Counter[str] = field(default_factory=Counter)
    sent: Counter[str] = field(default_factory=Counter)
    """Bytes of each huge or dripping answer actually sent (a client that stops reading
    stops the server: the socket's buffers fill)."""
    bodies: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = "http://hostile.test"
    """Where documents' absolute URLs point (``serve()`` sets the real address)."""
    _quotes: int = 0

    def app(self) -> Starlette:
        """The ASGI app."""
        return Starlette(
            routes=[
                Route("/rates", self._rates, methods=["POST"]),
                Route("/book", self._book, methods=["POST"]),
                Route("/book/parcel", self._book, methods=["POST"]),
                Route("/shipments", self._search, methods=["GET"]),
                Route("/shipments/{sid}", self._detail, methods=["GET"]),
                Route("/shipments/{sid}/tracking", self._tracking, methods=["GET"]),
                Route("/documents/{name}", self._document, methods=["GET"]),
            ]
        )

    # -- answers ------------------------------------------------------------------------

    def _answer(self, request: Request, value: Any, status: int = 200) -> Response:
        """JSON, unless this path is set to be huge or to drip."""
        path = request.url.path
        if path in self.huge:
            return StreamingResponse(
                self._counted(path, _huge_json(self.huge_bytes)), media_type="application/json"
            )
        body = json.dumps(value).encode()
        if path in self.drip:
            return StreamingResponse(
                self._counted(path, _dripping(body, self.drip_seconds)),
                media_type="application/json",
            )
        return Response(body, status_code=status, media_type="application/json")

    async def _guard(self, request: Request) -> Response | None:
        self.requests[f"{request.method} {request.url.path}"] += 1
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            message = evil("token refused")
            return JSONResponse({"name": "UNAUTHORIZED", "message": message}, status_code=401)
        return None

    async def _rates(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        self.bodies.append(json.loads(await request.body()))
        self._quotes += 1
        quote_id = f"q_{self._quotes}"
        return self._answer(request, {"id": quote_id, "rates": _rates(quote_id)})

    async def _book(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        self.bodies.append(json.loads(await request.body()))
        if self.booking_answer == "never":
            await asyncio.Event().wait()  # the answer never comes
        if self.booking_answer == "error":
            problem = {"name": "BAD_REQUEST", "message": evil("refused"), "requestId": evil("r")}
            return JSONResponse(problem, status_code=400)
        answer = {
            "shipmentId": "shp_1",
            "proNumber": PRO,
            "bolNumber": evil("BOL1"),
            "pickupConfirmation": evil("PU1"),
            "trackingNumbers": [evil("1Z999")],
            "documents": self._documents(),
            "labels": self._documents(),
        }
        return self._answer(request, answer)

    async def _search(self, request: Request) -> Response:
        """Every search answers the same shipments, whatever it asked for."""
        if (denied := await self._guard(request)) is not None:
            return denied
        listing = [_shipment(n) for n in range(1, self.shipments + 1)]
        return self._answer(request, {"shipments": listing, "continuationToken": None})

    async def _detail(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        sid = request.path_params["sid"]
        if not sid.startswith("shp_"):
            return JSONResponse({"name": "NOT_FOUND", "message": evil("nope")}, status_code=404)
        detail = _shipment(int(sid[4:]) if sid[4:].isdigit() else 1)
        detail["id"] = sid
        if self.no_detail_id:
            del detail["id"]
        detail["items"] = [
            {
                "weight": 500,
                "length": 48,
                "width": 40,
                "height": 48,
                "quantity": 2,
                "description": evil("Widgets"),
                "package": evil("pallet"),
                "hazardous": False,
                "nmfc": evil("1234"),
            }
        ]
        detail["tracking"] = {
            "status": evil("in transit"),
            "trackingNumber": evil("TRK1"),
            "pickupDate": "2026-11-21T09:00:00Z",
        }
        detail["documents"] = self._documents()
        return self._answer(request, detail)

    async def _tracking(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        events = [
            {
                "time": "2026-11-21T09:00:00Z",
                "status": evil("picked-up"),
                "description": evil("Picked up"),
                "location": evil("Chicago IL"),
            }
        ]
        return self._answer(request, {"events": events})

    async def _document(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        path = request.url.path
        if path in self.huge:
            return StreamingResponse(
                self._counted(path, _zeros(self.huge_bytes)), media_type="application/pdf"
            )
        if path in self.drip:
            return StreamingResponse(
                self._counted(path, _dripping(DOCUMENT_BYTES, self.drip_seconds)),
                media_type="application/pdf",
            )
        return Response(DOCUMENT_BYTES, media_type="application/pdf")

    async def _counted(self, path: str, chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        async for chunk in chunks:
            yield chunk
            self.sent[path] += len(chunk)

    def _documents(self) -> list[dict[str, Any]]:
        return [{**doc, "url": self.base_url + doc["url"]} for doc in DOCUMENTS]

    # -- on a real socket ---------------------------------------------------------------

    @contextmanager
    def serve(self) -> Iterator[str]:
        """Serve on a free loopback port in a thread; yields the base URL."""
        import uvicorn

        from tui.sandbox.threaded import bind, url_of

        sock = bind("127.0.0.1", 0)
        self.base_url = url_of(sock)
        config = uvicorn.Config(
            self.app(),
            lifespan="off",
            log_level="critical",
            access_log=False,
            timeout_graceful_shutdown=1,
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        try:
            while not server.started:
                if not thread.is_alive():
                    raise RuntimeError("the hostile server did not start")
                threading.Event().wait(0.01)
            yield self.base_url
        finally:
            server.should_exit = True
            server.force_exit = True
            thread.join(10)
            sock.close()


async def _dripping(body: bytes, seconds: float) -> AsyncIterator[bytes]:
    for index in range(len(body)):
        yield body[index : index + 1]
        await asyncio.sleep(seconds)


async def _huge_json(size: int) -> AsyncIterator[bytes]:
    """A JSON object of about ``size`` bytes: a list of shipments, sent in 1 MiB chunks."""
    yield b'{"shipments": ['
    row = json.dumps(_shipment(1)).encode() + b","
    chunk = row * max(1, (1024 * 1024) // len(row))
    sent = 0
    while sent < size:
        yield chunk
        sent += len(chunk)
        await asyncio.sleep(0)  # let a client's disconnect end the stream
    yield json.dumps(_shipment(2)).encode() + b"]}"


async def _zeros(size: int) -> AsyncIterator[bytes]:
    chunk = b"\0" * (1024 * 1024)
    sent = 0
    while sent < size:
        yield chunk
        sent += len(chunk)
        await asyncio.sleep(0)
