"""The charges of one rate, line by line, with the line that sums them to the total."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from textual.content import Content
from textual.widget import Widget

from tui.domain.money import format_amount, format_money
from tui.domain.safe_text import plain
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from tui.api.models import Charge, Rate

CHARGE_LABELS: dict[str, str] = {
    "linehaul": "Linehaul",
    "discount": "Discount",
    "fuel": "Fuel",
    "liftgate-pickup": "Liftgate pickup",
    "liftgate-delivery": "Liftgate delivery",
    "residential-pickup": "Residential pickup",
    "residential-delivery": "Residential dlv",
    "limited-access-pickup": "Limited access pu",
    "limited-access-delivery": "Limited access dlv",
    "trade-show": "Trade show",
    "appointment": "Appointment",
    "metro-delivery": "Metro delivery",
    "additional-handling": "Add'l handling",
}


def charge_label(charge: Charge) -> str:
    """A short label for a charge: the known name, else the name made readable."""
    return CHARGE_LABELS.get(charge.name, charge.name.replace("-", " ").capitalize())


def charges_sum(charges: Sequence[Charge]) -> Decimal:
    """The exact sum of the charges."""
    return sum((charge.amount for charge in charges), Decimal("0"))


MIN_LINES = 3
"""The fewest lines the panel's content is given: a charge, the folded rest, the total."""


def fit_charges(
    charges: Sequence[Charge], budget: int | None, *, differs: bool = False
) -> tuple[list[Charge], list[Charge], bool]:
    """The charges shown one a line, those folded into one `N more` line (their sum, so the
    lines still add up to the total), and whether the rule above the total fits, for
    `budget` lines (None: no limit). The total line (and the `differs` one) always fits."""
    if budget is None:
        return list(charges), [], True
    room = budget - 1 - (1 if differs else 0)  # the total, and the line that says it differs
    if len(charges) + 1 <= room:
        return list(charges), [], True
    if len(charges) <= room:
        return list(charges), [], False
    keep = max(0, room - 1)
    return list(charges[:keep]), list(charges[keep:]), False


class ChargesPanel(Static):
    """Itemised charges of the highlighted rate, summed to its total."""

    HELP = """\
## Charges

The highlighted offer's charges: linehaul, discount (negative), fuel and
accessorials. The last line is their sum, which is the offer's total.
"""

    DEFAULT_CSS: ClassVar[str] = """
    ChargesPanel {
        border: round $primary 40%;
        border-title-align: left;
        border-title-color: $text-muted;
        padding: 0 1;
        height: auto;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("No offer highlighted.", style="dim"), id=id)
        self.border_title = "Charges"
        self.rate: Rate | None = None
        self._budget: int | None = None

    def line_budget(self) -> int | None:
        """The lines the charges may take (the panel's max-height less its border), or None
        when it may grow as it likes. The total line always fits in them."""
        max_height = self.styles.max_height
        if max_height is None:
            return None
        if max_height.is_cells:
            cells = int(max_height.value)
        elif self.parent is not None and isinstance(self.parent, Widget):
            cells = int(max_height.resolve(self.parent.size, self.app.size))
        else:
            return None
        return max(MIN_LINES, cells - self.styles.gutter.height) if cells > 0 else None

    def on_resize(self) -> None:
        if self.rate is not None and self.line_budget() != self._budget:
            self.show_rate(self.rate)

    def show_rate(self, rate: Rate | None) -> None:
        """Show the charges of a rate (or a hint when there is none)."""
        self.rate = rate
        if rate is None:
            self.border_title = "Charges"
            self.update(Text("No offer highlighted.", style="dim"))
            return
        self.border_title = Content(f"Charges · {plain(rate.carrier_code)}")
        self._budget = self.line_budget()
        if not rate.is_ok:
            self.update(Text(f"Not offered: {plain(rate.message or rate.status)}", style="italic"))
            return
        self.update(self._charges_table(rate))

    def _charges_table(self, rate: Rate) -> Table:
        table = Table.grid(expand=True)
        table.add_column("charge", no_wrap=True, overflow="ellipsis", ratio=1)
        table.add_column("amount", justify="right", no_wrap=True)
        if not rate.charges:  # a server that gives only the total
            table.add_row(Text("No charges itemized", style="dim"), "")
            amount = format_amount(rate.total, rate.currency)
            table.add_row(Text("Total", style="bold"), Text(amount, style="bold"))
            return table
        total = charges_sum(rate.charges)
        shown, folded, rule = fit_charges(rate.charges, self._budget, differs=total != rate.total)
        for charge in shown:
            label = Text(plain(charge_label(charge)))
            if charge.description:
                label.append(f" {plain(charge.description)}", style="dim")
            table.add_row(label, format_money(charge.amount))
        if folded:
            more = Text(f"{len(folded)} more: ")
            more.append(plain(", ".join(charge_label(charge) for charge in folded)), style="dim")
            table.add_row(more, format_money(charges_sum(folded)))
        if rule:
            table.add_row(Rule(style="dim"), Rule(style="dim"))
        # The charges are in the rate's currency: its total says which (unless USD).
        amount = format_amount(total, rate.currency)
        table.add_row(Text("Total", style="bold"), Text(amount, style="bold"))
        if total != rate.total:
            table.add_row(
                Text("Quoted total differs", style="bold red"),
                Text(format_amount(rate.total, rate.currency), style="bold red"),
            )
        return table
