"""The rates table: every offer of a quote, sortable, filterable, the best offers marked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import DataTable

from tui.domain.modes import mode_key
from tui.domain.money import HOME_CURRENCY, currency_of, format_amount
from tui.domain.safe_text import plain
from tui.widgets import WidgetMessage
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from tui.api.models import Rate

CHEAPEST = "$"
FASTEST = "»"
NOT_OFFERED = "✗"
BOOKED = "✓"
"""This quote and rate were booked (the booking ledger says so)."""
UNSURE = "?"
"""This quote and rate were sent and how it ended is not known."""
SERVICE_WIDTH = 16
MIN_CARRIER_WIDTH = 12
MAX_CARRIER_WIDTH = 40


@dataclass(frozen=True)
class SortColumn:
    """One way to order the offers: a name for the border title and a key function."""

    name: str
    key: Callable[[Rate], Any]


UNKNOWN_DAYS = 10_000


def days_of(rate: Rate) -> int:
    """Transit days, with an unknown transit sorting after every known one."""
    return UNKNOWN_DAYS if rate.days is None else rate.days


def currency_order(rate: Rate) -> tuple[bool, str]:
    """USD first, then other currencies by code: totals compare only within one currency."""
    code = currency_of(rate.currency)
    return (code != HOME_CURRENCY, code)


def rate_amount(rate: Rate) -> str:
    """The total as the column shows it: the currency's code unless it is USD."""
    return format_amount(rate.total, rate.currency)


SORT_COLUMNS: dict[str, SortColumn] = {
    "total": SortColumn(
        "total", lambda rate: (currency_order(rate), rate.total, days_of(rate), rate.carrier)
    ),
    "days": SortColumn(
        "days", lambda rate: (days_of(rate), currency_order(rate), rate.total, rate.carrier)
    ),
    "carrier": SortColumn("carrier", lambda rate: (rate.carrier.casefold(), rate.total)),
    "scac": SortColumn("SCAC", lambda rate: (rate.carrier_code or "", rate.total)),
    "service": SortColumn(
        "service", lambda rate: ((rate.service_type or "").casefold(), rate.total)
    ),
    "mode": SortColumn(
        "mode", lambda rate: (mode_key(rate.mode), currency_order(rate), rate.total)
    ),
}


@dataclass(frozen=True)
class RatesView:
    """The offers as shown: bookable rates in order, then the ones not offered."""

    offered: list[Rate]
    not_offered: list[Rate]
    cheapest_id: str | None
    fastest_id: str | None
    cheapest_ids: frozenset[str] = frozenset()
    """The cheapest offer in each currency (one id when all are in one currency)."""


def matches(rate: Rate, needle: str) -> bool:
    """Whether the filter text appears in the carrier, SCAC or service (case-insensitive)."""
    if not needle:
        return True
    needle = needle.casefold()
    return any(
        needle in (text or "").casefold()
        for text in (rate.carrier, rate.carrier_code, rate.service_type)
    )


def best_offers(rates: Sequence[Rate]) -> tuple[str | None, str | None]:
    """Ids of the cheapest and the fastest bookable rate (ties broken by the other measure).

    The cheapest is the cheapest in the first currency (USD first): two currencies are
    never compared.
    """
    offered = [rate for rate in rates if rate.is_ok]
    if not offered:
        return None, None
    cheapest = min(offered, key=SORT_COLUMNS["total"].key)
    fastest = min(offered, key=SORT_COLUMNS["days"].key)
    return cheapest.id, fastest.id


def cheapest_by_currency(rates: Sequence[Rate]) -> dict[str, Rate]:
    """The cheapest bookable rate in each currency, USD first."""
    best: dict[str, Rate] = {}
    for rate in sorted((r for r in rates if r.is_ok), key=SORT_COLUMNS["total"].key):
        best.setdefault(currency_of(rate.currency), rate)
    return best


def arrange(rates: Sequence[Rate], sort: str, descending: bool, needle: str = "") -> RatesView:
    """Filter and order the offers; marks are computed over all offers, not just the visible."""
    column = SORT_COLUMNS[sort]
    shown = [rate for rate in rates if matches(rate, needle)]
    offered = sorted((rate for rate in shown if rate.is_ok), key=column.key, reverse=descending)
    not_offered = sorted(
        (rate for rate in shown if not rate.is_ok), key=lambda rate: rate.carrier.lower()
    )
    cheapest_id, fastest_id = best_offers(rates)
    cheapest_ids = frozenset(rate.id for rate in cheapest_by_currency(rates).values())
    return RatesView(offered, not_offered, cheapest_id, fastest_id, cheapest_ids)


def clip(text: str, width: int) -> str:
    """Cut text to a width, marking the cut with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


class RatesTable(DataTable[Any]):
    """Bookable offers of one quote, one row per rate keyed by rate id."""

    HELP = """\
## Rates

Every carrier's offer for this quote, in the chosen order; offers a carrier could
not make are listed below, under **not offered**, with the reason.

- `$` marks the **cheapest** offer (in each currency: amounts in two currencies are
  never compared), `»` the **fastest**.
- `✓` marks an offer of this quote already **booked** from Freight, `?` one whose
  booking got no answer: booking it again first searches for the earlier booking.
- Totals in another currency than USD show its code (`1,234.50 CAD`).
- Sort with **t** total, **d** days, **c** carrier, **s** SCAC, **v** service, **m** mode;
  press the same key again to reverse the order.
- **/** filters by carrier, SCAC or service as you type.
- **Enter** books the highlighted offer.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "sort('total')", "Total", id="rates.sort_total", tooltip="Sort by total"),
        Binding("d", "sort('days')", "Days", id="rates.sort_days", tooltip="Sort by transit days"),
        Binding(
            "c", "sort('carrier')", "Carrier", id="rates.sort_carrier", tooltip="Sort by carrier"
        ),
        Binding(
            "s", "sort('scac')", "SCAC", show=False, id="rates.sort_scac", tooltip="Sort by SCAC"
        ),
        Binding(
            "v",
            "sort('service')",
            "Service",
            show=False,
            id="rates.sort_service",
            tooltip="Sort by service level",
        ),
        Binding(
            "m", "sort('mode')", "Mode", show=False, id="rates.sort_mode", tooltip="Sort by mode"
        ),
    ]

    DEFAULT_CSS = """
    RatesTable {
        height: 1fr;
        width: 1fr;
        border: round $primary 60%;
        border-title-align: left;
        border-subtitle-align: right;
        border-title-color: $text-muted;  /* $primary 60% reads below 3:1 in most themes */
        border-subtitle-color: $text-muted;
        &:focus {
            border: round $primary;
            border-title-color: $primary;
            border-subtitle-color: $primary;
        }
    }
    """

    @dataclass
    class RateHighlighted(WidgetMessage["RatesTable"]):
        """The cursor moved to another rate (or to no rate)."""

        rate: Rate | None

    @dataclass
    class ViewChanged(WidgetMessage["RatesTable"]):
        """The rows changed (new rates, order or filter); `view` says what is shown."""

        view: RatesView

    @dataclass
    class BookRequested(WidgetMessage["RatesTable"]):
        """Enter was pressed on a rate."""

        rate: Rate

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id, cursor_type="row", zebra_stripes=False, cursor_foreground_priority="renderable"
        )
        self.rates: list[Rate] = []
        self.sort_column = "total"
        self.descending = False
        self.filter_text = ""
        self.status: str | None = None
        self.view = RatesView([], [], None, None)
        self._by_id: dict[str, Rate] = {}
        self._carrier_width = MIN_CARRIER_WIDTH
        self.booked: dict[str, str] = {}
        """Rate id -> `booked` or `unknown`, from the booking ledger."""

    def on_mount(self) -> None:
        self._add_columns()
        self._update_title()

    def _add_columns(self) -> None:
        self.add_column(" ", key="mark", width=3)
        self.add_column("Carrier", key="carrier")
        self.add_column("SCAC", key="scac")
        self.add_column("Service", key="service")
        self.add_column("Mode", key="mode")
        self.add_column(Text("Days", justify="right"), key="days")
        self.add_column(Text("Total", justify="right"), key="total")

    def _fit_carrier_width(self, rates: Sequence[Rate]) -> int:
        """Room left for the carrier name once the other columns have what they need."""
        others = [
            3,
            max([4, *(len(rate.carrier_code or "") for rate in rates)]),
            max([7, *(len(clip(rate.service_type or "", SERVICE_WIDTH)) for rate in rates)]),
            max([4, *(len(rate.mode or "") for rate in rates)]),
            4,
            max([5, *(len(rate_amount(rate)) for rate in rates)]),
        ]
        padding = 2 * self.cell_padding * 7
        room = self.scrollable_content_region.width - sum(others) - padding - 1
        return max(MIN_CARRIER_WIDTH, min(MAX_CARRIER_WIDTH, room))

    def on_resize(self) -> None:
        if self.rates and self._fit_carrier_width(self.view.offered) != self._carrier_width:
            self._rebuild(keep=self._current_key())

    @property
    def highlighted_rate(self) -> Rate | None:
        """The rate under the cursor, if the cursor is on a rate."""
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except Exception:
            return None
        return self._by_id.get(key or "")

    def set_rates(self, rates: Sequence[Rate]) -> None:
        """Show a new set of offers, with the cursor on the first of them."""
        self.rates = list(rates)
        self._by_id = {rate.id: rate for rate in self.rates}
        self.status = None
        self._rebuild(keep=None)

    def set_booked(self, booked: dict[str, str]) -> None:
        """Mark the rates the booking ledger knows were booked (or sent with no answer)."""
        if booked != self.booked:
            self.booked = dict(booked)
            if self.rates:
                self._rebuild(keep=self._current_key())
            self._update_title()

    def set_status(self, status: str | None) -> None:
        """Show what is happening (rating…, cancelled, an error) in the border title."""
        self.status = status
        self._update_title()

    def set_filter(self, needle: str) -> None:
        """Show only offers whose carrier, SCAC or service contains the text."""
        if needle != self.filter_text:
            self.filter_text = needle
            self._rebuild(keep=self._current_key())

    def action_sort(self, column: str) -> None:
        """Sort by a column; the same column again reverses the order."""
        if column == self.sort_column:
            self.descending = not self.descending
        else:
            self.sort_column = column
            self.descending = False
        self._rebuild(keep=self._current_key())

    def sort_description(self) -> str:
        """The order, as the border title says it."""
        arrow = "▼" if self.descending else "▲"
        return f"sorted by {SORT_COLUMNS[self.sort_column].name} {arrow}"

    def _current_key(self) -> str | None:
        rate = self.highlighted_rate
        return rate.id if rate else None

    def _rebuild(self, keep: str | None) -> None:
        self.view = arrange(self.rates, self.sort_column, self.descending, self.filter_text)
        self._carrier_width = self._fit_carrier_width(self.view.offered)
        with self.app.batch_update():
            self.clear(columns=True)
            self._add_columns()
            for rate in self.view.offered:
                self.add_row(*self._offered_cells(rate), key=rate.id)
            if keep is not None and keep in self._by_id and self._row_shown(keep):
                self.move_cursor(row=self.get_row_index(keep), animate=False)
            elif self.row_count:
                self.move_cursor(row=0, animate=False)
        self._update_title()
        self.post_message(self.ViewChanged(self, self.view))
        self.post_message(self.RateHighlighted(self, self.highlighted_rate))

    def _row_shown(self, key: str) -> bool:
        try:
            self.get_row_index(key)
        except Exception:
            return False
        return True

    def _offered_cells(self, rate: Rate) -> list[Any]:
        mark = ""
        if rate.id in self.view.cheapest_ids or rate.id == self.view.cheapest_id:
            mark += CHEAPEST
        if rate.id == self.view.fastest_id:
            mark += FASTEST
        booked = self.booked.get(rate.id)
        if booked is not None:
            mark += BOOKED if booked == "booked" else UNSURE
        return [
            Text(mark, style="bold"),
            # Server text as Text: a str cell would be parsed as markup.
            Text(clip(plain(rate.carrier), self._carrier_width)),
            Text(plain(rate.carrier_code)),
            Text(clip(plain(rate.service_type), SERVICE_WIDTH)),
            Text(plain(rate.mode)),
            Text("?" if rate.days is None else str(rate.days), justify="right"),
            Text(rate_amount(rate), justify="right"),
        ]

    def _update_title(self) -> None:
        marks = set(self.booked.values())
        legend = []
        if "booked" in marks:
            legend.append(f"{BOOKED} booked")
        if marks - {"booked"}:
            legend.append(f"{UNSURE} outcome unknown")
        self.border_subtitle = " · ".join(legend)
        if self.status is not None:
            self.border_title = Content(plain(self.status))
            return
        offered = len(self.view.offered)
        total_offered = sum(1 for rate in self.rates if rate.is_ok)
        count = (
            f"{offered} offers"
            if offered == total_offered
            else f"{offered} of {total_offered} offers"
        )
        if self.filter_text:
            count += f" matching “{plain(self.filter_text)}”"
        self.border_title = Content(f"{count} · {self.sort_description()}")  # typed: not markup

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(self.RateHighlighted(self, self._by_id.get(event.row_key.value or "")))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        rate = self._by_id.get(event.row_key.value or "")
        if rate is not None:
            self.post_message(self.BookRequested(self, rate))


def not_offered_table(rates: Sequence[Rate]) -> Table:
    """`✗ SCAC  reason` rows (reasons wrap under themselves); a head shared by two or more
    reasons is one row of its own above their carriers."""

    table = Table.grid(padding=(0, 1), expand=True)
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    reasons = [(rate, plain(rate.message or rate.status or "")) for rate in rates]
    heads: dict[str, int] = {}
    for _rate, reason in reasons:
        head, colon, _rest = reason.partition(": ")
        if colon:
            heads[head] = heads.get(head, 0) + 1
    shown_heads: set[str] = set()
    for rate, reason in reasons:
        head, colon, rest = reason.partition(": ")
        code = Text(f"{NOT_OFFERED} {plain(rate.carrier_code) or '?'}", style="bold")
        if colon and heads.get(head, 0) > 1 and rest.strip():
            if head not in shown_heads:
                shown_heads.add(head)
                table.add_row(Text(NOT_OFFERED, style="bold"), Text(head + ":", style="bold"))
            code = Text(f"  {plain(rate.carrier_code) or '?'}", style="bold")
            reason = rest
        table.add_row(code, Text(reason))
    return table


class NotOfferedList(VerticalScroll):
    """Carriers that made no offer, each with its whole reason, under a "not offered" rule;
    Tab reaches it and the arrows scroll it when the reasons do not all fit."""

    DEFAULT_CSS = """
    NotOfferedList {
        display: none;
        height: 1fr;
        min-height: 3;
        scrollbar-size-vertical: 1;
        border-top: solid $primary 40%;
        border-title-align: left;
        border-title-color: $text-muted;
        padding: 0 1;
        color: $text-muted;
        &:focus { border-top: solid $primary; }
    }
    NotOfferedList.-shown {
        display: block;
    }
    NotOfferedList > Static {
        height: auto;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Static(""), id=id)
        self.border_title = "not offered"
        self.rates: list[Rate] = []
        self.can_focus = False

    def show_rates(self, rates: Sequence[Rate]) -> None:
        """List these rates with their whole reasons, wrapped (hidden when there are none).

        A reason several carriers share before its first colon (`No direct service between
        IL and GA: …`) is said once above them; each carrier keeps the rest of its own."""
        self.rates = list(rates)
        self.set_class(bool(self.rates), "-shown")
        self.can_focus = bool(self.rates)
        self.query_one(Static).update(not_offered_table(self.rates))
        self._title()
        self.call_after_refresh(self._title)

    def _title(self) -> None:
        """`not offered · 4`, and how to read the rest when they do not all fit."""
        hint = " · tab, ↑↓ to read all" if self.max_scroll_y > 0 else ""
        self.border_title = f"not offered · {len(self.rates)}{hint}"

    def on_resize(self) -> None:
        self._title()
