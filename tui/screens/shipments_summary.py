"""Counts by status and spend by carrier (per currency) of the loaded shipments, as bars."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

from tui.domain.money import HOME_CURRENCY, currency_of, format_amount
from tui.domain.safe_text import plain
from tui.listing.status import LIFECYCLE, status_label, status_style
from tui.screens.modal import FreightScreen
from tui.service_call import WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from tui.listing.rows import ShipmentRow

_BLOCKS = " ▏▎▍▌▋▊▉█"


@dataclass(frozen=True)
class CurrencySpend:
    """Spend in one currency: its sum, and per carrier the sum and the shipments counted."""

    currency: str
    total: Decimal
    count: int
    by_carrier: list[tuple[str, Decimal, int]]


@dataclass(frozen=True)
class Summary:
    """What the bars show: shipments per status, and spend per carrier in each currency.

    Amounts are summed only within their currency (USD first, then by code); shipments
    with no amount are counted in `unpriced`.
    """

    by_status: list[tuple[str, int]]
    spend: list[CurrencySpend]
    unpriced: int
    count: int

    def total_in(self, currency: str) -> Decimal:
        """The sum of the amounts in one currency (0 when none is in it)."""
        return next((s.total for s in self.spend if s.currency == currency), Decimal(0))


def summarize(shipments: Sequence[ShipmentRow]) -> Summary:
    """Count by status (lifecycle order) and sum exact totals by currency and carrier."""
    statuses = Counter(s.status or "unknown" for s in shipments)
    order = [*LIFECYCLE, "canceled"]
    by_status = [(name, statuses[name]) for name in order if statuses[name]]
    by_status += sorted((n, c) for n, c in statuses.items() if n not in order)
    sums: dict[str, dict[str, Decimal]] = {}
    counts: dict[str, Counter[str]] = {}
    unpriced = 0
    for shipment in shipments:
        if shipment.total is None or not shipment.total.is_finite():
            unpriced += 1
            continue
        code = plain(currency_of(shipment.currency))  # the server's words, shown as text
        name = plain(shipment.carrier_label) or "unknown"
        carriers = sums.setdefault(code, {})
        carriers[name] = carriers.get(name, Decimal(0)) + shipment.total
        counts.setdefault(code, Counter())[name] += 1
    spend = []
    for code in sorted(sums, key=lambda c: (c != HOME_CURRENCY, c)):
        by_carrier = sorted(
            ((name, amount, counts[code][name]) for name, amount in sums[code].items()),
            key=lambda item: (-item[1], item[0]),
        )
        total = sum(sums[code].values(), Decimal(0))
        spend.append(CurrencySpend(code, total, sum(counts[code].values()), by_carrier))
    return Summary(by_status, spend, unpriced, len(shipments))


def bar(value: Decimal | int, largest: Decimal | int, width: int) -> str:
    """A bar of eighth-blocks, `width` cells for the largest value (at least a sliver if > 0)."""
    if width <= 0 or largest <= 0 or value <= 0:
        return ""
    eighths = int(Decimal(value) * width * 8 / Decimal(largest))
    eighths = max(eighths, 1)
    full, part = divmod(eighths, 8)
    return "█" * full + (_BLOCKS[part] if part else "")


def render_summary(summary: Summary, width: int) -> Text:
    """The two bar charts, fitted to `width` cells."""
    text = Text()
    text.append("By status\n", style="bold")
    label_width = 13
    count_width = max((len(f"{c:,}") for _, c in summary.by_status), default=1)
    bar_width = max(4, width - label_width - count_width - 3)
    largest_count = max((c for _, c in summary.by_status), default=0)
    for name, count in summary.by_status:
        style = status_style(name) or ""
        text.append(f"{status_label(name):<{label_width}}", style=style)
        text.append(f" {count:>{count_width},} ")
        text.append(bar(count, largest_count, bar_width) + "\n", style=style)
    if not summary.spend:
        text.append("\nSpend by carrier", style="bold")
        text.append("   no amounts\n", style="dim")
    for spend in summary.spend:
        text.append(f"\nSpend by carrier · {spend.currency}", style="bold")
        text.append(f"   total {format_amount(spend.total, spend.currency)}\n", style="dim")
        _carrier_bars(text, spend, width)
    if summary.unpriced:
        many = "s" if summary.unpriced != 1 else ""
        text.append(f"\n{summary.unpriced:,} shipment{many} with no amount\n", style="dim")
    return text


def _carrier_bars(text: Text, spend: CurrencySpend, width: int) -> None:
    """One currency's carriers, their amounts (with the code unless USD) and bars."""

    def amount(value: Decimal) -> str:
        return format_amount(value, spend.currency)

    name_width = min(24, max((len(n) for n, _, _ in spend.by_carrier), default=7))
    amount_width = max((len(amount(a)) for _, a, _ in spend.by_carrier), default=4)
    bar_width = max(4, width - name_width - amount_width - 10)
    largest = max((a for _, a, _ in spend.by_carrier), default=Decimal(0))
    for name, value, count in spend.by_carrier:
        shown = name if len(name) <= name_width else name[: name_width - 1] + "…"
        text.append(f"{shown:<{name_width}} {amount(value):>{amount_width}} ({count:>3}) ")
        text.append(bar(value, largest, bar_width) + "\n", style="#5fafd7")


class ShipmentsSummaryScreen(WorkerErrorsToHost, FreightScreen[None]):
    """Bars for the shipments the list has loaded with its current filters."""

    TITLE = "Shipments summary"

    HELP: ClassVar[str | None] = """\
## Totals

Counts by status and spend by carrier over the shipments loaded in the list (with its
filters), one block per currency: amounts in two currencies are never added. Load more
in the list (`G`) to include more. `Esc` goes back.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,t", "back", "Back", id="summary.back", tooltip="Back to the list"),
    ]

    DEFAULT_CSS = """
    ShipmentsSummaryScreen {
        & #summary-body { padding: 0 1; height: 1fr; }
        & #summary-title { text-style: bold; margin: 0 0 1 0; }
    }
    """

    def __init__(self, shipments: Sequence[ShipmentRow], filters: str, complete: bool) -> None:
        super().__init__()
        self.summary = summarize(shipments)
        self._filters = filters
        self._complete = complete

    def compose(self) -> ComposeResult:
        yield FreightHeader("Totals")
        with VerticalScroll(id="summary-body"):
            scope = "all" if self._complete else "loaded so far"
            filters = f" · {self._filters}" if self._filters else ""
            yield Static(
                plain(f"{self.summary.count:,} shipments ({scope}){filters}"),
                id="summary-title",
                markup=False,  # the filters quote the search as typed
            )
            yield Static("", id="summary-bars")
        yield FreightFooter()

    def on_mount(self) -> None:
        self._draw()
        # The status colours are painted into the bars: a new theme paints them again, after
        # the app has taken its status colours.
        self.watch(self.app, "theme", self._recolour, init=False)

    def _recolour(self) -> None:
        self.call_after_refresh(self._draw)

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        width = max(20, self.size.width - 4)
        self.query_one("#summary-bars", Static).update(render_summary(self.summary, width))

    def action_back(self) -> None:
        self.app.pop_screen()
