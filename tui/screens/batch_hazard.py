"""The user's word that an order whose lines look hazardous is not: asked first, naming the
order and the words that looked hazardous (file text, shown as text)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import BindingType

from tui.domain.safe_text import plain
from tui.screens.yes_no import YesNo, YesNoDialog

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


class BatchHazardConfirm(YesNoDialog):
    """y (or Enter) says the order is not hazardous; n or Esc leaves it set aside."""

    TITLE = "Not hazardous?"

    HELP: ClassVar[str | None] = """\
## Not hazardous?

The order's lines look hazardous by their words (paint, lithium, flammable, a UN number in
the description…) but the file gives no hazmat data. **y** (or **Enter**) books it as not
hazardous: the word is kept with the batch (the command line's `--not-hazardous` keeps it
too), and asked again only if those lines change. **n** or **Esc** leaves it set aside.
"""

    ANSWERS: ClassVar[YesNo] = YesNo(
        "batch_hazard", "Not hazardous", "Book it as not hazardous",
        "Leave it", "Leave the order set aside",
    )  # fmt: skip
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()

    DEFAULT_CSS = """
    BatchHazardConfirm > Vertical { border: thick $warning; }
    """

    def __init__(self, order: str, looks: HazardLook) -> None:
        question = hazard_question(order, looks.words, looks.rows_text)
        super().__init__(self.TITLE, question, text_id="batch-hazard-text")
