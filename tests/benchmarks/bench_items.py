"""Benchmark: add, duplicate, delete and move one item row on the quote screen at 2, 20, 40
rows, and bursts of ↑ and ↓ (15 keys sent before any is handled) across its rows.

Run: python tests/benchmarks/bench_items.py [--runs 5] [--code DIR]

The app runs headless (Pilot, 80x24, offline: the quote form never talks to the server) on
a quote draft holding the rows. Each sample focuses the weight of a middle row (untimed),
sends the key straight to the app (no Pilot idle waits) and times from the key to the
screen settled: the last frame painted or message handled (work that blocks the keys typed
next even when it paints nothing) before a quiet spell after the grid shows the change.
Add and duplicate take the grid from N-1 to N rows (40 is the most a quote holds), delete
from N to N-1, move swaps two rows of N. A burst (`up`, `down`: min(15, N-1) keys at once,
from the last row up, then back down) is the first one in a freshly opened form, so each
sample opens its own: a grid that keeps what an earlier burst built would hide its cost.
Prints the median of the runs per operation, wall clock and process CPU time (goal: under
100 ms at 40 rows for one key). `--code DIR` imports the app
from another checkout (e.g. an older commit) to compare in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SIZES = (2, 20, 40)
OPERATIONS = ("add", "duplicate", "delete", "move")
BURSTS = ("up", "down")
BURST = 15
"""Keys in a burst of ↑ or ↓ (fewer on a grid with fewer rows)."""
QUIET = 0.12
"""Seconds without a paint or a handled message after which the screen counts as settled."""

_LAST_PAINT = [0.0, 0.0]
"""Wall-clock and process CPU time of the last frame sent to the terminal."""
_LAST_WORK = [0.0, 0.0]
"""The same for the end of the last message a widget handled (work that paints nothing)."""


def _timestamp_paints() -> None:
    """Record when a screen last sent a frame and when a widget last finished a message (the
    app's cursors do not blink: it turns blinking off on focus)."""
    from tests.textual_probes import after_every_frame, after_every_message

    def painted() -> None:
        _LAST_PAINT[:] = [time.perf_counter(), time.process_time()]

    def worked() -> None:
        _LAST_WORK[:] = [time.perf_counter(), time.process_time()]

    after_every_frame(painted)
    after_every_message(worked)


def _draft(rows: int) -> dict[str, Any]:
    from tui.domain.quote_form import ItemDraft, QuoteDraft

    items = tuple(
        ItemDraft(
            quantity=str(1 + index % 3),
            weight=str(200 + index * 10),
            length="48",
            width="40",
            height=str(30 + index % 20),
            description=f"line {index + 1}",
        )
        for index in range(rows)
    )
    return QuoteDraft(origin_zip="60601", dest_zip="30303", items=items).to_dict()


async def _timed(app: Any, key: str | list[str], done: Callable[[], bool]) -> tuple[float, float]:
    """Send `key` (or each of a list, at once), wait until `done()` and the screen settles;
    wall and CPU seconds to the last paint (CPU time shows the app's own work when other
    processes share the cores)."""
    from textual import events

    from tests.textual_probes import send_as_terminal

    start, start_cpu = time.perf_counter(), time.process_time()
    for each in [key] if isinstance(key, str) else key:
        send_as_terminal(app, events.Key(each, None))
    while not done():  # noqa: ASYNC110 - polling the grid
        await asyncio.sleep(0.002)
    shown = time.perf_counter()
    while _LAST_PAINT[0] < shown:  # noqa: ASYNC110 - polling a paint stamp
        await asyncio.sleep(0.002)
    while time.perf_counter() - max(_LAST_PAINT[0], _LAST_WORK[0]) < QUIET:  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    end = max(_LAST_PAINT, _LAST_WORK)
    return end[0] - start, end[1] - start_cpu


async def _form(rows: int) -> Any:
    """A running app on the quote form holding `rows` rows, the grid's inputs built, and
    its Pilot (a context manager to use with `async with`)."""
    from tui.app import make_app
    from tui.screens.quote import DRAFT_NAME
    from tui.session import Session

    session = Session.for_testing("http://127.0.0.1:9", "demo.demo-secret")
    session.drafts.save(DRAFT_NAME, _draft(rows))
    return make_app(session).run_test(size=(80, 24))


async def _started(pilot: Any) -> tuple[Any, Any]:
    """The quote screen and its grid, the start-up work done and the inputs built."""
    from tui.screens.quote import QuoteScreen
    from tui.widgets.items_editor import ItemsEditor

    app = pilot.app
    await pilot.pause(0.3)
    await app.workers.wait_for_complete()  # the client made at start, off the samples
    screen = app.screen
    assert isinstance(screen, QuoteScreen), screen
    editor = screen.query_one(ItemsEditor)
    await editor.complete()  # the inputs, as the cursor entering the grid builds them
    return screen, editor


async def measure_bursts(rows: int, runs: int) -> dict[str, list[tuple[float, float]]]:
    """Samples of a burst of ↑ then one of ↓, each run in a freshly opened form."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in BURSTS}
    keys = min(BURST, rows - 1)
    for _ in range(runs):
        async with await _form(rows) as pilot:
            screen, editor = await _started(pilot)
            screen.set_focus(editor.input_for(rows - 1, "weight"))
            await pilot.pause(0.3)

            def at(expected: int, editor: Any = editor) -> Callable[[], bool]:
                app = pilot.app
                return lambda: editor.current_index() == expected and not app.input_waiting

            samples["up"].append(await _timed(pilot.app, ["up"] * keys, at(rows - 1 - keys)))
            samples["down"].append(await _timed(pilot.app, ["down"] * keys, at(rows - 1)))
    return samples


async def measure(rows: int, runs: int) -> dict[str, list[tuple[float, float]]]:
    """Median-ready samples of each operation on a grid of `rows` rows."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in OPERATIONS}
    async with await _form(rows) as pilot:
        app = pilot.app
        screen, editor = await _started(pilot)
        middle = (rows - 1) // 2

        async def focus(index: int) -> None:
            screen.set_focus(editor.input_for(index, "weight"))
            await pilot.pause(0.05)

        def count(expected: int) -> Callable[[], bool]:
            return lambda: len(editor.rows) == expected and editor.current_index() is not None

        def at(expected: int) -> Callable[[], bool]:
            return lambda: editor.current_index() == expected

        for _ in range(runs):
            await focus(middle)
            samples["delete"].append(await _timed(app, "ctrl+x", count(rows - 1)))
            await focus(min(middle, rows - 2))
            samples["add"].append(await _timed(app, "ctrl+n", count(rows)))
            await focus(middle)
            samples["delete"].append(await _timed(app, "ctrl+x", count(rows - 1)))
            await focus(min(middle, rows - 2))
            samples["duplicate"].append(await _timed(app, "ctrl+d", count(rows)))
            await focus(middle)
            samples["move"].append(await _timed(app, "alt+down", at(middle + 1)))
            await focus(middle + 1)
            samples["move"].append(await _timed(app, "alt+up", at(middle)))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="row counts, e.g. 40")
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout to import tui from")
    options = parser.parse_args()
    sys.path.insert(0, str(options.code.resolve()))
    import tui

    _timestamp_paints()
    print(f"code: {Path(tui.__file__).resolve().parent}")
    print("ms from the key to the settled screen, median: wall clock (process CPU time)")
    columns = (*OPERATIONS, *(f"{name} x{BURST}" for name in BURSTS))
    print(f"{'rows':>4}  " + "  ".join(f"{name:>16}" for name in columns))
    with tempfile.TemporaryDirectory() as home:
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            os.environ[name] = str(Path(home) / name.lower())
        for rows in (int(size) for size in options.sizes.split(",")):
            samples = asyncio.run(measure(rows, options.runs))
            samples.update(asyncio.run(measure_bursts(rows, options.runs)))
            cells = []
            for name in (*OPERATIONS, *BURSTS):
                wall = statistics.median(wall for wall, _cpu in samples[name]) * 1000
                cpu = statistics.median(cpu for _wall, cpu in samples[name]) * 1000
                cells.append(f"{wall:7.1f} ({cpu:6.1f})")
            print(f"{rows:>4}  " + "  ".join(f"{cell:>16}" for cell in cells), flush=True)


if __name__ == "__main__":
    main()
