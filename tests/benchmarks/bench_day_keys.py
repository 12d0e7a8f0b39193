"""Benchmark the Day screen with 2,000 shipments on the day: each key to the frame that shows it.

Run: ``python tests/benchmarks/bench_day_keys.py [--shipments 2000] [--runs 20]``. The store
gets ``--shipments`` bookings on Monday 2026-11-23 and as many on Tuesday, over eight
carriers, written straight into its ledger table (as tests/reports/fill.py does); they have
no shipment on the in-process sandbox (it holds none), so the service adds nothing and every
line is flagged. The Day screen of a headless app at 80x24 shows Monday; then each key is
sent straight to the app (no Pilot waits) and timed until a frame painted after its effect:
cursor down, page down, End, Home, → (the next day, read again from the store) and ← back.
Prints p50 and the worst per key in milliseconds; goal: under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.bench_batch_keys import (
    _LAST_PAINT,
    STUCK,
    _timed_key,
    _timestamp_paints,
    differs,
)

MONDAY = date(2026, 11, 23)
CARRIERS = (
    "Harrowgate Freight Lines", "Bluecrest Express", "Northway Carriers", "Pinecone Freight",
    "Saltmarsh LTL", "Ironbridge Transport", "Redwing Haulers", "Lakeshore Lines",
)  # fmt: skip
SENT = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)


def fill_day(
    data_dir: Path, environment: str, day: date, count: int, start: int, account: str = "demo"
) -> None:
    """``count`` booked shipments picked up on ``day``, over the carriers, in the store (in
    ``environment`` and ``account``, the profile's name)."""
    from tui.store import open_store

    rows = []
    for n in range(start, start + count):
        carrier = CARRIERS[n % len(CARRIERS)]
        lane = {"origin": "60607", "destination": f"{30000 + n % 600:05d}", "carrier": carrier,
                "pickup_date": day.isoformat()}  # fmt: skip
        when = (SENT + timedelta(seconds=n)).isoformat()
        rows.append((
            f"bench-{n:06d}", account, environment, "desk-1", account, f"q{n}", "r", when, when,
            "unknown" if n % 97 == 0 else "booked", f"{3410000000 + n}", f"BOL{n:08d}",
            day.isoformat(), json.dumps(lane),
        ))  # fmt: skip
    store = open_store(data_dir)
    try:
        with store.engine.write() as tx:
            tx.many(
                "INSERT INTO bookings (reference, account, environment, station, profile,"
                " quote_id, rate_id, sent_at, updated, outcome, pro_number, bol_number,"
                " pickup_date, lane) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
    finally:
        store.close()


async def _timed_two(
    app: Any, key: str, heading: Callable[[], bool], rows: Callable[[], bool]
) -> tuple[float, float]:
    """Send ``key``: the seconds until a frame painted after ``heading()`` held (the key's
    own time), and until one painted after ``rows()`` held (the day's rows read and shown)."""
    from textual import events

    from tests.textual_probes import send_as_terminal

    start = time.perf_counter()
    send_as_terminal(app, events.Key(key, None))
    times = []
    for done in (heading, rows):
        before = time.perf_counter()
        while not done():
            before = time.perf_counter()
            if before - start > STUCK:
                raise RuntimeError(f"{key}: its effect never came")
            await asyncio.sleep(0.0005)
        while _LAST_PAINT[0] < before:
            if time.perf_counter() - start > STUCK:
                raise RuntimeError(f"{key}: no frame was painted after it")
            await asyncio.sleep(0.0005)
        times.append(_LAST_PAINT[0] - start)
    return times[0], times[1]


async def bench(shipments: int, runs: int, folder: Path) -> dict[str, list[float]]:
    import httpx

    import tui.screens.day
    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.screens.day import DayScreen
    from tui.session import Session

    _timestamp_paints()
    sandbox = create_app(
        SandboxConfig(
            db_path=folder / "sandbox.sqlite3", shipments=0, rate_limit=1e6, rate_burst=10**6
        )
    )
    session = Session.for_testing(
        "http://sandbox.test",
        DEMO_TOKEN,
        transport=httpx.ASGITransport(app=sandbox),
        data_dir=folder / "data",
    )
    environment = session.ledger().environment
    started = time.perf_counter()
    fill_day(folder / "data", environment, MONDAY, shipments, 0)
    fill_day(folder / "data", environment, MONDAY + timedelta(days=1), shipments, shipments)
    print(f"filled {2 * shipments} bookings in {time.perf_counter() - started:.1f} s")
    tui.screens.day.today = lambda: MONDAY
    app = make_app(session)
    times: dict[str, list[float]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        started = time.perf_counter()
        await pilot.press("alt+5")
        while not isinstance(app.screen, DayScreen) or app.screen.facts_state != "known":
            await pilot.pause(0.02)
        print(f"the day shown, the service asked, in {time.perf_counter() - started:.2f} s")
        screen: Any = app.screen
        table = screen.table
        await pilot.pause(0.5)

        async def key(name: str, label: str, done: Callable[[], bool]) -> None:
            times.setdefault(label, []).append(await _timed_key(app, name, done))
            await pilot.pause(0.02)

        def shown(day: date) -> Callable[[], bool]:
            return lambda: (
                screen.shown is not None and screen.shown.day == day and table.row_count > 0
            )

        async def settled() -> None:  # the day read, and the days around it (as a user
            # looks at the day before the next key)
            while any(not worker.is_finished for worker in screen.workers):
                await pilot.pause(0.02)

        await settled()
        await pilot.press("home")
        for _ in range(runs):
            await key("down", "down", differs(lambda: table.cursor_row, table.cursor_row))
        for _ in range(runs):
            await pilot.press("home")
            await key("pagedown", "page down", lambda: table.cursor_row > 0)
            await key("end", "end (last line)", lambda: table.cursor_row == table.row_count - 1)
            await key("home", "home (first line)", lambda: table.cursor_row == 0)
        for _ in range(max(1, runs // 2)):
            await key("right", "→ next day", shown(MONDAY + timedelta(days=1)))
            await settled()
            await key("left", "← previous day", shown(MONDAY))
            await settled()
        screen._read_before.clear()  # a day not read before: the store read in a worker

        async def unread(name: str, label: str, day: date) -> None:
            heading = lambda: screen.day == day and day.isoformat() in str(table.border_title)  # noqa: E731
            own, rows = await _timed_two(app, name, heading, shown(day))
            times.setdefault(f"{label}: the key", []).append(own)
            times.setdefault(f"{label}: rows painted", []).append(rows)
            await settled()
            screen._read_before.clear()

        for _ in range(max(1, runs // 2)):
            await unread("right", "→ not read before", MONDAY + timedelta(days=1))
            await unread("left", "← not read before", MONDAY)
        lines = sum(len(group.lines) for group in screen.shown.carriers)
        print(f"{lines} shipments on {MONDAY}, {table.row_count} table lines")
    sandbox.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shipments", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            os.environ[name] = str(Path(home) / name.lower())
        os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
        times = asyncio.run(bench(options.shipments, options.runs, Path(home)))
    print(
        f"Day keys at {options.shipments} shipments, 80x24, key to painted frame (goal < 100 ms):"
    )
    for label, seconds in times.items():
        p50 = statistics.median(seconds) * 1000
        worst = max(seconds) * 1000
        print(f"  {label:<34} p50 {p50:7.1f} ms   max {worst:7.1f} ms   (n={len(seconds)})")


if __name__ == "__main__":
    main()
