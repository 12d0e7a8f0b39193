"""The Batch screen's review table: every order of the batch, a row each, with its filter,
its sort and its borders (the counts per status above, the totals per currency below)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from textual import events, on
from textual.content import Content
from textual.widgets import Input

from tui.batch.review_index import ReviewIndex
from tui.batch.view import ReviewRow, filter_words
from tui.domain.money import format_money
from tui.domain.safe_text import plain
from tui.listing.status import status_style
from tui.listing.table_column import Column
from tui.widgets.batch_tables import BatchOrdersTable
from tui.widgets.steady_input import SteadyInput

_STATUS_COLOUR = {
    "rated": "confirmed",
    "booked": "delivered",
    "invalid": "canceled",
    "failed": "canceled",
    "unknown": "pending",
    "no-rate": "pending",
}
"""The shipment status whose colour each batch status wears: the theme's (or the terminal's
own on 16 colours), as the shipments list has them; the word says it too."""


def _status_style(row: ReviewRow) -> str | None:

    colour = _STATUS_COLOUR.get(row.status)
    return status_style(colour) if colour else None


_SORTS = ("position", "status", "destination", "total", "days", "carrier", "weight")


def _money(row: ReviewRow) -> str:
    if row.total is None:
        return ""
    text = format_money(row.total)
    return text if row.currency == "USD" else f"{text} {row.currency}"


# Sort values read by attribute: a column's first sort reads 100,000 rows in one C-level pass.
_BY_MONEY = attrgetter("currency", "total_order")
"""Totals by currency, then amount (orders without one first: their currency is '')."""
_STATUS_TEXT = attrgetter("status_text")
"""``booked!``: booked, its paperwork missing (the line under the table says why)."""
_WHERE = attrgetter("where")
_SCAC = attrgetter("scac")


def review_columns() -> list[Column[ReviewRow]]:
    """The review table's columns; the least needed go first when the terminal is narrow
    (at 80 columns: order, status, destination, pounds, flags, carrier, service, days, total;
    the destination takes the width to spare)."""
    return [
        Column("position", "Order", lambda r: plain(r.key, limit=16),
               sort_key=attrgetter("position"), min_width=6, max_width=12),
        Column("status", "Status", _STATUS_TEXT, sort_key=_STATUS_TEXT, width=7,
               style=_status_style),
        Column("destination", "To", _WHERE, sort_key=_WHERE, min_width=8, max_width=10,
               flex=True),
        Column("pieces", "Pcs", lambda r: str(r.pieces) if r.pieces is not None else "",
               sort_key=attrgetter("pieces"), width=3, justify="right", priority=-4),
        Column("weight", "Lb", lambda r: f"{r.weight:,.0f}" if r.weight is not None else "",
               sort_key=attrgetter("weight_order"), min_width=5, max_width=7, justify="right",
               priority=-1),
        Column("classes", "Class", lambda r: r.classes, min_width=5, max_width=10,
               priority=-6),
        Column("flags", "Flags", lambda r: r.flags, min_width=5, max_width=9, priority=-2),
        Column("carrier", "SCAC", _SCAC, sort_key=_SCAC, width=4),
        Column("carrier_name", "Carrier", lambda r: r.carrier,
               min_width=8, max_width=18,
               priority=-7),
        Column("service", "Service", lambda r: r.service, min_width=7,
               max_width=8, priority=-3),
        Column("days", "Days", lambda r: str(r.days) if r.days is not None else "",
               sort_key=attrgetter("days"), width=4, justify="right", priority=-1),
        Column("total", "Total", _money, sort_key=_BY_MONEY,
               min_width=9, max_width=16, justify="right"),
        Column("pro", "PRO", lambda r: r.pro, min_width=5, max_width=14, priority=-8),
    ]  # fmt: skip


def subtitle_text(rule: str, totals: str, width: int) -> str:
    """``by cheapest within 3 days · total 69,747.72 USD``: the rule in force, then the totals
    it chose, in ``width`` cells; a rule too long for them is cut (the totals stay whole)."""
    if not rule:
        return totals
    tail = f" · {totals}" if totals else ""
    text = f"by {rule}"
    room = max(12, width - len(tail))
    if width > 0 and len(text) > room:
        text = text[: room - 1] + "…"
    return text + tail


class BatchReviewTable(BatchOrdersTable):
    """The orders of a batch as review rows: shown through the filter typed, sorted by the
    column chosen, its borders saying the counts and the totals."""

    PRIME_FROM = 5000
    """From how many orders each sortable column's order is made ahead, on a thread, once
    the review is shown (below, a first sort takes a few milliseconds)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(review_columns(), lambda row: row.key, **kwargs)
        self.index = ReviewIndex()
        """Every order's row in file order (the table's rows, filtered or not)."""
        self.words: list[str] = []
        """The filter's words (none: every order)."""
        self.rule_text = ""
        """How the batch chooses each order's rate (`cheapest within 3 days, prefer BCXP`),
        said on the lower border before the totals it chose."""
        self._sort = 0
        self._counts = ""
        self._totals = ""

    def show(self, rows: dict[str, ReviewRow]) -> None:
        """Every order's row, by key (the cursor stays on its order)."""
        self.index.replace(rows.values())
        key = self.cursor_key
        self.set_rows(self.index.rows)
        if self.words:
            self.filter_rows(self.index.mask(self.words))
        if key is not None:
            self.move_cursor_to_key(key)
        self.update_borders()
        if len(self.index) >= self.PRIME_FROM:  # (the order `s` takes them in)
            self.prime_sorts(_SORTS[self._sort + 1 :] + _SORTS[: self._sort + 1])

    def filter_by(self, words: list[str]) -> None:
        """Show only the rows that match every word."""
        self.words = words
        if len(self.index):
            self.filter_rows(self.index.mask(words))
            self.update_borders()

    def changed(self, row: ReviewRow) -> None:
        """One order's new row, the borders again: a new order is shown when it matches the
        filter; a changed one that now matches is shown (one shown stays, its new row)."""
        new = self.index.update(row)
        self.append_rows([row])  # (a new row is shown, a changed one replaced where it is)
        if self.words:
            matches = row.matches(self.words)
            if matches or new:
                self.show_row(row.key, matches)
        self.update_borders()

    def on_resize(self, _event: events.Resize) -> None:
        # (the table's own resize handler runs too: Textual calls each class's in turn)
        if len(self.index):  # the rule is cut to the width: cut it again
            self._retitle()

    def sort_next(self) -> None:
        """Sort by the next column."""
        self._sort = (self._sort + 1) % len(_SORTS)
        self.sort_by(_SORTS[self._sort], reverse=False)
        self._retitle()

    def sort_reverse_now(self) -> None:
        """Reverse the sort direction."""
        self.sort_by(_SORTS[self._sort], reverse=not self.sort_reverse)
        self._retitle()

    def update_borders(self) -> None:
        """The counts per status on the top border, the totals per currency on the bottom."""
        # Counted once per change of the rows shown, not again when only the sort changes.
        mask = self.shown_mask
        self._counts = self.index.counts_text(mask)
        if mask is not None and self.row_count != len(self.index):
            self._counts += f" (filter: {len(self.index)} in all)"
        self._totals = self.index.totals_text(mask)
        self._retitle()

    def _retitle(self) -> None:
        """The borders again from the counts and totals already made (the sort said)."""
        title = self._counts
        if self.sort_column not in (None, "position") or self.sort_reverse:
            label = next((c.label for c in self.columns if c.key == self.sort_column), "")
            title += f" · by {label or 'order'} {'▼' if self.sort_reverse else '▲'}"
        # (titles are markup unless they are Content: currencies are the server's text)
        self.border_title = Content(title)
        self.border_subtitle = Content(
            subtitle_text(self.rule_text, self._totals, self.size.width - 6)
        )


class BatchFilter(SteadyInput):
    """The review's filter: each word typed narrows the screen's review table at once; Enter
    goes back to the table."""

    def _table(self) -> BatchReviewTable:
        return self.screen.query_one(BatchReviewTable)

    @on(Input.Changed)
    def _changed(self, message: Input.Changed) -> None:
        self._table().filter_by(filter_words(message.value))

    @on(Input.Submitted)
    def _submitted(self, _message: Input.Submitted) -> None:
        self._table().focus()
