"""A second server of the shipping interface, written apart from the sandbox with other choices.

It reads the real service's request vocabulary (space-separated location types, 12-hour dock
hours, capitalised plural package labels) and the interface's ``quantity`` (only that: a
client that sends ``pieces`` alone gets one unit priced), prices by the number of units, and
answers in its own dialect: quote and
rate ids as ``quoteId``/``rateId``, carriers as objects, totals as text, modes and statuses in
upper or title case, some rates in CAD, bookings answered 201 with a PRO and a BOL but no
shipment id, listings without quote ids (references kept under ``refs``, searched as
text), its own query parameter names, and tracking events in
an envelope. It counts every request, so a test can tell a booking was sent once.

Switches make it harder on a client: ``keep_references=False`` stores references empty (a
search by reference finds nothing), ``booking_delay`` books at once but answers that many
seconds later (serve it on a real socket with ``serve`` and a short booking timeout: the
booking exists but its answer never comes in time), ``search_ignores_query`` lists every
shipment whatever the search, ``now`` stamps shipments with that clock's time.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

TOKEN = "indie.secret-42"
LOCATION_TYPES = frozenset(
    {
        "business dock", "business no dock", "residential", "limited access", "trade show",
        "construction", "farm", "military", "airport", "place of worship", "school", "mine",
        "pier",
    }
)  # fmt: skip
PACKAGES = frozenset({"Pallets", "Boxes", "Crates", "Skids", "Cartons", "Drums"})
TWELVE_HOUR = re.compile(r"^(0?[1-9]|1[0-2]):[0-5]\d (AM|PM)$")
QUERY = {"text": "q", "status": "state", "mode": "transport", "token": "cursor", "size": "pageSize"}
"""This server's query parameter names (the client learns them from a profile's [wire] table)."""
CHANGES = {
    "cancel": "POST shipments/{id}/void",
    "pickupRequest": "POST shipments/{id}/pickup-requests",
    "pickupChange": "POST shipments/{id}/pickup-requests",
    "pickupCancel": "DELETE shipments/{id}/pickup-requests",
    "pickupDate": "date",
    "readyTime": "readyBy",
    "closeTime": "closeAt",
}
"""This server's paths and names for changes after booking (a profile's [wire] change_paths):
a voided shipment is ``Cancelled``; a shipment marked ``Picked Up`` refuses every change with
422 TOO_LATE; voiding a voided one is a 409."""


def _cost(rate: dict[str, Any]) -> dict[str, str]:
    """A shipment's cost from its rate: total as text, currency in lower case."""
    total = rate["total"]
    if isinstance(total, dict):  # {"amount": …, "currency": …}
        return {"total": str(total["amount"]), "currency": str(total["currency"]).lower()}
    return {"total": str(total), "currency": str(rate.get("currency", "usd")).lower()}


def _units(body: dict[str, Any]) -> int:
    """Handling units of a rate request, as the interface names them (``quantity``)."""
    return sum(item["quantity"] for item in body.get("items", []))


@dataclass
class IndependentServer:
    """State of one server: quotes, shipments, and what was asked of it."""

    tracking: bool = True
    """Serve GET /shipments/{id}/tracking (False: 405, as a server without it)."""
    requests: Counter[str] = field(default_factory=Counter)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    quotes: dict[str, dict[str, Any]] = field(default_factory=dict)
    shipments: list[dict[str, Any]] = field(default_factory=list)
    booked: set[tuple[str, str]] = field(default_factory=set)
    keep_references: bool = True
    """False: references sent with a booking are stored empty (searching them finds nothing)."""
    booking_delay: float = 0.0
    """Seconds between booking a shipment and answering for it."""
    search_ignores_query: bool = False
    """True: a search lists every shipment, whatever it asked for."""
    now: Callable[[], datetime] | None = None
    """The clock that stamps a shipment's creation (None: always 2026-11-20 15:04:05 -05:00)."""

    def app(self) -> Starlette:
        """The ASGI app."""
        return Starlette(
            routes=[
                Route("/rates", self._rates, methods=["POST"]),
                Route("/book", self._book, methods=["POST"]),
                Route("/shipments", self._search, methods=["GET"]),
                Route("/shipments/{sid}", self._detail, methods=["GET"]),
                Route("/shipments/{sid}/tracking", self._tracking, methods=["GET"]),
                Route("/shipments/{sid}/void", self._void, methods=["POST"]),
                Route("/shipments/{sid}/pickup-requests", self._pickup, methods=["POST", "DELETE"]),
            ]
        )

    async def _guard(self, request: Request) -> Response | None:
        self.requests[f"{request.method} {request.url.path}"] += 1
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return JSONResponse({"name": "UNAUTHORIZED", "message": "no"}, status_code=401)
        return None

    async def _body(self, request: Request) -> dict[str, Any]:
        body = json.loads(await request.body())
        assert isinstance(body, dict)
        self.bodies.append(body)
        return body

    async def _rates(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        body = await self._body(request)
        problems = []
        for key in ("originType", "destType"):
            if body.get(key, "business dock") not in LOCATION_TYPES:
                problems.append({"field": key, "message": "unknown location type"})
        for index, item in enumerate(body.get("items", [])):
            if not isinstance(item.get("quantity"), int) or item["quantity"] < 1:
                problems.append({"field": f"items[{index}].quantity", "message": "required"})
            if item.get("package") not in PACKAGES:
                problems.append({"field": f"items[{index}].package", "message": "unknown"})
        if problems:
            return JSONResponse({"name": "BAD_REQUEST", "errors": problems}, status_code=400)
        quote_id = f"QX-{len(self.quotes) + 1}"
        units = _units(body)
        maple = str(Decimal("617.25") * units)  # 1,234.50 for two pallets
        prairie = str(Decimal("187.25") + Decimal(400) * units)  # 987.25 for two
        rates = [
            {
                "rateId": f"{quote_id}-A",
                "carrier": {"name": "Maple Leaf Freight", "scac": "MLFT"},
                "total": maple,
                "currency": "CAD",
                "mode": "LTL",
                "status": "OK",
                "days": "3",
                "charges": [{"name": "linehaul", "amount": maple}],
                "greenScore": {"co2kg": 41},
            },
            {
                "rateId": f"{quote_id}-B",
                "carrier": {"name": "Prairie Lines", "scac": "PRLN"},
                "total": {"amount": prairie, "currency": "USD"},
                "mode": "Ltl",
                "status": "ok",
                "days": None,
                "serviceType": ["standard"],
            },
            {
                "rateId": f"{quote_id}-C",
                "carrier": "Slow Boat Co",
                "total": 0,
                "mode": "TRUCKLOAD",
                "status": "DECLINED",
                "message": {"text": "no trucks on this lane"},
            },
        ]
        self.quotes[quote_id] = {"request": body, "rates": rates}
        return JSONResponse({"quoteId": quote_id, "rates": rates, "meta": {"v": 2}})

    async def _book(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        body = await self._body(request)
        key = (str(body.get("id")), str(body.get("rateId")))
        if key[0] not in self.quotes:
            return JSONResponse({"name": "NOT_FOUND", "message": "no quote"}, status_code=404)
        for field_name in ("originDockHoursOpen", "originDockHoursClose"):
            if field_name in body and not TWELVE_HOUR.match(str(body[field_name])):
                problem = {"field": field_name, "message": "use 12-hour time like 09:00 AM"}
                return JSONResponse({"errors": [problem]}, status_code=400)
        if key in self.booked:
            return JSONResponse({"name": "DUPLICATE", "message": "booked"}, status_code=409)
        self.booked.add(key)
        number = len(self.shipments) + 1
        rate = next(r for r in self.quotes[key[0]]["rates"] if r["rateId"] == key[1])
        quote_request = self.quotes[key[0]]["request"]
        created = self.now().isoformat() if self.now else "2026-11-20T15:04:05-05:00"
        refs = [body[k] for k in ("reference", "originReferenceNumber", "poNumber") if body.get(k)]
        shipment = {
            "shipmentNumber": f"SH{number:04d}",
            "pro": f"PRO{7000 + number}",
            "bol": f"BOL-{number}",
            "status": "Confirmed",
            "mode": rate["mode"],
            "carrier": rate["carrier"],
            "cost": _cost(rate),
            "createdDate": created,
            "origin": {
                "company": body.get("originCompany"),
                "postalCode": quote_request.get("originPostalCode"),
            },
            "destination": {
                "company": body.get("destCompany"),
                "postalCode": quote_request.get("destPostalCode"),
                "country": quote_request.get("destCountry", "CAN"),
            },
            "pickupDate": body.get("pickupDate"),
            "items": [
                {
                    "pieces": item["quantity"],
                    "weight": str(item["weight"]),
                    "package": item["package"],
                    "description": item.get("description"),
                    "hazardous": "no",
                }
                for item in quote_request.get("items", [])
            ],
            "dockHours": {"open": body.get("originDockHoursOpen")},
            "refs": refs if self.keep_references else [],
        }
        self.shipments.append(shipment)
        if self.booking_delay:
            await asyncio.sleep(self.booking_delay)
        answer = {
            "proNumber": shipment["pro"],
            "bolNumber": {"number": shipment["bol"]},
            "carrier": rate["carrier"],
            "status": "CONFIRMED",
            "total": rate["total"],
        }
        return JSONResponse(answer, status_code=201)

    async def _search(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        params = request.query_params
        unknown = set(params) - set(QUERY.values())
        if unknown:
            problem = {"field": sorted(unknown)[0], "message": "unknown query parameter"}
            return JSONResponse({"errors": [problem]}, status_code=400)
        text = params.get(QUERY["text"], "").lower()
        found = [
            s
            for s in self.shipments
            if self.search_ignores_query or not text or text in json.dumps(s).lower()
            if params.get(QUERY["status"]) in (None, s["status"].lower())
        ]
        size = int(params.get(QUERY["size"], "2"))
        start = int(params.get(QUERY["token"], "0"))
        page = found[start : start + size]
        listing = [{**s, "id": s["shipmentNumber"], "items": None} for s in page]
        answer: dict[str, Any] = {"shipments": listing}
        if start + size < len(found):
            answer["continuationToken"] = str(start + size)
        return JSONResponse(answer)

    def _find(self, sid: str) -> dict[str, Any] | None:
        return next((s for s in self.shipments if s["shipmentNumber"] == sid), None)

    async def _detail(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        shipment = self._find(request.path_params["sid"])
        if shipment is None:
            return JSONResponse({"name": "NOT_FOUND"}, status_code=404)
        detail = {
            **shipment,
            "id": shipment["shipmentNumber"],
            "status": shipment["status"].upper(),
        }
        detail["trackingEvents"] = self._events(shipment)[:1]
        detail["documents"] = [{"fileName": "bol.pdf", "mimeType": "application/pdf"}]
        return JSONResponse(detail)

    def _events(self, shipment: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "summary": "Picked up at origin",
                "eventType": "PICKUP",
                "eventDate": "2026-11-21",
                "eventTime": "09:15",
                "timeZone": "America/New_York",
            },
            {
                "summary": "Shipment created",
                "eventType": "CREATED",
                "createdDate": "2026-11-20T15:04:05-05:00",
            },
            {
                "summary": "Arrived at terminal",
                "eventType": {"code": "ARRIVAL"},
                "eventDate": "2026-11-22",
                "eventTime": "07:40",
                "offset": "-06:00",
                "location": {"city": "Memphis", "state": "TN"},
            },
        ]

    async def _tracking(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        if not self.tracking:
            return Response(status_code=405)
        shipment = self._find(request.path_params["sid"])
        if shipment is None:
            return JSONResponse({"name": "NOT_FOUND"}, status_code=404)
        return JSONResponse({"trackingEvents": self._events(shipment), "count": 3})

    def _changeable(self, request: Request) -> tuple[dict[str, Any] | None, Response | None]:
        shipment = self._find(request.path_params["sid"])
        if shipment is None:
            return None, JSONResponse({"name": "NOT_FOUND"}, status_code=404)
        if shipment["status"] == "Picked Up":
            late = {"name": "TOO_LATE", "message": "freight already tendered to the driver"}
            return None, JSONResponse(late, status_code=422)
        if shipment["status"] == "Cancelled":
            void = {"name": "CONFLICT", "message": "this shipment is void"}
            return None, JSONResponse(void, status_code=409)
        return shipment, None

    async def _void(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        shipment, refused = self._changeable(request)
        if shipment is None:
            assert refused is not None
            return refused
        shipment["status"] = "Cancelled"
        shipment["pickupDate"] = None
        return JSONResponse({"result": "VOIDED", "shipment": shipment["shipmentNumber"]})

    async def _pickup(self, request: Request) -> Response:
        if (denied := await self._guard(request)) is not None:
            return denied
        shipment, refused = self._changeable(request)
        if shipment is None:
            assert refused is not None
            return refused
        if request.method == "DELETE":
            shipment["pickupDate"] = None
            shipment.pop("pickupWindow", None)
            return Response(status_code=204)
        body = await self._body(request)
        for name in ("readyBy", "closeAt"):
            if not TWELVE_HOUR.match(str(body.get(name, ""))):
                problem = {"field": name, "message": "use 12-hour time like 09:00 AM"}
                return JSONResponse({"errors": [problem]}, status_code=400)
        shipment["pickupDate"] = body["date"]
        shipment["pickupWindow"] = [body["readyBy"], body["closeAt"]]
        number = f"PUX{sum(self.requests.values()):05d}"
        return JSONResponse({"pickup": {"number": number, "date": body["date"]}})


@contextmanager
def serve(server: IndependentServer) -> Iterator[str]:
    """Serve on a free loopback port with uvicorn in a thread; yields the base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    config = uvicorn.Config(
        server.app(), lifespan="off", log_level="warning", access_log=False,
        timeout_graceful_shutdown=1,
    )  # fmt: skip
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        running.should_exit = True
        thread.join(10)
        sock.close()
