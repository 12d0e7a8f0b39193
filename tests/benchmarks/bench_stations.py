"""Benchmark stations sharing one account's pace: several processes book one batch together.

Run: ``python tests/benchmarks/bench_stations.py [--orders 1000] [--stations 4] [--limit 20]
[--store-url postgresql://…]``. Two runs against a real sandbox (uvicorn on loopback) that
allows ``--limit`` requests/s per account (bucket of as many): ``--stations`` processes book
one ``--orders``-order batch kept in PostgreSQL (``--store-url``, else a temporary server
started as the tests do), then one station books ``--orders // 2`` orders kept in SQLite.
Each station is ``freight batch book``'s engine in its own process (its paperwork saved too:
every authorised request counts). The batch is rated first, beyond the limit, and not timed.
Prints per run: the time against the floor (every authorised request the sandbox saw, divided
by the limit; goal ≤ 1.15x with four stations, ≤ 1.2x with one), the 429s the sandbox sent,
and the orders booked twice (shipments beyond one per booked order); then where the time above
the floor goes: the stations' start before the first request, the paced span from the first
request to the last (the shared pace's window, 1.1 s for the limit, makes it 1.1x), and the end
after the last.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_batch import order_file  # noqa: E402
from tui.api.client import FreightClient  # noqa: E402
from tui.api.options import ClientOptions, RetryPolicy  # noqa: E402
from tui.batch.engine import Batch, source_id  # noqa: E402
from tui.batch.fields import guess_mapping  # noqa: E402
from tui.batch.orders import context_for  # noqa: E402
from tui.batch.pace import Pace  # noqa: E402
from tui.batch.source import read_file  # noqa: E402
from tui.batch.store import SharedBatchStore  # noqa: E402
from tui.demo_profile import demo_profile  # noqa: E402
from tui.sandbox import DEMO_TOKEN, SandboxConfig, start_in_thread  # noqa: E402
from tui.sandbox.ratelimit import RateLimiter  # noqa: E402
from tui.store import open_store  # noqa: E402

NO_RETRY = ClientOptions(retry=RetryPolicy(rate_attempts=1))


class CountingLimiter(RateLimiter):
    """The sandbox's limiter, counting the 429s it answers."""

    refused = 0

    def acquire(self, key: str) -> int | None:
        wait = super().acquire(key)
        if wait is not None:
            self.refused += 1
        return wait


def open_batch(url: str, data: Path, path: Path) -> Batch:
    sheet = read_file(path)
    store = SharedBatchStore(open_store(data, url, migrate=True))  # a new database: make its tables
    context = context_for(demo_profile(), date.today(), datetime.now(UTC))
    return Batch.open(store, "demo", source_id(path), sheet, guess_mapping(sheet.headers), context)


async def station(url: str, data: Path, base_url: str, path: Path, limit: float) -> None:
    """One station: ``freight batch book`` on the batch, paperwork saved."""
    from tui.batch.run import book_run
    from tui.booking import BookingEngine
    from tui.store import open_ledger

    batch = open_batch(url, data, path)
    async with FreightClient(base_url, DEMO_TOKEN, options=NO_RETRY) as client:
        engine = BookingEngine(client, open_ledger(data, "sandbox", url), "demo")
        folder = Path(tempfile.mkdtemp(prefix="freight-bench-docs-"))
        await book_run(batch, engine, client, folder=folder, rate=limit)


def count_searches(app: Any) -> list[int]:
    """Count the sandbox's shipment searches (GET /shipments) in the list's one item."""
    seen = [0]
    routes = app._routes["/shipments"]
    search = routes["GET"]

    async def counted(call: Any) -> Any:
        seen[0] += 1
        return await search(call)

    routes["GET"] = counted
    return seen


@contextlib.contextmanager
def postgres(given: str) -> Iterator[str]:
    if given:
        yield given
        return
    from tests.postgres_fixtures import PostgresServer, postgres_server

    # The fixture's own function (pytest keeps it as __wrapped__): the tests' temporary server.
    started: Callable[[], Iterator[PostgresServer]] = postgres_server.__wrapped__  # type: ignore[attr-defined]
    with contextlib.contextmanager(started)() as server:
        import psycopg

        with psycopg.connect(server.url(), autocommit=True) as admin:
            admin.execute("CREATE DATABASE bench")
        yield server.url("bench")


def run(url: str, orders: int, stations: int, limit: float) -> None:
    folder = Path(tempfile.mkdtemp(prefix="freight-bench-stations-"))
    path = order_file(folder / "orders.csv", orders)
    sandbox_db = folder / "sandbox.sqlite3"
    config = SandboxConfig(db_path=sandbox_db, shipments=10, rate_limit=1e6, rate_burst=10**6)
    sandbox = start_in_thread(config)
    try:
        batch = open_batch(url, folder / "data", path)

        async def rate() -> None:
            async with FreightClient(sandbox.base_url, DEMO_TOKEN, options=NO_RETRY) as client:
                await batch.rate(client, pace=Pace(None), concurrency=8)

        asyncio.run(rate())
        batch.store.close()
        limiter = CountingLimiter(limit, int(limit))
        sandbox.app.limiter = limiter
        searches = count_searches(sandbox.app)
        sandbox.app.request_times.clear()
        command = [sys.executable, __file__, "--station", url, str(folder / "data")]
        started = time.monotonic()  # the sandbox notes its requests by this clock
        processes = [
            subprocess.Popen(
                [*command, sandbox.base_url, str(path), str(limit)],
                env={**os.environ, "FREIGHT_STATION": f"bench{n + 1}"},
            )
            for n in range(stations)
        ]
        codes = [process.wait() for process in processes]
        ended = time.monotonic()
        elapsed = ended - started
        times = sorted(sandbox.app.request_times)
        requests = len(times)
    finally:
        sandbox.stop()
    with sqlite3.connect(sandbox_db) as db:
        made = db.execute("SELECT COUNT(*), COUNT(DISTINCT reference) FROM shipments").fetchone()
    shipments, references = made[0] - 10, made[1] - 10
    booked = open_batch(url, folder / "data", path).counts().get("booked", 0)
    floor = requests / limit
    engine = "PostgreSQL" if url else "SQLite"
    print(f"{stations} station(s), {orders} orders, {engine}, sandbox {limit:g} req/s")
    print(f"  exit codes       {codes}")
    print(f"  booked           {booked} ({shipments} shipments, {references} references)")
    print(f"  requests         {requests} authorised")
    print(f"  time             {elapsed:7.2f} s")
    print(f"  floor            {floor:7.2f} s  (requests / limit)")
    print(f"  ratio            {elapsed / floor:7.3f}x")
    # the look-up of each order the store has no booking of, before it is sent
    checks = searches[0]
    without = (requests - checks) / limit
    print(f"  searches         {checks} (the check: {checks / limit:.2f} s at the limit)")
    print(f"  floor, no check  {without:7.2f} s  (ratio {elapsed / without:.3f}x with it)")
    # where the time above the floor goes: the stations' start (processes, store, file) before
    # the first request, the steady pace between the first and the last, the end after it
    print(f"  start            {times[0] - started:7.2f} s  (to the first request)")
    print(f"  paced            {(times[-1] - times[0]) / floor:7.3f}x  (first to last request)")
    print(f"  end              {ended - times[-1]:7.2f} s  (after the last request)")
    print(f"  429s             {limiter.refused}")
    print(f"  orders twice     {shipments - booked}")


def main() -> None:
    if sys.argv[1:2] == ["--station"]:
        url, data, base_url, path, limit = sys.argv[2:7]
        asyncio.run(station(url, Path(data), base_url, Path(path), float(limit)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--orders", type=int, default=1000)
    parser.add_argument("--stations", type=int, default=4)
    parser.add_argument("--limit", type=float, default=20.0, help="the sandbox's req/s")
    parser.add_argument("--store-url", default="", help="a PostgreSQL store (default: temp)")
    args = parser.parse_args()
    with postgres(args.store_url) as url:
        run(url, args.orders, args.stations, args.limit)
    run("", max(1, args.orders // 2), 1, args.limit)


if __name__ == "__main__":
    main()
