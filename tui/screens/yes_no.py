"""One yes/no question in a dialog: a title and the question, both plain text (never markup:
they often carry a PRO, a file's words or a name), y (or Enter) for yes and n (or Esc) for no.

Each asker subclasses `YesNoDialog` with its own `TITLE` (its help's title), its own words
for the two answers (`YesNo`: the keys panel's names, the tooltips, the ids a keymap uses)
and, where it needs them, lines under the question (`compose_more`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content

from tui.screens.modal import FreightDialog
from tui.widgets.plain import Static


@dataclass(frozen=True)
class YesNo:
    """The two answers' words: ``yes`` and ``no`` name the keys (in the keys panel, the help
    and the box's foot), the tips say what each does; ``name`` prefixes the binding ids
    (``name.yes``, ``name.no``)."""

    name: str
    yes: str
    yes_tip: str
    no: str
    no_tip: str

    def bindings(self) -> list[BindingType]:
        """y or Enter answers yes; n or Esc answers no."""
        return [
            Binding("y,enter", "yes", self.yes, id=f"{self.name}.yes", tooltip=self.yes_tip),
            Binding("n,escape", "no", self.no, id=f"{self.name}.no", tooltip=self.no_tip),
        ]

    @property
    def hint(self) -> str:
        """The box's foot: the keys and what they answer."""
        return f"y {self.yes.lower()} · n {self.no.lower()}"


class YesNoDialog(FreightDialog[bool]):
    """A question answered True (y, Enter) or False (n, Esc): the title on the box, the
    question in it, the keys at its foot. A subclass sets ``ANSWERS`` and
    ``BINDINGS = ANSWERS.bindings()``."""

    ANSWERS: ClassVar[YesNo] = YesNo("yes_no", "Yes", "Go on", "No", "Leave it")
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()

    DEFAULT_CSS = """
    YesNoDialog > Vertical { width: 64; border: thick $accent; }
    """

    def __init__(self, title: str, text: str, *, text_id: str | None = None) -> None:
        """``title`` and ``text`` are shown as they are; ``text_id`` is the question's id."""
        super().__init__()
        self.heading, self.question, self._text_id = title, text, text_id

    def compose(self) -> ComposeResult:
        box = Vertical()
        box.border_title, box.border_subtitle = Content(self.heading), Content(self.ANSWERS.hint)
        with box:
            yield Static(self.question, id=self._text_id, markup=False)
            yield from self.compose_more()

    def compose_more(self) -> ComposeResult:
        """The lines under the question (none here)."""
        yield from ()

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
