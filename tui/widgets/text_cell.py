"""A one-line text widget that repaints without a layout pass."""

from __future__ import annotations

from rich.text import Text
from textual.app import RenderResult
from textual.reactive import reactive
from textual.widget import Widget

from tui.domain.safe_text import plain


class TextCell(Widget):
    """One line of text that repaints without a layout pass (cheap to update per keystroke).

    A string is shown as plain text (it may quote what the user typed or a server's place
    name): never parsed as markup, control characters escaped.
    """

    DEFAULT_CSS = """
    TextCell {
        height: 1;
        &.-label { width: auto; margin-right: 1; color: $text-muted; }
        &.-note { padding: 0 1; color: $text-muted; }
        &.-error { color: $error; }
        &.-warning { color: $warning; }
    }
    """
    """Classes: `-label`, a field's label as wide as its text; `-note`, a line of the form's
    (muted, `-error` or `-warning` when it says one)."""

    text: reactive[str | Text] = reactive("", layout=False)

    def __init__(self, text: str = "", *, classes: str | None = None, id: str | None = None):
        super().__init__(classes=classes, id=id)
        self.set_reactive(TextCell.text, text)
        # As wide as its text when its width is auto (a label), as a Label is: measured
        # inside a row of auto width, which is not sized yet, it would count as empty.
        self.set_reactive(Widget.shrink, False)

    def update(self, text: str | Text) -> None:
        self.text = text

    def render(self) -> RenderResult:
        text = self.text
        return Text(plain(text)) if isinstance(text, str) else text
