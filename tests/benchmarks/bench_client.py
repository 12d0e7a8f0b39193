"""Per-call cost of FreightClient vs a bare httpx.AsyncClient against a local uvicorn sandbox.

Run: ``python tests/benchmarks/bench_client.py [--calls N] [--rounds R]``. The sandbox runs in a
separate process (so it does not share the client's interpreter). For ``get_shipment`` and
``search_shipments`` (page of 50) it times, in interleaved rounds on keep-alive connections:

- ``client``: ``FreightClient`` (validation, JSON with Decimal, pydantic models, retries);
- ``bare+json``: the same request through ``httpx.AsyncClient`` plus ``response.json()``;
- ``bare``: the same request through ``httpx.AsyncClient``, body read but not decoded;

and prints the median per-call wall time (the goal: client/bare under 1.3) and the median
client-process CPU time per call (the client's own cost, free of server time and of noise from
other processes) of each, with the ratios client/bare+json and client/bare.
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


async def bench(base_url: str, calls: int, rounds: int) -> None:
    headers = {
        "Authorization": f"Bearer {TOKEN}",
        "Accept": "application/json",
        "User-Agent": USER_AGENT,
    }
    async with (
        FreightClient(base_url, TOKEN) as client,
        httpx.AsyncClient(base_url=base_url, headers=headers) as bare,
    ):
        page = await client.search_shipments()
        shipment_id = page.shipments[0].id

        async def bare_detail() -> object:
            r = await bare.get(f"/shipments/{shipment_id}")
            r.raise_for_status()
            return r.content

        async def bare_detail_json() -> object:
            r = await bare.get(f"/shipments/{shipment_id}")
            r.raise_for_status()
            return r.json()

        async def bare_search() -> object:
            r = await bare.get("/shipments", params={"limit": "50"})
            r.raise_for_status()
            return r.content

        async def bare_search_json() -> object:
            r = await bare.get("/shipments", params={"limit": "50"})
            r.raise_for_status()
            return r.json()

        cases: dict[str, dict[str, Callable[[], Awaitable[object]]]] = {
            "get_shipment": {
                "client": lambda: client.get_shipment(shipment_id),
                "bare+json": bare_detail_json,
                "bare": bare_detail,
            },
            "search_shipments": {
                "client": lambda: client.search_shipments(),
                "bare+json": bare_search_json,
                "bare": bare_search,
            },
        }
        print(f"{calls} calls x {rounds} rounds per variant, interleaved; median per call")
        print(f"{'operation':<24}{'client':>10}{'bare+json':>11}{'bare':>9}"
              f"{'ratio/json':>12}{'ratio/bare':>12}")  # fmt: skip
        for name, variants in cases.items():
            for call in variants.values():  # warm up connections and caches
                await _time(call, 20)
            wall: dict[str, list[float]] = {v: [] for v in variants}
            cpu: dict[str, list[float]] = {v: [] for v in variants}
            for _ in range(rounds):
                for variant, call in variants.items():
                    w, c = await _time(call, calls)
                    wall[variant].append(w)
                    cpu[variant].append(c)
            for label, samples in ((f"{name} wall", wall), (f"{name} cpu", cpu)):
                med = {v: statistics.median(s) for v, s in samples.items()}
                print(
                    f"{label:<24}{med['client'] * 1e3:>8.3f}ms{med['bare+json'] * 1e3:>9.3f}ms"
                    f"{med['bare'] * 1e3:>7.3f}ms{med['client'] / med['bare+json']:>12.2f}"
                    f"{med['client'] / med['bare']:>12.2f}"
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
