"""Benchmark: from the rates key (ctrl+r on a filled quote) to a filled rates table.

Run: python tests/benchmarks/bench_rates_key.py [--runs 20]

The app runs headless (Pilot, 80x24) against a real sandbox on a loopback port. Each run
sends ctrl+r to the app on the same filled quote form and waits until the rates table has
its rows and a frame with them has been painted. The HTTP exchange of POST /rates is timed
inside the client's transport, so the app's own part (goal: under 100 ms beyond the
sandbox's response time) is the difference. The first run also pays for lazy imports
(httpx is already loaded by then: the app starts its client right after the first frame).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


class TimedTransport(httpx.AsyncBaseTransport):
    """Times each POST /rates exchange, body included."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.rates_seconds: list[float] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        start = time.perf_counter()
        response = await self.inner.handle_async_request(request)
        body = await response.aread()
        if request.url.path == "/rates":
            self.rates_seconds.append(time.perf_counter() - start)
        return httpx.Response(
            response.status_code, headers=response.headers, content=body, request=request
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


_LAST_PAINT = [0.0]


def _timestamp_paints() -> None:
    """Record when a screen last sent a frame to the (headless) terminal."""
    from tests.textual_probes import after_every_frame

    def painted() -> None:
        _LAST_PAINT[0] = time.perf_counter()

    after_every_frame(painted)


async def measure(runs: int) -> tuple[list[float], list[float]]:
    """Send ctrl+r straight to the app (no Pilot idle waits) and time key to painted rows."""
    from textual import events

    from tests.make_screenshots import _fill_quote
    from tests.textual_probes import send_as_terminal
    from tui.app import make_app
    from tui.sandbox import SandboxConfig, start_in_thread
    from tui.screens.rates import RatesScreen
    from tui.session import Session
    from tui.widgets.rates_table import RatesTable

    _timestamp_paints()
    totals: list[float] = []
    transport = TimedTransport()
    with start_in_thread(SandboxConfig(db_path=None, shipments=50, rate_limit=1000)) as sandbox:
        session = Session.for_testing(sandbox.base_url, sandbox.token, transport=transport)
        app = make_app(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await _fill_quote(pilot)
            await pilot.pause(0.3)
            for _ in range(runs):
                start = time.perf_counter()
                send_as_terminal(app, events.Key("ctrl+r", None))
                while True:
                    screen: Any = app.screen
                    if isinstance(screen, RatesScreen) and any(
                        t.row_count for t in screen.query(RatesTable)
                    ):
                        break
                    await asyncio.sleep(0.001)
                filled = time.perf_counter()
                while _LAST_PAINT[0] < filled:  # noqa: ASYNC110 - polling a paint stamp
                    await asyncio.sleep(0.001)
                totals.append(_LAST_PAINT[0] - start)
                while isinstance(app.screen, RatesScreen):
                    await pilot.press("escape")
                    await pilot.pause(0.1)
    return totals, transport.rates_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            os.environ[name] = str(Path(home) / name.lower())
        totals, http = asyncio.run(measure(options.runs))
    app_part = [total - exchange for total, exchange in zip(totals, http, strict=True)]
    print(f"first ctrl+r to painted table   {totals[0] * 1000:7.1f} ms (HTTP {http[0] * 1000:.1f})")
    print(f"ctrl+r to painted table, p50    {statistics.median(totals[1:]) * 1000:7.1f} ms")
    print(f"sandbox exchange (POST /rates)  {statistics.median(http[1:]) * 1000:7.1f} ms p50")
    print(
        f"app's own part, p50             {statistics.median(app_part[1:]) * 1000:7.1f} ms"
        "  (goal < 100 ms)"
    )


if __name__ == "__main__":
    main()
