"""Orders pasted from a spreadsheet or an e-mail: the text goes in a box, ctrl+s reads it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import TextArea

from tui.screens.modal import FreightModal
from tui.widgets.footer import FreightFooter
from tui.widgets.plain import Static


class BatchPasteScreen(FreightModal[str | None]):
    """A box to paste orders into (a header row first); returns the text, or None."""

    TITLE = "Paste orders"

    HELP: ClassVar[str | None] = """\
## Paste orders

Paste rows copied from a spreadsheet (tab-separated) or any CSV text, the header row first
(your terminal's paste: ctrl+shift+v, shift+insert, or the mouse). **ctrl+s** reads them;
**Esc** cancels.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "read", "Read", id="paste.read", tooltip="Read the pasted orders"),
        Binding("escape", "cancel", "Cancel", id="paste.cancel", tooltip="Close without reading"),
    ]

    DEFAULT_CSS = """
    BatchPasteScreen > Vertical {
        width: 78;
        max-width: 100%;
        height: 20;
        max-height: 100%;
        border: round $primary;
        border-title-color: $text;
    }
    BatchPasteScreen #paste-hint { height: 1; color: $text-muted; padding: 0 1; }
    BatchPasteScreen TextArea { height: 1fr; }
    """

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self._text = text

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Paste orders"
            yield Static(
                "Header row first; tabs, commas or semicolons between cells.", id="paste-hint"
            )
            yield TextArea(self._text, id="paste-text", soft_wrap=False, tab_behavior="indent")
            yield FreightFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_read(self) -> None:
        text = self.query_one(TextArea).text
        if not text.strip():
            self.notify("Nothing pasted yet.", timeout=3)
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
