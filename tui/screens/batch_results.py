"""Where the batch's results go: the Batch screen asks, offering a place the user can write
(beside the input when they can, else the workspace's files folder), never Freight's own
package folder or a read-only one."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input

from tui.batch.results import results_refusal
from tui.domain.display_paths import home_relative
from tui.screens.modal import FreightDialog
from tui.widgets.plain import Label, Static
from tui.workspace import OutsideWorkspace, confine


class BatchResultsDialog(FreightDialog["Path | None"]):
    """The results file's path: Enter writes there, Escape writes nothing."""

    TITLE = "Batch results"

    HELP: ClassVar[str | None] = """\
## Batch results

The input's rows with each order's outcome (carrier, total, PRO, BOL…), as a CSV or, for a
workbook, an `.xlsx`. Type where it goes and press **Enter**; **Escape** closes, nothing
written. Freight's own folder and folders you cannot write in are refused.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="batch_results.cancel", tooltip="Nothing written"),
    ]

    DEFAULT_CSS = """
    BatchResultsDialog {
        & > Vertical { width: 76; }
        & #batch-results-status { color: $text-error; }
    }
    """

    def __init__(self, suggested: Path) -> None:
        super().__init__()
        self._suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Content("Batch results")
            yield Label("Write the results to (Enter writes, Esc cancels):")
            yield Input(home_relative(self._suggested), id="batch-results-path", compact=True)
            yield Static("", id="batch-results-status")

    def on_mount(self) -> None:
        field = self.query_one("#batch-results-path", Input)
        field.focus()
        field.cursor_position = len(field.value)

    @on(Input.Submitted, "#batch-results-path")
    def _submitted(self, event: Input.Submitted) -> None:

        status = self.query_one("#batch-results-status", Static)
        text = event.value.strip()
        if not text:
            status.update("Type where the results go.")
            return
        try:
            path = confine(text, writing=True)
        except OutsideWorkspace as error:
            status.update(str(error))
            return
        if path == self._suggested:
            path.parent.mkdir(parents=True, exist_ok=True)  # the workspace's folder, first use
        refusal = results_refusal(path)
        if refusal is not None:
            status.update(refusal)
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
