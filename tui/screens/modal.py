"""The bases of Freight's screens: the keys every screen has, in Freight's words, and every
dialog centred over the screen it was opened from, on a surface box."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from tui.service_call import WorkerErrorsToHost

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


class FreightModal(WorkerErrorsToHost, ModalScreen[ResultT]):
    """A dialog: its one box (a Vertical or VerticalScroll) centred, on the surface colour.

    Each dialog sets its box's size and border and its ``TITLE`` (its help's title); what all
    of them share is here.
    """

    BINDINGS: ClassVar[list[BindingType]] = SCREEN_KEYS

    DEFAULT_CSS = """
    FreightModal {
        align: center middle;
    }
    FreightModal > Vertical, FreightModal > VerticalScroll {
        background: $surface;
    }
    """
