"""A one-line field for a file's path that completes it as the shell does: folders and order
files are suggested as you type, Tab (or →) takes the suggestion; when several names fit, Tab
says which. Several lines pasted into it are rows of orders, not a path."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.suggester import Suggester
from textual.widgets import Input

from tui.batch.view import complete_path, path_choices
from tui.widgets import WidgetMessage
from tui.workspace import inside, workspace


class PathSuggester(Suggester):
    """Suggests the path completed as far as the folder's entries agree."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value, workspace()) if inside(value) else None


class PathInput(Input):
    """An order file's path; Tab completes it (when there is nothing to complete, Tab moves on
    as anywhere else)."""

    HELP: ClassVar[str | None] = """\
## Order file

The path of an order export: CSV, TSV or an Excel workbook (`.xlsx`). `~` is your home.
As you type, the rest of a folder or file name is suggested: **Tab** or **→** takes it; when
several names fit, Tab lists them (a second Tab moves on). **Enter** reads the file. Rows of
orders pasted here (several lines) are read as orders.
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

    @dataclass
    class Choices(WidgetMessage["PathInput"]):
        """Tab found several names that fit: ``names`` (empty: the list is to go)."""

        names: list[str]

    @dataclass
    class RowsPasted(WidgetMessage["PathInput"]):
        """Several lines were pasted into the field: rows of orders."""

        text: str

    def __init__(self, *, id: str | None = None, placeholder: str = "") -> None:
        super().__init__(placeholder=placeholder, suggester=PathSuggester(), compact=True, id=id)
        self._listed: tuple[str, list[str]] | None = None
        """The text and the names the last Tab listed (a Tab on the same moves on)."""

    def action_complete(self) -> None:
        before = self.value
        if self.cursor_at_end:
            self.action_cursor_right()  # takes the suggestion, when there is one
        if self.value != before:
            self._list([])
            return
        names = (
            path_choices(self.value, workspace())
            if self.value and self.cursor_at_end and inside(self.value)
            else []
        )
        if len(names) > 1 and self._listed != (self.value, names):
            self._list(names)
            return
        self._list([])
        self.screen.focus_next()

    def _list(self, names: list[str]) -> None:
        if names or self._listed is not None:
            self._listed = (self.value, names) if names else None
            self.post_message(self.Choices(self, names))

    def on_paste(self, event: events.Paste) -> None:
        if "\n" in event.text.strip("\r\n") or "\r" in event.text.strip("\r\n"):
            event.prevent_default()  # not Input's paste of the first line
            event.stop()
            self.post_message(self.RowsPasted(self, event.text))
