"""Benchmark the Batch screen's review with 1,000 orders: each key to the frame that shows it.

Run: ``python tests/benchmarks/bench_batch_keys.py [--orders 1000] [--runs 20] [--no-rate]``.
A file of ``--orders`` orders (one to three lines each) is opened on the Batch screen of a
headless app at 80x24 (the time it takes and the process's RSS then are printed) and, unless
``--no-rate`` (the default above 5,000 orders: 100,000 orders take the sandbox over an hour),
rated against an in-process sandbox (the time that takes is printed, not judged: a batch's
pace is the service's). Then each key is sent straight to the app (no Pilot waits) and timed
until a frame painted after its effect: cursor down, page down, End, Home, sort (s), reverse
(S), a letter typed in the filter, Enter on an order (its rates table; its details when not
rated) and Esc back, the first Enter and Esc apart (the order screen's first mount). Prints
p50 and the worst per key in milliseconds, wall and the process's CPU time (steadier on a
busy machine), with the load average; a column's first sort
apart from sorting by it again (from 5,000 orders its order is made ahead on a thread once
the review is shown: the keys start 0.5 s after, as a user's would). Goal: under 100 ms.

Measured at 100,000 orders, not rated (2 shared cores): opened in 42 s, RSS 403 MB after
it (the in-process sandbox and the test app included; `freight --demo` in tmux: 350 MB);
p50 down 2 ms, page down 4, End 14, Home 4, s 63, S 7, a filter letter 78, Enter 4, Esc 4
(s 507, S 410, a filter letter 394 ms before).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.bench_batch import order_file

_LAST_PAINT = [0.0]
_PAINT_CPU = [0.0]
"""The process's CPU time when that frame was sent (all its threads: the sandbox idles)."""
STUCK = 20.0
"""Seconds after which a key that shows nothing is an error (not a figure)."""


def _timestamp_paints() -> None:
    """Record when a screen last sent a frame to the (headless) terminal."""
    from textual.screen import Screen

    refresh = Screen._compositor_refresh

    def timed(self: Screen[Any]) -> None:
        refresh(self)
        _LAST_PAINT[0] = time.perf_counter()
        _PAINT_CPU[0] = time.process_time()

    Screen._compositor_refresh = timed  # type: ignore[method-assign]


def differs(read: Callable[[], object], before: object) -> Callable[[], bool]:
    """A check that ``read()`` is no longer ``before``."""
    return lambda: read() != before


async def _timed_key(app: Any, key: str, done: Callable[[], bool]) -> float:
    """Send ``key`` and return the seconds until a frame painted after ``done()`` held."""
    return (await timed_key(app, key, done))[0]


async def timed_key(app: Any, key: str, done: Callable[[], bool]) -> tuple[float, float]:
    """Send ``key`` and return the seconds until a frame painted after ``done()`` held, and
    the CPU seconds the process spent meanwhile (steadier than the wall on a busy machine:
    another process's turns are not in it; the benchmark's own polling is, a little)."""
    from textual import events

    from tests.textual_probes import send_as_terminal

    character = key if len(key) == 1 else None
    cpu = time.process_time()
    start = time.perf_counter()
    send_as_terminal(app, events.Key(key, character))
    before = start  # the last moment the effect was seen missing
    while not done():
        before = time.perf_counter()
        if before - start > STUCK:
            raise RuntimeError(f"{key}: its effect never came")
        await asyncio.sleep(0.0005)
    while _LAST_PAINT[0] < before:  # a frame painted after the effect came
        if time.perf_counter() - start > STUCK:
            raise RuntimeError(f"{key}: no frame was painted after it")
        await asyncio.sleep(0.0005)
    return _LAST_PAINT[0] - start, _PAINT_CPU[0] - cpu


def _rss_mb() -> float:
    """This process's resident memory now, in MB (Linux)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def bench(
    orders: int, runs: int, folder: Path, rate: bool
) -> dict[str, list[tuple[float, float]]]:
    import httpx

    from tui.app import make_app
    from tui.batch.fields import guess_mapping
    from tui.batch.mappings import MappingStore
    from tui.batch.source import read_file
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.screens.batch import BatchScreen
    from tui.screens.batch_order import BatchOrderScreen
    from tui.session import Session

    _timestamp_paints()
    path = order_file(folder / "orders.csv", orders)
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
    sheet = read_file(path)  # the columns as guessed, saved for these headers: no review
    MappingStore.in_dir(folder / "data").save("demo", "bench", guess_mapping(sheet.headers))
    app = make_app(session)
    times: dict[str, list[tuple[float, float]]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+4")
        while not isinstance(app.screen, BatchScreen):
            await pilot.pause(0.02)
        screen: Any = app.screen
        started = time.perf_counter()
        screen.open_path(str(path))
        while screen.current_batch is None or screen.table.row_count < orders:
            await pilot.pause(0.05)
        await pilot.pause(0.5)
        opened = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"opened {orders} orders in {opened:.1f} s; RSS {_rss_mb():.0f} MB after "
            f"(peak {peak:.0f} MB, the sandbox and the test app included)"
        )
        screen.table.focus()
        if rate:
            started = time.perf_counter()
            await pilot.press("r")
            while screen.runs.rating_worker is None or not screen.runs.rating_worker.is_finished:
                await pilot.pause(0.1)
            print(f"rated {orders} orders in process in {time.perf_counter() - started:.1f} s")
            await pilot.pause(0.5)
        table = screen.table

        async def key(name: str, label: str, done: Callable[[], bool]) -> None:
            times.setdefault(label, []).append(await timed_key(app, name, done))
            await pilot.pause(0.02)

        await pilot.press("home")
        for _ in range(runs):
            await key("down", "down", differs(lambda: table.cursor_row, table.cursor_row))
        for _ in range(runs):
            await pilot.press("home")
            await key("pagedown", "page down", lambda: table.cursor_row > 0)
            await key("end", "end (last order)", lambda: table.cursor_row == table.row_count - 1)
            await key("home", "home (first order)", lambda: table.cursor_row == 0)
        sorted_by = {table.sort_column}
        for _ in range(runs):
            # A column's first sort reads its values; sorting by it again reuses them.
            figures = await timed_key(
                app, "s", differs(lambda: table.sort_column, table.sort_column)
            )
            again = table.sort_column in sorted_by
            sorted_by.add(table.sort_column)
            label = "s (sort, again)" if again else "s (sort, first by column)"
            times.setdefault(label, []).append(figures)
            await pilot.pause(0.02)
            await key("S", "S (reverse)", differs(lambda: table.sort_reverse, table.sort_reverse))
        table.sort_by("position", reverse=False)
        filter_input = screen.query_one("#batch-filter")
        for number in range(max(1, runs // 2)):
            filter_input.focus()
            await pilot.pause(0.05)
            letter = "0" if number % 2 == 0 else "backspace"
            typed = differs(lambda: tuple(screen.table.words), tuple(screen.table.words))
            await key(letter, "a letter in the filter", typed)
            await pilot.pause(0.05)
        filter_input.value = ""
        table.focus()
        await pilot.pause(0.2)
        wanted = "rated" if rate else "pending"
        chosen = [row.key for row in table.rows() if row.status == wanted]
        for number in range(max(1, runs // 2)):
            table.move_cursor_to_key(chosen[number * 37 % len(chosen)])
            await pilot.pause(0.05)
            label = "enter (the order's rates)" if rate else "enter (the order)"
            await key(
                "enter",
                f"{label}, first" if number == 0 else label,
                lambda: (
                    isinstance(app.screen, BatchOrderScreen)
                    and (not rate or app.screen.table.row_count > 0)
                ),
            )
            back = "esc (back to the review)"
            await key(
                "escape", f"{back}, first" if number == 0 else back, lambda: app.screen is screen
            )
    sandbox.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--orders", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rate", action=argparse.BooleanOptionalAction, default=None)
    options = parser.parse_args()
    rate = options.rate if options.rate is not None else options.orders <= 5000
    with tempfile.TemporaryDirectory() as home:
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            os.environ[name] = str(Path(home) / name.lower())
        os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
        times = asyncio.run(bench(options.orders, options.runs, Path(home), rate))
    load = os.getloadavg()[0]
    print(
        f"review keys at {options.orders} orders, 80x24, key to painted frame (goal < 100 ms),"
        f" load average {load:.1f} on {os.cpu_count()} CPUs; wall, then CPU of the process:"
    )
    for label, pairs in times.items():
        wall = [pair[0] * 1000 for pair in pairs]
        cpu = [pair[1] * 1000 for pair in pairs]
        print(
            f"  {label:<34} p50 {statistics.median(wall):7.1f} ms   max {max(wall):7.1f} ms"
            f"   CPU p50 {statistics.median(cpu):6.1f} ms   max {max(cpu):6.1f} ms"
            f"   (n={len(pairs)})"
        )


if __name__ == "__main__":
    main()
