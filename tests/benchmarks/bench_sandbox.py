"""Benchmark the sandbox in-process: POST /rates, and GET /shipments at 10k/100k/1M shipments.

Run: ``python tests/benchmarks/bench_sandbox.py [--sizes 10000,100000,1000000] [--db-dir DIR]``.
Databases are kept in ``--db-dir`` (default: a temp dir, removed afterwards) and reused when
they already hold the right number of seeded shipments. Prints p50/p99 in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from tui.sandbox import DEMO_TOKEN, SandboxConfig, create_app
from tui.sandbox.app import SandboxApp
from tui.sandbox.geo import lookup

LANES = [
    ("60601", "30303"),
    ("90001", "10001"),
    ("75201", "77002"),
    ("98101", "97201"),
    ("10001", "19103"),
    ("60601", "46204"),
    ("33101", "80202"),
    ("02108", "55401"),
]


def percentiles(samples: list[float]) -> str:
    """p50 and p99 in ms."""
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {p50 * 1000:7.2f} ms   p99 {p99 * 1000:7.2f} ms   (n={len(ordered)})"


async def timed(call: Callable[[], Awaitable[httpx.Response]], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = await call()
        samples.append(time.perf_counter() - start)
        assert response.status_code == 200, response.text
    return samples


def client(app: SandboxApp) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://sandbox.test",
        headers={"Authorization": f"Bearer {DEMO_TOKEN}"},
    )


def rate_bodies() -> list[dict[str, Any]]:
    bodies = []
    shapes: list[list[dict[str, Any]]] = [
        [{"weight": 800, "length": 48, "width": 40, "height": 48, "quantity": 1,
          "freightClass": 70}],
        [{"weight": 12, "length": 16, "width": 12, "height": 10, "quantity": 2,
          "package": "box"}],
        [{"weight": 1500, "length": 48, "width": 40, "height": 60, "quantity": 10,
          "freightClass": 85},
         {"weight": 300, "length": 48, "width": 40, "height": 40, "quantity": 2}],
    ]  # fmt: skip
    for origin, dest in LANES:
        for items in shapes:
            bodies.append(
                {"originPostalCode": origin, "destPostalCode": dest, "items": items,
                 "destType": "residential" if len(items) == 1 else "business-dock"}
            )  # fmt: skip
    return bodies


async def bench_rates(repeat: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="freight-bench-rates-"))
    try:
        app = create_app(SandboxConfig(db_path=folder / "r.sqlite3", shipments=0, rate_limit=0))
        for origin, dest in LANES:
            lookup(origin), lookup(dest)
        bodies = rate_bodies()
        async with client(app) as http:
            index = 0

            async def one() -> httpx.Response:
                nonlocal index
                index += 1
                return await http.post("/rates", json=bodies[index % len(bodies)])

            await timed(one, 20)
            samples = await timed(one, repeat)
            print(f"POST /rates (in-process, mixed LTL/parcel/TL): {percentiles(samples)}")
        app.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def open_db(folder: Path, size: int) -> SandboxApp:
    path = folder / f"bench-{size}.sqlite3"
    start = time.perf_counter()
    app = create_app(SandboxConfig(db_path=path, shipments=size, rate_limit=0))
    elapsed = time.perf_counter() - start
    print(
        f"\n== {size:,} shipments (open/seed {elapsed:.1f} s, {path.stat().st_size / 1e6:.0f} MB)"
    )
    return app


async def bench_search(app: SandboxApp, repeat: int) -> None:
    async with client(app) as http:
        sample = (await http.get("/shipments", params={"mode": "ltl", "limit": 5})).json()
        pro = sample["shipments"][2]["proNumber"]
        zip_code = sample["shipments"][3]["destination"]["postalCode"]
        company = sample["shipments"][4]["origin"]["company"].split()[0]
        later = {"limit": 50}
        for _ in range(20):  # token of page 21
            later["continuationToken"] = (await http.get("/shipments", params=later)).json()[
                "continuationToken"
            ]
        cases: list[tuple[str, dict[str, Any]]] = [
            ("first page", {}),
            ("page 21 (token)", later),
            ("status=delivered&mode=ltl", {"status": "delivered", "mode": "ltl"}),
            ("status=canceled", {"status": "canceled"}),
            ("status=pending&mode=parcel", {"status": "pending", "mode": "parcel"}),
            (
                "pickup date range (1 week)",
                {"pickupDateFrom": "2026-09-01", "pickupDateTo": "2026-09-07"},
            ),
            ("free text city 'chicago'", {"search": "chicago"}),
            ("free text 'prairie valve'", {"search": "prairie valve"}),
            (
                f"free text company '{company}' + delivered",
                {"search": company, "status": "delivered"},
            ),
            ("free text PRO", {"search": pro}),
            ("free text ZIP + truckload", {"search": zip_code, "mode": "truckload"}),
            ("free text 'ch' + pending", {"search": "ch", "status": "pending"}),
            ("free text no match", {"search": "zzqqxx"}),
        ]
        for label, params in cases:

            async def one(params: dict[str, Any] = params) -> httpx.Response:
                return await http.get("/shipments", params=params)

            await timed(one, 3)
            print(f"  GET /shipments {label:<42} {percentiles(await timed(one, repeat))}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--db-dir", type=Path)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    await bench_rates(args.repeat * 3)
    folder = args.db_dir or Path(tempfile.mkdtemp(prefix="freight-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            app = open_db(folder, size)
            try:
                await bench_search(app, args.repeat)
            finally:
                app.close()
    finally:
        if args.db_dir is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
