"""A barcode scanner in Pilot tests: the code's keys and Enter posted back to back."""

from __future__ import annotations

from time import monotonic
from typing import Any

from textual import events

from tui.textual_internals import key_of_character


def key_for(character: str) -> events.Key:
    """The key event a terminal's parser makes of one typed character."""
    name = character if character.isalnum() else key_of_character(character)
    return events.Key(name, character)


async def scan(pilot: Any, code: str, *, enter: bool = True) -> None:
    """Send `code` (and Enter) as fast as a scanner: all queued before the app reads one."""
    app = pilot.app
    for character in code:
        app.post_message(key_for(character))
    if enter:
        app.post_message(events.Key("enter", "\r"))
    await pilot.pause()


async def slow_scan(pilot: Any, code: str, gap: float = 0.035) -> None:
    """Send `code` and Enter as a scanner slowed by a busy machine: each key `gap` seconds
    after the last by arrival (too slow for a scan, too fast for a person)."""
    app = pilot.app
    start = monotonic()
    for index, character in enumerate(code):
        key = key_for(character)
        key.time = start + index * gap
        app.post_message(key)
    enter = events.Key("enter", "\r")
    enter.time = start + len(code) * gap
    app.post_message(enter)
    await pilot.pause()
