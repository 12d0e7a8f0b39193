"""The bases of Freight's dialogs, each centred over the screen it was opened from, on a surface
box; and, from `tui.screens.freight_screen`, the full screens' base and the keys every screen
has, in Freight's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from rich.text import Text
from textual.binding import BindingType
from textual.screen import ModalScreen
from textual.widgets import Input

from tui.domain.display_paths import display_path
from tui.screens.freight_screen import SCREEN_KEYS, FreightScreen
from tui.service_call import WorkerErrorsToHost
from tui.widgets.plain import Static, show_status
from tui.workspace import OutsideWorkspace, confine

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

ResultT = TypeVar("ResultT")

__all__ = [
    "PATH_WIDTH",
    "SCREEN_KEYS",
    "FreightDialog",
    "FreightModal",
    "FreightScreen",
    "PathDialog",
]

PATH_WIDTH = 48
"""Characters a path may take in a message (the rest of an 80-column line is its words)."""


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


class FreightDialog(FreightModal[ResultT]):
    """A dialog in the house's box: never wider than the screen, as tall as its lines, one
    column of padding, a round accent border.

    Each dialog sets its box's width; one that asks before something that cannot be taken
    back (booking, cancelling) sets a thick border too.
    """

    DEFAULT_CSS = """
    FreightDialog > Vertical {
        max-width: 100%;
        height: auto;
        border: round $accent;
        padding: 0 1;
    }
    """

    def _word_typed(self, word: str, field: str, hint: str, doing: str) -> bool:
        """The ``word`` PRODUCTION asks for (BOOK, CANCEL) is typed in ``field``; if not, the
        ``hint`` line says so in red (to do what: ``doing``) and the field takes the focus."""
        typed = self.query_one(field, Input)
        if typed.value.strip().upper() == word:
            return True
        self.query_one(hint, Static).update(
            Text(f"Type {word} to {doing} in PRODUCTION.", style="bold red")
        )
        typed.focus()
        return False

    def _enter_goes_on(self, message: Input.Submitted, last: Callable[[], object]) -> None:
        """Enter in a field goes to the next field; in the last one it does ``last``."""
        message.stop()
        inputs = list(self.query(Input))
        index = inputs.index(message.input)
        if index + 1 < len(inputs):
            inputs[index + 1].focus()
        else:
            last()


class PathDialog(FreightDialog[ResultT]):
    """A dialog around one path field (where files go) and the status line under it.

    The field has the focus, its cursor at the end; the status line says what is under way,
    or what is wrong in the error colour. A file is written only inside the workspace, never
    as a folder's name, and over a file already there only after a second Enter.
    """

    PATH_FIELD: ClassVar[str]
    """The path field's selector."""
    STATUS: ClassVar[str]
    """The status line's selector (a Static or Label, plain text)."""

    def __init__(self) -> None:
        super().__init__()
        self._replace: Path | None = None
        """The existing file (or folder) the user was told of: a second Enter replaces it."""

    def on_mount(self) -> None:
        field = self.query_one(self.PATH_FIELD, Input)
        field.focus()
        field.cursor_position = len(field.value)

    def _say(self, text: str, *, error: bool = False) -> None:
        show_status(self, self.STATUS, Text(text), error=error)

    def _file_to_write(self, text: str) -> Path | None:
        """The file ``text`` names, confined, when it may be written; else None, the status
        line saying why (outside the workspace, a folder, or there already: asked once)."""
        try:  # never a dotfile; in a browser, only inside the workspace folder
            path = confine(text, writing=True)
        except OutsideWorkspace as error:
            self._say(str(error), error=True)
            return None
        if path.is_dir():
            self._say(f"{display_path(path, PATH_WIDTH)} is a folder: add a file name.", error=True)
            return None
        if path.exists() and self._replace != path:  # never overwritten without asking
            self._replace = path
            self._say(
                f"{display_path(path, PATH_WIDTH)} exists: Enter again replaces it, "
                "or change the name.",
                error=True,
            )
            return None
        return path
