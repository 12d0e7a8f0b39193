"""The user's word that an order whose lines look hazardous is not: asked first, naming the
order and the words that looked hazardous (file text, shown as text)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content

from tui.domain.safe_text import plain
from tui.screens.modal import FreightDialog
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from tui.batch.model import HazardLook


def hazard_question(order: str, words: str, rows: str) -> str:
    """What the dialog asks about ``order``, whose ``rows`` (``row 3``, ``rows 3, 4``) look
    hazardous by ``words``."""
    return (
        f"Order {plain(order, limit=40)} looks hazardous ({plain(words, limit=80)}: {rows}) "
        "and gives no UN number.\n\n"
        "Book it as NOT hazardous? Freight keeps your word with this file's batch and asks "
        "again only if those lines change. If it is hazardous, give hazmat_un, hazard_class "
        "and packing_group in the file instead."
    )


class BatchHazardConfirm(FreightDialog[bool]):
    """y (or Enter) says the order is not hazardous; n or Esc leaves it set aside."""

    TITLE = "Not hazardous?"

    HELP: ClassVar[str | None] = """\
## Not hazardous?

The order's lines look hazardous by their words (paint, lithium, flammable, a UN number in
the description…) but the file gives no hazmat data. **y** (or **Enter**) books it as not
hazardous: the word is kept with the batch (the command line's `--not-hazardous` keeps it
too), and asked again only if those lines change. **n** or **Esc** leaves it set aside.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "yes", "Not hazardous", id="batch_hazard.yes",
                tooltip="Book it as not hazardous"),
        Binding("n,escape", "no", "Leave it", id="batch_hazard.no",
                tooltip="Leave the order set aside"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    BatchHazardConfirm > Vertical { width: 64; border: thick $warning; }
    """

    def __init__(self, order: str, looks: HazardLook) -> None:
        super().__init__()
        self.text = hazard_question(order, looks.words, looks.rows_text)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Content("Not hazardous?")
            box.border_subtitle = "y not hazardous · n leave it"
            yield Static(self.text, id="batch-hazard-text", markup=False)

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
