"""Benchmark a batch's rating against the sandbox's rate limit: 500 orders at 20 requests/s.

Run: ``python tests/benchmarks/bench_batch.py [--orders 500] [--limit 20] [--burst 20]
[--pace 20] [--concurrency 8]``. A real sandbox (uvicorn on loopback, its rate limit set to
``--limit`` requests per second with a bucket of ``--burst``) is rated by the batch engine
exactly as ``freight batch rate`` does (the client's own 429 retries off, the batch's one
pace at ``--pace``). Prints the time against the floor the limit sets (orders / limit: 25 s
for 500 at 20/s; the goal is within 1.2x), the 429s met and the seconds paused for them.
``--pace 40`` shows what a pace above the server's limit costs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from datetime import UTC, date, datetime
from pathlib import Path

from tui.api.client import FreightClient
from tui.api.options import ClientOptions, RetryPolicy
from tui.batch.engine import Batch, source_id
from tui.batch.fields import guess_mapping
from tui.batch.orders import context_for
from tui.batch.pace import Pace
from tui.batch.rating import Progress
from tui.batch.source import read_file
from tui.batch.store import SharedBatchStore
from tui.demo_profile import demo_profile
from tui.sandbox import DEMO_TOKEN, SandboxConfig, start_in_thread

DESTINATIONS = [
    ("30303", "Atlanta", "GA"), ("75207", "Dallas", "TX"), ("10001", "New York", "NY"),
    ("90001", "Los Angeles", "CA"), ("98101", "Seattle", "WA"), ("33126", "Miami", "FL"),
    ("80202", "Denver", "CO"), ("02108", "Boston", "MA"), ("55401", "Minneapolis", "MN"),
    ("46204", "Indianapolis", "IN"), ("19103", "Philadelphia", "PA"), ("77002", "Houston", "TX"),
]  # fmt: skip
PACKAGES = [("Pallet", 48, 40, 48), ("Crate", 40, 30, 36), ("Drum", 24, 24, 36)]


def order_file(path: Path, orders: int, seed: int = 7) -> Path:
    """``orders`` orders of one to three lines, from Chicago or Atlanta, across the country."""
    rng = random.Random(seed)
    lines = [
        "Order No,Ship From Zip,Consignee,City,State,Zip,Handling Units,Unit Type,Weight Lbs,"
        "Length,Width,Height,Liftgate"
    ]
    for number in range(orders):
        zip_code, city, state = rng.choice(DESTINATIONS)
        origin = rng.choice(("60607", "30336"))
        for _ in range(rng.randint(1, 3)):
            package, length, width, height = rng.choice(PACKAGES)
            quantity = rng.randint(1, 4)
            weight = quantity * rng.randint(150, 900)
            lift = rng.choice(("Y", ""))
            lines.append(
                f"BENCH-{number:05d},{origin},Consignee {number},{city},{state},{zip_code},"
                f"{quantity},{package},{weight},{length},{width},{height},{lift}"
            )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def bench(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="freight-bench-batch-"))
    path = order_file(folder / "orders.csv", args.orders)
    sheet = read_file(path)
    profile = demo_profile()
    today = date.today()
    now = datetime.now(UTC)
    config = SandboxConfig(
        db_path=folder / "sandbox.sqlite3",
        shipments=10,
        rate_limit=args.limit,
        rate_burst=args.burst,
    )
    sandbox = start_in_thread(config)
    store = SharedBatchStore.in_dir(folder / "data")
    try:
        batch = Batch.open(
            store,
            "demo",
            source_id(path),
            sheet,
            guess_mapping(sheet.headers),
            context_for(profile, today, now),
        )
        valid = sum(order.valid for order in batch.orders)
        pace = Pace(args.pace)
        last: list[Progress] = []
        options = ClientOptions(retry=RetryPolicy(rate_attempts=1))
        async with FreightClient(str(sandbox.base_url), DEMO_TOKEN, options=options) as client:
            started = time.perf_counter()
            cpu = time.process_time()
            await batch.rate(client, pace=pace, concurrency=args.concurrency, progress=last.append)
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu
    finally:
        store.close()
        sandbox.stop()
    counts = batch.counts()
    floor = valid / args.limit
    print(f"orders             {valid} valid of {len(batch.orders)} ({len(sheet.rows)} rows)")
    print(f"server limit       {args.limit:g} req/s, bucket {args.burst}")
    print(f"batch pace         {args.pace:g} req/s, {args.concurrency} in flight")
    print(f"statuses           {dict(counts)}")
    print(f"time               {elapsed:6.2f} s  (CPU {cpu:.2f} s in this process)")
    print(f"floor              {floor:6.2f} s  (orders / limit)")
    print(f"ratio              {elapsed / floor:6.3f}x  (goal: at most 1.2x)")
    print(f"429s               {pace.limited_count}, paused {pace.waited:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--orders", type=int, default=500)
    parser.add_argument("--limit", type=float, default=20.0, help="the sandbox's req/s")
    parser.add_argument("--burst", type=int, default=20, help="the sandbox's bucket")
    parser.add_argument("--pace", type=float, default=20.0, help="the batch's req/s")
    parser.add_argument("--concurrency", type=int, default=8)
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
