"""A run's progress on the command line: one line on stderr, rewritten in place."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final, TextIO

if TYPE_CHECKING:
    from tui.batch.run import RunProgress


LONG_WAIT: Final = 5.0
"""Seconds of a 429's pause from which a log (no terminal) is told of it too."""


class ProgressLine:
    """``Rated 37 of 113 · 0:12 left`` (or ``Booked 5 of 12 …``) on stderr, rewritten in
    place, only on a terminal; without one, a long pause a 429 asked for is said in a line
    (``freight: waiting until 10:31:05 …``), so a cron log shows why nothing moves."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.enabled = err.isatty()
        self.shown = False
        self._said: datetime | None = None

    def __call__(self, progress: RunProgress, /) -> None:
        if self.enabled:
            self.shown = True
            self.err.write("\r\x1b[K" + progress.text)
            self.err.flush()
            return
        end = progress.waiting
        if end is None or end == self._said:
            return
        if (end - datetime.now(UTC)).total_seconds() >= LONG_WAIT:
            from tui.batch.pace import waiting_text

            self._said = end
            print(f"freight: {waiting_text(end).removeprefix(' · ')}", file=self.err)

    def done(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
