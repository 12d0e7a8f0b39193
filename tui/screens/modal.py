"""The base of every dialog: centred over the screen it was opened from, on a surface box."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

from tui.service_call import WorkerErrorsToHost

ResultT = TypeVar("ResultT")


class FreightModal(WorkerErrorsToHost, ModalScreen[ResultT]):
    """A dialog: its one box (a Vertical or VerticalScroll) centred, on the surface colour.

    Each dialog sets its box's size and border; what all of them share is here.
    """

    DEFAULT_CSS = """
    FreightModal {
        align: center middle;
    }
    FreightModal > Vertical, FreightModal > VerticalScroll {
        background: $surface;
    }
    """
