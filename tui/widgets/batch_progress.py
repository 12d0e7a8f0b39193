"""A batch run's progress on the Batch screen: a bar and a line, shown while a run goes (the
command line's ``ProgressLine`` is the other ``ProgressShown``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.widgets import ProgressBar

from tui.widgets.plain import Static

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from tui.batch.run import RunProgress


class BatchProgress(Horizontal):
    """The bar and line of a rating or booking run; the last progress is kept for the word
    at the run's end."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.last: RunProgress | None = None

    def compose(self) -> ComposeResult:
        yield ProgressBar(id="batch-progress", show_eta=False, show_percentage=True)
        yield Static("", id="batch-progress-text", markup=False)

    def start(self, total: int) -> None:
        """A run of ``total`` orders begins: the row shows, the bar at 0."""
        self.last = None
        self.query_one(ProgressBar).update(total=total, progress=0)
        self.add_class("-running")

    def __call__(self, progress: RunProgress, /) -> None:
        self.last = progress
        self.query_one(ProgressBar).update(total=progress.total, progress=progress.done)
        self.query_one("#batch-progress-text", Static).update(progress.text)

    def stop(self) -> None:
        """The run ended: the row goes."""
        self.remove_class("-running")

    @property
    def done(self) -> int:
        """How many orders the run had done when last told (0 before)."""
        return self.last.done if self.last is not None else 0

    def last_text(self, otherwise: str) -> str:
        """The last progress's words (``otherwise`` before any)."""
        return self.last.text if self.last is not None else otherwise
