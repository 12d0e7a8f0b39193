"""A tour of every screen and dialog, measuring the worst text contrast under every theme.

One app per colour system (the terminal decides it at start: ``COLORTERM``, ``TERM``,
``NO_COLOR``); at each stop of the tour the app takes each theme in turn and the worst text
cell is kept per (theme, stop). ``python -m tests.ui.contrast_tour [SYSTEM…]`` prints the
worst cell per theme and colour system.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.ui.contrast import Cell, worst

FIXED_NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)

COLOUR_SYSTEMS: dict[str, dict[str, str | None]] = {
    "truecolor": {"COLORTERM": "truecolor", "TERM": "xterm-256color", "NO_COLOR": None},
    "256": {"COLORTERM": None, "TERM": "xterm-256color", "NO_COLOR": None},
    "16": {"COLORTERM": None, "TERM": "xterm", "NO_COLOR": None},
    "NO_COLOR": {"COLORTERM": None, "TERM": "screen", "NO_COLOR": "1"},
}
"""The environment of each colour system measured (NO_COLOR as tmux or screen over SSH)."""

STOPS = (
    "quote", "accessorials", "item details", "address book", "rates", "book", "book confirm",
    "result", "shipments", "shipments filters", "shipments totals", "export",
    "shipment detail", "help", "command palette", "batch columns", "batch", "batch order",
    "day", "day manifests", "day confirm", "sign-in",
)  # fmt: skip
"""Every stop of the tour, in order."""

Worst = dict[tuple[str, str], Cell | None]
"""The worst cell per (theme, stop)."""

Stops = AsyncIterator[tuple[str, str]]
"""Each stop's name and the screen it shows (checked, so a tour that went astray fails)."""


@contextmanager
def terminal(system: str) -> Iterator[None]:
    """The process environment of a terminal with ``system`` colours, for the app's start."""
    saved = {name: os.environ.get(name) for name in COLOUR_SYSTEMS[system]}
    try:
        for name, value in COLOUR_SYSTEMS[system].items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def fix_clock(setattr_: Callable[[str, Any], None]) -> None:
    """The app's clocks on ``FIXED_NOW`` (with ``monkeypatch.setattr`` in a test)."""
    setattr_("tui.screens.quote.now", lambda: FIXED_NOW)
    setattr_("tui.screens.book.today", FIXED_NOW.date)
    setattr_("tui.screens.shipments.today", FIXED_NOW.date)
    setattr_("tui.screens.batch.now", lambda: FIXED_NOW)
    setattr_("tui.screens.day.today", FIXED_NOW.date)


async def _type(pilot: Pilot[Any], text: str) -> None:
    keys = {" ": "space", ".": "full_stop", "-": "minus"}
    await pilot.press(*[keys.get(c, c) for c in text])


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def _row(pilot: Pilot[Any], *values: str) -> None:
    for index, value in enumerate(values):
        if value:
            await _type(pilot, value)
        if index < len(values) - 1:
            await pilot.press("tab")


async def _press(pilot: Pilot[Any], *keys: str) -> None:
    await pilot.press(*keys)
    await _settle(pilot)


async def signed_in_tour(pilot: Pilot[Any]) -> Stops:
    """Quote (a wrong field in red), its dialogs, rates, book, confirm, result, shipments and
    their dialogs, the detail, help and the command palette."""
    await _settle(pilot)
    await _type(pilot, "30303")
    await pilot.press("tab", "tab", "tab")
    await _row(pilot, "2", "pallet", "800", "48", "40", "48", "", "Machine parts")
    await pilot.press("enter")
    await _row(pilot, "1", "drum", "4O")
    await _press(pilot, "tab")
    yield "quote", "QuoteScreen"
    await _press(pilot, "ctrl+l")
    yield "accessorials", "AccessorialsScreen"
    await pilot.press("l", "escape")
    await _press(pilot, "ctrl+o")
    yield "item details", "ItemDetailsScreen"
    await _press(pilot, "escape")
    await _press(pilot, "ctrl+x")  # the wrong row goes
    await _press(pilot, "ctrl+a")
    yield "address book", "QuoteAddressesScreen"
    await _press(pilot, "escape")
    await _press(pilot, "ctrl+r")
    yield "rates", "RatesScreen"
    await _press(pilot, "enter")
    yield "book", "BookScreen"
    await _press(pilot, "ctrl+s")
    yield "book confirm", "BookConfirmScreen"
    await _press(pilot, "enter")
    yield "result", "ResultScreen"
    await _press(pilot, "f4")
    yield "shipments", "ShipmentsScreen"
    await _press(pilot, "f")
    yield "shipments filters", "ShipmentsScreen"
    await _press(pilot, "escape")
    await _press(pilot, "t")
    yield "shipments totals", "ShipmentsSummaryScreen"
    await _press(pilot, "escape")
    await _press(pilot, "e")
    yield "export", "ExportDialog"
    await _press(pilot, "escape")
    await _press(pilot, "enter")
    yield "shipment detail", "ShipmentDetailScreen"
    await _press(pilot, "f1")
    yield "help", "HelpScreen"
    await _press(pilot, "f1")
    await _press(pilot, "ctrl+p")
    yield "command palette", "CommandPalette"
    await _press(pilot, "escape")
    async for stop in _batch(pilot):
        yield stop
    async for stop in _day(pilot):
        yield stop


async def _until(pilot: Pilot[Any], done: Callable[[], bool], what: str) -> None:
    for _ in range(1200):
        if done():
            await _settle(pilot)
            return
        await pilot.pause(0.05)
    raise LostTourError(f"timed out waiting for {what}")


async def _batch(pilot: Pilot[Any]) -> Stops:
    """The demo's sample orders on the Batch screen: its columns, the batch rated, an order."""
    from tui.batch import sample_path
    from tui.screens.batch import BatchScreen

    app = pilot.app
    await _press(pilot, "alt+4")
    screen = app.screen
    assert isinstance(screen, BatchScreen), screen
    screen.path_input.value = str(sample_path())
    screen.path_input.focus()
    await _press(pilot, "enter")
    await _until(pilot, lambda: type(app.screen).__name__ == "BatchMappingScreen", "columns")
    yield "batch columns", "BatchMappingScreen"
    await pilot.press("ctrl+s")
    await _until(pilot, lambda: screen.current_batch is not None, "the batch read")
    await pilot.press("r")
    await _until(
        pilot,
        lambda: screen.runs.rating_worker is not None and screen.runs.rating_worker.is_finished,
        "the batch rated",
    )
    yield "batch", "BatchScreen"
    await _press(pilot, "enter")
    yield "batch order", "BatchOrderScreen"
    await _press(pilot, "escape")


async def _day(pilot: Pilot[Any]) -> Stops:
    """The Day screen on the booking's pickup day (flagged: its pickup not asked for), the
    manifests' folder and the close's question."""
    from tui.screens.day import DayScreen

    app = pilot.app
    await _press(pilot, "alt+5")
    screen = app.screen
    assert isinstance(screen, DayScreen), screen
    await _until(pilot, lambda: screen.facts_state != "pending", "the day read")
    if not screen.table.row_count:  # the booking's pickup is on the next business day
        await _press(pilot, "right")
        await _until(pilot, lambda: screen.facts_state != "pending", "the next day read")
    yield "day", "DayScreen"
    await _press(pilot, "m")
    yield "day manifests", "ManifestsDialog"
    await _press(pilot, "escape")
    await _press(pilot, "c")
    yield "day confirm", "DayConfirm"
    await _press(pilot, "n")


async def signed_out_tour(pilot: Pilot[Any]) -> Stops:
    """The sign-in screen."""
    await _settle(pilot)
    yield "sign-in", "SignInScreen"


class LostTourError(AssertionError):
    """The tour is not on the screen it meant to show."""


async def _measure(
    app: Any,
    pilot: Pilot[Any],
    stops: Stops,
    themes: Sequence[str],
    found: Worst,
    until: str | None = None,
) -> None:
    async for stop, screen in stops:
        if type(app.screen).__name__ != screen:
            raise LostTourError(f"{stop}: expected {screen}, the app shows {app.screen!r}")
        start = app.theme
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            found[(theme, stop)] = worst(app)
        app.theme = start
        await pilot.pause()
        if stop == until:
            return


async def measure(
    system: str,
    themes: Sequence[str],
    size: tuple[int, int] = (80, 24),
    until: str | None = None,
) -> Worst:
    """The worst text cell per (theme, stop) on a terminal with ``system`` colours (the app's
    clocks fixed first: ``fix_clock``); only the signed-in stops up to ``until`` when given."""
    import httpx

    from tui.app import make_app
    from tui.demo import DEMO_TOKEN
    from tui.sandbox import SandboxConfig, create_app
    from tui.session import Session

    found: Worst = {}
    with tempfile.TemporaryDirectory() as tmp, terminal(system):
        config = SandboxConfig(
            db_path=Path(tmp) / "sandbox.sqlite3", shipments=60, seed=7, now=lambda: FIXED_NOW
        )
        transport = httpx.ASGITransport(app=create_app(config))
        session = Session.for_testing("http://sandbox.test", DEMO_TOKEN, transport=transport)
        app = make_app(session)
        async with app.run_test(size=size) as pilot:
            await _measure(app, pilot, signed_in_tour(pilot), themes, found, until)
        if until is not None:
            return found
        signed_out = Session(
            environment="SANDBOX",
            profile=session.profile,
            config=session.config,
            data_dir=session.data_dir,
            connect=None,
        )
        app = make_app(signed_out)
        async with app.run_test(size=size) as pilot:
            await _measure(app, pilot, signed_out_tour(pilot), themes, found)
    return found


def worst_per_theme(found: Worst) -> dict[str, tuple[str, Cell | None]]:
    """The worst cell of each theme over every stop, with the stop."""
    per: dict[str, tuple[str, Cell | None]] = {}
    for (theme, stop), cell in found.items():
        if cell is None:
            continue
        best = per.get(theme)
        if best is None or best[1] is None or cell.ratio < best[1].ratio:
            per[theme] = (stop, cell)
    return per


def main() -> None:
    import importlib
    import sys

    from textual.theme import BUILTIN_THEMES

    def patch(target: str, value: Any) -> None:
        module, name = target.rsplit(".", 1)
        setattr(importlib.import_module(module), name, value)

    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    fix_clock(patch)
    systems = sys.argv[1:] or list(COLOUR_SYSTEMS)
    themes = sorted(BUILTIN_THEMES)
    for system in systems:
        with tempfile.TemporaryDirectory() as home:
            for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
                os.environ[name] = str(Path(home) / name.lower())
            found = asyncio.run(measure(system, themes))
        for theme, (stop, cell) in sorted(worst_per_theme(found).items()):
            described = cell.describe() if cell else "-"
            print(f"{system:9} {theme:20} {stop:18} {described}", flush=True)


if __name__ == "__main__":
    main()
