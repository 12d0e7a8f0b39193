"""Benchmark: the reports over 100,000 booked shipments in a SQLite store (goal ≤ 1 s each),
or in a PostgreSQL one.

Run: python tests/benchmarks/bench_reports.py [--rows N] [--postgres [URL]]
(``--postgres`` alone starts a throwaway server, as the tests do.)

Fills a new store in a temporary folder with N (default 100,000) seeded synthetic bookings:
12 carriers, 40 lanes, a year of weeks, USD and CAD, 2–5 offers each, three in four delivered.
Then times each report (best of 3, after one warm-up run) and prints the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))

from tests.reports.fill import Booked, fill
from tui.reports.engine import carriers, spend
from tui.store import open_store

GOAL = 1.0
START = datetime(2025, 1, 6, 8, tzinfo=UTC)


def bookings(n: int, seed: int = 29) -> list[Booked]:
    rnd = random.Random(seed)
    lanes = [
        (f"{rnd.randrange(10000, 99999)}", f"{rnd.randrange(10000, 99999)}") for _ in range(40)
    ]
    out = []
    for i in range(n):
        sent = START + timedelta(minutes=rnd.randrange(0, 365 * 24 * 60))
        pickup = (sent + timedelta(days=1)).date()
        transit = rnd.randrange(1, 6)
        delivered = (
            (pickup + timedelta(days=transit + rnd.choice((-1, 0, 0, 0, 1, 2)))).isoformat()
            if rnd.random() < 0.75
            else None
        )
        currency = "CAD" if rnd.random() < 0.1 else "USD"
        total = rnd.randrange(8000, 250000)
        offers = [
            (f"{(total + rnd.randrange(-2000, 20000)) / 100:.2f}", currency)
            for _ in range(rnd.randrange(1, 5))
        ]
        out.append(
            Booked(
                f"FRT{i:07d}",
                f"C{rnd.randrange(12):02d}",
                f"{total / 100:.2f}",
                currency,
                rnd.randrange(100, 20000),
                sent,
                offers,
                transit,
                pickup.isoformat(),
                delivered,
                rnd.choice(lanes),
            )
        )
    return out


def timed(run: Callable[[], object]) -> float:
    run()
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - began)
    return best


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--postgres", nargs="?", const="", default=None, metavar="URL")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        url = ""
        if args.postgres is not None:
            from tests.benchmarks.bench_stations import postgres

            url = stack.enter_context(postgres(args.postgres))
        store = open_store(Path(folder), url, migrate=True)  # a new PostgreSQL has no tables
        try:
            began = time.perf_counter()
            fill(store, bookings(args.rows))
            print(
                f"filled {args.rows:,} bookings ({store.dialect.name}) in "
                f"{time.perf_counter() - began:.1f} s"
            )
            engine = store.engine
            month = (START + timedelta(days=90), START + timedelta(days=120))
            runs: dict[str, Callable[[], object]] = {
                "spend --by carrier": lambda: spend(engine, "carrier"),
                "spend --by lane": lambda: spend(engine, "lane"),
                "spend --by week": lambda: spend(engine, "week"),
                "spend, one month": lambda: spend(engine, "carrier", *month),
                "carriers": lambda: carriers(engine),
            }
            worst = 0.0
            for name, run in runs.items():
                seconds = timed(run)
                worst = max(worst, seconds)
                print(f"{name:20} {seconds * 1000:8.1f} ms")
            print(f"worst {worst * 1000:.1f} ms (goal ≤ {GOAL * 1000:.0f} ms)")
            return 0 if worst <= GOAL else 1
        finally:
            store.close()


if __name__ == "__main__":
    sys.exit(main())
