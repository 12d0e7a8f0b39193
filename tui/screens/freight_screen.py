"""The base of Freight's full screens and the screen keys every screen has, in Freight's
words. Apart from the dialogs' bases (`tui.screens.modal`), so the first frame's screen loads
without them and what they bring (the workspace, zip files, path fields)."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

ResultT = TypeVar("ResultT")

SCREEN_KEYS: list[BindingType] = [
    Binding("tab", "app.focus_next", "Next", tooltip="Next field", show=False),
    Binding("shift+tab", "app.focus_previous", "Previous", tooltip="Previous field", show=False),
    Binding(
        "ctrl+c,super+c", "screen.copy_text", "Copy", tooltip="Copy the selected text", show=False
    ),
]
"""Textual's own screen keys (same keys, same actions) described in Freight's words: Textual's
("Focus Next") would show in the help and the keys panel."""


class FreightScreen(Screen[ResultT]):
    """A full screen of Freight's: the screen keys in Freight's words. Each screen sets
    ``TITLE``, the name its help and the palette give it."""

    BINDINGS: ClassVar[list[BindingType]] = SCREEN_KEYS
