"""The Batch screen's two lines of words: the one above the table (what is open, or what is
offered, or the names a Tab fits) and the status line under it."""

from __future__ import annotations

from collections.abc import Sequence

from tui.domain.safe_text import plain
from tui.widgets.plain import Static


class BatchInfo(Static):
    """What is open (or offered); the names that fit the path typed, until the next Tab."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.text = ""

    def show_info(self, text: str) -> None:
        """The line's own words (shown again after the names a Tab fits)."""
        self.text = text
        self.update(text)

    def show_choices(self, names: Sequence[str]) -> None:
        """The names that fit the path typed (none: the line's own words again)."""
        if names:
            shown = "  ".join(plain(name, limit=40) for name in names[:30])
            self.update(f"Tab again moves on · {shown}")
        else:
            self.update(self.text)


class BatchStatus(Static):
    """The line under the table: the last word of a run, an order's problem, an error."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.shown: tuple[str, bool] = ("", False)

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` (changed only when it says something else: an update lays the screen
        out again)."""
        if (text, error) == self.shown:
            return
        self.shown = (text, error)
        self.update(text)
        self.set_class(error, "-error")
