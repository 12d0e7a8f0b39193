"""A run's progress on the command line: one line on stderr, rewritten in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tui.batch.run import RunProgress


class ProgressLine:
    """``Rated 37 of 113 · 0:12 left`` (or ``Booked 5 of 12 …``) on stderr, rewritten in
    place, only on a terminal."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.enabled = err.isatty()
        self.shown = False

    def __call__(self, progress: RunProgress, /) -> None:
        if self.enabled:
            self.shown = True
            self.err.write("\r\x1b[K" + progress.text)
            self.err.flush()

    def done(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
