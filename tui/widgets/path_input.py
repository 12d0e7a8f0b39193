"""A one-line field for a file's path that completes it as the shell does: folders and order
files are suggested as you type, Tab (or →) takes the suggestion."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.suggester import Suggester
from textual.widgets import Input

from tui.batch.view import complete_path


class PathSuggester(Suggester):
    """Suggests the path completed as far as the folder's entries agree."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value)


class PathInput(Input):
    """An order file's path; Tab completes it (when there is nothing to complete, Tab moves on
    as anywhere else)."""

    HELP: ClassVar[str | None] = """\
## Order file

The path of an order export: CSV, TSV or an Excel workbook (`.xlsx`). `~` is your home.
As you type, the rest of a folder or file name is suggested: **Tab** or **→** takes it.
**Enter** reads the file.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "tab",
            "complete",
            "Complete",
            show=False,
            id="path.complete",
            tooltip="Take the suggested path",
        ),
    ]

    def __init__(self, *, id: str | None = None, placeholder: str = "") -> None:
        super().__init__(placeholder=placeholder, suggester=PathSuggester(), compact=True, id=id)

    def action_complete(self) -> None:
        before = self.value
        if self.cursor_at_end:
            self.action_cursor_right()  # takes the suggestion, when there is one
        if self.value == before:
            self.screen.focus_next()
