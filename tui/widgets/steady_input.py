"""An input whose width is set by the screen's CSS, never by its text."""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class SteadyInput(Input):
    """An `Input` whose width is the screen's CSS (`1fr`, a fixed width), never its text's:
    a key repaints the field and lays nothing else out. (Textual's `Input` sets its virtual
    size, its text's width, at every key, and that lays the whole screen out: at 100,000
    rows behind a filter or a search, about half a key's work.)"""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
