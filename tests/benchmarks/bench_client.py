"""Per-call cost of FreightClient vs a bare httpx.AsyncClient against a local uvicorn sandbox.

Run: ``python tests/benchmarks/bench_client.py [--calls N] [--rounds R]``. The sandbox runs in a
separate process (so it does not share the client's interpreter). For every call the app
makes (a shipment's detail, a page of 50, the search typed in the list, rates, a booking on a
fresh quote each time, tracking, a document, the sign-in check) it times, in interleaved
rounds on keep-alive connections:

- ``client``: ``FreightClient`` (validation, JSON with Decimal, pydantic models, retries);
- ``bare+json``: the same request through ``httpx.AsyncClient`` plus ``response.json()``;
- ``bare``: the same request through ``httpx.AsyncClient``, body read but not decoded;

and prints the median per-call wall time and the median client-process CPU time per call (the
client's own cost, free of server time and of noise from other processes) of each, with the
ratios client/bare+json (the goal: at most 1.3 in wall time and 1.5 in CPU: a bare call that
returns the same data must decode its JSON too) and client/bare (bytes only).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tui.api import FreightClient  # noqa: E402
from tui.api.client import USER_AGENT  # noqa: E402

TOKEN = "demo.demo-secret"
# The listening socket is made with proto=IPPROTO_TCP so that asyncio sets TCP_NODELAY on the
# accepted connections (with proto 0 it does not, and Nagle + delayed ACK add ~40 ms per call).
SERVER = """
import socket, uvicorn
from tui.sandbox import SandboxConfig, create_app
app = create_app(SandboxConfig(shipments=500, rate_limit=1e9, rate_burst=10**9))
sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", {port}))
sock.listen(128)
config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False)
uvicorn.Server(config).run(sockets=[sock])
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[str], str]:
    """Start the sandbox in a child process; return it and its base URL."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", SERVER.format(port=port)], text=True, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the sandbox did not start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the sandbox did not start in time")


async def _time(call: Callable[[], Awaitable[object]], n: int) -> tuple[float, float]:
    """Wall and client-process CPU seconds per call."""
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        await call()
    return (time.perf_counter() - started) / n, (time.process_time() - cpu) / n


GOAL_WALL, GOAL_CPU = 1.3, 1.5
"""Per call, the client over bare httpx returning the same JSON (issue 21)."""

LTL_REQUEST: dict[str, Any] = {
    "origin_postal_code": "30318",
    "dest_postal_code": "10001",
    "items": [
        {"weight": 500, "length": 48, "width": 40, "height": 48, "quantity": 2,
         "package": "pallet", "freight_class": "77.5"},
    ],
}  # fmt: skip
BOOKING: dict[str, Any] = {
    "origin_company": "Acme Widgets",
    "origin_address": "1200 Marietta St NW, Atlanta, GA 30318",
    "origin_contact_name": "Dana",
    "origin_contact_phone": "404-555-0100",
    "origin_dock_hours_open": "08:00",
    "origin_dock_hours_close": "16:30",
    "dest_company": "Beta Retail",
    "dest_address": "350 5th Ave, New York, NY 10001",
}


async def bench(base_url: str, calls: int, rounds: int) -> None:
    from tui.api.models import BookingRequest, RateRequest

    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json",
        "User-Agent": USER_AGENT,
    }
    json_headers = {**headers, "Content-Type": "application/json"}
    async with (
        FreightClient(base_url, TOKEN) as client,
        httpx.AsyncClient(base_url=base_url, headers=headers) as bare,
    ):
        page = await client.search_shipments()
        shipment_id = page.shipments[0].id
        rate_request = RateRequest.model_validate(LTL_REQUEST)
        rate_body = rate_request.wire_json()
        quote = await client.get_rates(rate_request)
        first = next(r for r in quote.rates if r.is_ok and r.mode == "ltl")
        booked = await client.book(BookingRequest(quote_id=quote.id, rate_id=first.id, **BOOKING))
        tracked = booked.shipment_id or shipment_id
        document = booked.documents[0].url
        bookings = max(5, calls // 4)  # each books a fresh quote, made before the timing

        async def fresh_bookings(count: int) -> list[BookingRequest]:
            made = []
            for _ in range(count):
                q = await client.get_rates(rate_request)
                r = next(r for r in q.rates if r.is_ok and r.mode == "ltl")
                made.append(BookingRequest(quote_id=q.id, rate_id=r.id, **BOOKING))
            return made

        def bare_get(path: str, *, decode: bool, **params: str) -> Callable[[], Awaitable[object]]:
            async def call() -> object:
                r = await bare.get(path, params=params or None)
                r.raise_for_status()
                return r.json() if decode else r.content

            return call

        def bare_post(
            path: str, body: Callable[[], bytes], *, decode: bool
        ) -> Callable[[], Awaitable[object]]:
            async def call() -> object:
                r = await bare.post(path, content=body(), headers=json_headers)
                r.raise_for_status()
                return r.json() if decode else r.content

            return call

        pools: dict[str, list[BookingRequest]] = {}

        def take(variant: str) -> BookingRequest:
            return pools[variant].pop()

        cases: dict[str, dict[str, Callable[[], Awaitable[object]]]] = {
            "get_shipment": {
                "client": lambda: client.get_shipment(shipment_id),
                "bare+json": bare_get(f"/shipments/{shipment_id}", decode=True),
                "bare": bare_get(f"/shipments/{shipment_id}", decode=False),
            },
            "search_shipments (50)": {
                "client": lambda: client.search_shipments(),
                "bare+json": bare_get("/shipments", decode=True, limit="50"),
                "bare": bare_get("/shipments", decode=False, limit="50"),
            },
            "search as typed (text)": {
                "client": lambda: client.search_shipments({"text": "Chicago"}),
                "bare+json": bare_get("/shipments", decode=True, search="Chicago", limit="50"),
                "bare": bare_get("/shipments", decode=False, search="Chicago", limit="50"),
            },
            "get_rates": {
                "client": lambda: client.get_rates(rate_request),
                "bare+json": bare_post("/rates", lambda: rate_body, decode=True),
                "bare": bare_post("/rates", lambda: rate_body, decode=False),
            },
            "book": {
                "client": lambda: client.book(take("client")),
                "bare+json": bare_post("/book", lambda: take("bare+json").wire_json(), decode=True),
                "bare": bare_post("/book", lambda: take("bare").wire_json(), decode=False),
            },
            "get_tracking": {
                "client": lambda: client.get_tracking(tracked),
                "bare+json": bare_get(f"/shipments/{tracked}/tracking", decode=True),
                "bare": bare_get(f"/shipments/{tracked}/tracking", decode=False),
            },
            "download_document": {
                "client": lambda: client.download_document(document),
                "bare+json": bare_get(document, decode=False),
                "bare": bare_get(document, decode=False),
            },
            "verify (sign-in check)": {
                "client": lambda: client.verify(),
                "bare+json": bare_get("/shipments", decode=True, limit="1"),
                "bare": bare_get("/shipments", decode=False, limit="1"),
            },
        }
        print(
            f"{calls} calls x {rounds} rounds per variant ({bookings} for book), interleaved;"
            " median per call. Goal: client/bare+json at most"
            f" {GOAL_WALL}x wall and {GOAL_CPU}x client CPU"
        )
        print(f"{'call':<30}{'client':>10}{'bare+json':>11}{'bare':>9}"
              f"{'/bare+json':>12}{'/bare':>8}  goal")  # fmt: skip
        for name, variants in cases.items():
            n = bookings if name == "book" else calls
            if name == "book":
                for variant in variants:
                    pools[variant] = await fresh_bookings(n * rounds + 5)
            for call in variants.values():  # warm up connections and caches
                await _time(call, 5 if name == "book" else 20)
            wall: dict[str, list[float]] = {v: [] for v in variants}
            cpu: dict[str, list[float]] = {v: [] for v in variants}
            for _ in range(rounds):
                for variant, call in variants.items():
                    w, c = await _time(call, n)
                    wall[variant].append(w)
                    cpu[variant].append(c)
            for label, samples, goal in (
                (f"{name} wall", wall, GOAL_WALL),
                (f"{name} cpu", cpu, GOAL_CPU),
            ):
                med = {v: statistics.median(s) for v, s in samples.items()}
                ratio = med["client"] / med["bare+json"]
                print(
                    f"{label:<30}{med['client'] * 1e3:>8.3f}ms{med['bare+json'] * 1e3:>9.3f}ms"
                    f"{med['bare'] * 1e3:>7.3f}ms{ratio:>12.2f}"
                    f"{med['client'] / med['bare']:>8.2f}  {'ok' if ratio <= goal else 'OVER'}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=100, help="calls per round (default 100)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds per variant (default 7)")
    args = parser.parse_args()
    proc, base_url = start_server()
    try:
        asyncio.run(bench(base_url, args.calls, args.rounds))
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
