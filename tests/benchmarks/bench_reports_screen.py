"""Benchmark: the Reports screen over 100,000 booked shipments (goal ≤ 1 s per view).

Run: python tests/benchmarks/bench_reports_screen.py [--rows N]

Fills a store in a temporary data dir with the seeded bookings of bench_reports.py (a year
of 2025, 12 carriers, 40 lanes, USD and CAD), opens the app at 80x24 on the last day of that
year, and times each view from its key to its figures drawn, for a month (about 8,300
bookings) and for the whole year (all of them): the first view read anew (`r`), a second view
asked for at once (while the others are read ahead), and the views once read ahead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[2]))

GOAL = 1.0
LAST_DAY = date(2025, 12, 31)
VIEWS = (("1", "by carrier"), ("2", "by lane"), ("3", "by week"), ("4", "scorecard"))


async def _view(pilot: Any, screen: Any, key: str) -> float:
    """Seconds from the key to the view's figures drawn (the answer is kept and drawn in one
    handler; Pilot's own waits after a key are not counted)."""
    views = {"1": "carrier", "2": "lane", "3": "week", "4": "carriers"}
    generation = screen.generation + (key == "r")
    began = time.perf_counter()
    screen.app.simulate_key(key)
    while (  # noqa: ASYNC110 (polling the screen's state is what is timed)
        screen.view != views.get(key, screen.view)
        or screen.generation != generation
        or screen.wanted not in screen.reads
    ):
        await asyncio.sleep(0.002)
    await asyncio.sleep(0)
    return time.perf_counter() - began


async def _run(folder: Path) -> float:
    import httpx

    import tui.screens.reports
    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.screens.reports import ReportsScreen
    from tui.session import Session

    tui.screens.reports.today = lambda: LAST_DAY
    config = SandboxConfig(db_path=folder / "sandbox.sqlite3", shipments=10, seed=7)
    transport = httpx.ASGITransport(app=create_app(config))
    session = Session.for_testing(
        "http://sandbox.test", DEMO_TOKEN, transport=transport, data_dir=folder / "data"
    )
    worst = 0.0
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+6")
        while not isinstance(app.screen, ReportsScreen):
            await pilot.pause(0.01)
        screen = app.screen
        while screen.wanted not in screen.reads:
            await pilot.pause(0.01)
        for length in ("month", "year"):
            while screen.length != length:
                await pilot.press("p")
            await app.workers.wait_for_complete()
            timings = [("read anew (r)", await _view(pilot, screen, "r"))]
            timings.append(("by lane, right after", await _view(pilot, screen, "2")))
            await app.workers.wait_for_complete()  # the rest read ahead
            for key, name in (*VIEWS[2:], VIEWS[0]):
                timings.append((f"{name}, read ahead", await _view(pilot, screen, key)))
            began = time.perf_counter()
            app.simulate_key("t")
            while not screen.as_table:  # noqa: ASYNC110
                await asyncio.sleep(0.002)
            timings.append(("chart → table", time.perf_counter() - began))
            await pilot.press("t")
            for name, seconds in timings:
                worst = max(worst, seconds)
                print(f"{length:5} {name:24} {seconds * 1000:8.1f} ms")
    return worst


def main() -> int:
    from tests.benchmarks.bench_reports import bookings
    from tests.reports.fill import fill
    from tui.store import open_store

    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            os.environ[name] = str(folder / name.lower())
        os.environ.pop("FREIGHT_STORE_URL", None)
        (folder / "data").mkdir()
        store = open_store(folder / "data", "")
        try:
            fill(store, bookings(args.rows))
        finally:
            store.close()
        print(f"{args.rows:,} bookings; the Reports screen at 80x24, each view from its key:")
        worst = asyncio.run(_run(folder))
    print(f"worst {worst * 1000:.1f} ms (goal ≤ {GOAL * 1000:.0f} ms)")
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
