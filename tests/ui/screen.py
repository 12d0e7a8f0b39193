"""Reading and waiting on the app in Pilot tests: the screen as text, settling, waiting."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from tests.textual_probes import screen_render


def screen_text(app: App[Any]) -> str:
    """The current screen as plain text, the way a user reads it."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(screen_render(app.screen))
    return console.export_text()


async def settle(pilot: Pilot[Any]) -> None:
    """Let workers finish and the screen catch up."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def wait_for(
    pilot: Any, condition: Callable[[], bool], seconds: float = 15.0, what: str = ""
) -> None:
    """Let the app run until `condition()` holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await pilot.pause(0.02)
    await pilot.pause()


class Notices:
    """Every notice `app` gives, as (title, message), kept after its toast times out: a test
    waits for the notice itself, not for the seconds it stays on screen (a busy machine can
    take longer than those to reach the check)."""

    def __init__(self, app: App[Any]) -> None:
        self.said: list[tuple[str, str]] = []
        shown = app.notify

        def notify(message: str, **options: Any) -> None:
            self.said.append((str(options.get("title", "")), str(message)))
            shown(message, **options)

        app.notify = notify  # type: ignore[method-assign]
