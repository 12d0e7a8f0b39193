"""Ask where to save the loaded shipments as CSV, and save them there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label

from tui.screens.modal import FreightModal


class ExportDialog(FreightModal[str | None]):
    """A path field; Enter writes the file, Escape cancels. Dismisses with a report line."""

    HELP: ClassVar[str | None] = """\
## Export to CSV

Edit the path and press **Enter** to write the loaded (filtered) shipments, one row each.
**Escape** cancels.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="export.cancel", tooltip="Close without saving"),
    ]

    DEFAULT_CSS = """
    ExportDialog {
        & > Vertical {
            width: 76;
            max-width: 100%;
            height: auto;
            border: round $accent;
            padding: 0 1;
        }
        & #export-error { color: $text-error; }
    }
    """

    def __init__(self, default_path: Path, count: int, write: Callable[[Path], int]) -> None:
        super().__init__()
        self._default_path = default_path
        self._count = count
        self._write = write

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Export {self._count:,} shipments to CSV"
            yield Label("Save to (Enter to write, Esc to cancel)")
            yield Input(str(self._default_path), id="export-path", compact=True)
            yield Label("", id="export-error")

    def on_mount(self) -> None:
        field = self.query_one("#export-path", Input)
        field.focus()
        field.cursor_position = len(field.value)

    @on(Input.Submitted, "#export-path")
    def _save(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        error = self.query_one("#export-error", Label)
        if not text:
            error.update("Type a file path.")
            return
        path = Path(text).expanduser()
        if path.is_dir():
            error.update(f"{path} is a folder: add a file name.")
            return
        try:
            written = self._write(path)
        except OSError as failure:
            error.update(f"Could not write {path}: {failure.strerror or failure}")
            return
        self.dismiss(f"Wrote {written:,} shipments to {path}")

    def action_cancel(self) -> None:
        self.dismiss(None)
