"""Benchmark reading the day from the service: 2,000 shipments on one pickup day.

Run: ``python tests/benchmarks/bench_day_load.py [--shipments 2000] [--runs 3]``. A sandbox
seeded with ``--shipments`` shipments is served on a loopback port (uvicorn in a thread, as
``freight sandbox`` serves it); every one of them is moved onto Monday 2026-11-23 in its
database, and the ledger gets a booking for each. Then the service's part of the day is read
twice: as ``freight day`` and the Day screen read it (``tui.day.facts``: the listing, a page per
100, each entry's items taken as they are) and as they read it before (the listing's ids, then
one detail request per shipment). Prints the seconds of each, best of ``--runs``; goal: ≤ 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.api import FreightClient
    from tui.ledger import BookingRecord

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

MONDAY = date(2026, 11, 23)
SENT = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)


def move_onto(db_path: Path, day: date) -> list[tuple[str, str]]:
    """Every shipment of the sandbox's database picked up on ``day`` (10:00 UTC), the search's
    pickup lead widened to cover them: (id, PRO) of each."""
    import sqlite3

    start = int(datetime(day.year, day.month, day.day, 10, tzinfo=UTC).timestamp())
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.execute("UPDATE shipments SET status = 'confirmed' WHERE status = 'canceled'")
            conn.execute("UPDATE shipments SET pickup_at = ?", (start,))
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('pickup_lead_s', ?)",
                (str(400 * 86400),),
            )
        return [(str(i), str(p)) for i, p in conn.execute("SELECT id, pro FROM shipments")]
    finally:
        conn.close()


def records_of(shipments: list[tuple[str, str]], day: date) -> list[BookingRecord]:
    from tui.ledger import BookingRecord

    return [
        BookingRecord(
            reference=f"bench-{n:06d}",
            profile="demo",
            quote_id=f"q{n}",
            rate_id="r",
            time=SENT,
            outcome="booked",
            sent_at=SENT,
            shipment_id=shipment_id,
            pro_number=pro,
            pickup_date=day.isoformat(),
        )
        for n, (shipment_id, pro) in enumerate(shipments)
    ]


async def per_shipment(client: FreightClient, day: date, records: list[BookingRecord]) -> int:
    """The day as it was read before: the listing's ids, then a detail per shipment."""
    from tui.api.models import ShipmentQuery
    from tui.day.facts import facts_of

    listed = set()
    query = ShipmentQuery.build(pickup_date_from=day, pickup_date_to=day)
    async for shipment in client.iter_shipments(query):
        listed.add(shipment.id)
    found = {}
    for record in records:
        sid = record.shipment_id
        if sid is not None and sid in listed:
            found[sid] = facts_of(await client.get_shipment(sid))
    return len(found)


async def from_listing(client: FreightClient, day: date, records: list[BookingRecord]) -> int:
    from tui.day.facts import service_facts

    return len(await service_facts(client, day, records))


async def bench(shipments: int, runs: int, folder: Path) -> None:
    from tui.api import FreightClient
    from tui.sandbox import SandboxConfig
    from tui.sandbox.threaded import start_in_thread

    db_path = folder / "sandbox.sqlite3"
    now = datetime(2026, 11, 20, 15, tzinfo=UTC)
    config = SandboxConfig(
        db_path=db_path, shipments=shipments, rate_limit=1e6, rate_burst=10**6, now=lambda: now
    )
    start_in_thread(config).stop()  # seeded
    records = records_of(move_onto(db_path, MONDAY), MONDAY)
    with start_in_thread(config) as sandbox:
        async with FreightClient(sandbox.base_url, sandbox.token) as client:
            for name, read in (("from the listing", from_listing), ("a detail each", per_shipment)):
                best = float("inf")
                for _ in range(runs):
                    started = time.perf_counter()
                    count = await read(client, MONDAY, records)
                    best = min(best, time.perf_counter() - started)
                print(f"{name}: {count} shipments in {best:.2f} s (best of {runs})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shipments", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args.shipments, args.runs, Path(folder)))


if __name__ == "__main__":
    main()
