"""The Day screen's table: a carrier's heading line, then its shipments, one line each.

It is the project's virtual table; a carrier's heading is painted across the whole line (its
name and totals would not fit the PRO column), every other line is the table's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.strip import Strip

from tui.day import Day, DayLine
from tui.day import cells as day_cells
from tui.day.manifests import number, short_flags
from tui.domain.safe_text import plain
from tui.listing.table_column import Column
from tui.widgets.virtual_table import VirtualTable

if TYPE_CHECKING:
    from tui.store.days import DayClose, DayCloses

KNOWN_WITHOUT_SERVICE = {"unsettled", "late"}
"""Flags the store alone can tell (the others need the service's record)."""


@dataclass(frozen=True)
class DayRow:
    """A line of the Day table: a carrier's heading (``line`` None) or one shipment."""

    key: str
    carrier: str
    line: DayLine | None = None
    heading: str = ""
    facts: str = "known"
    """``known``: the service's record is in; ``pending``: asked for; ``offline``: no answer."""


def closed_text(close: DayClose) -> str:
    """``closed 16:05 pack-1``: when (local time) and by which station."""
    return f"closed {close.closed_at.astimezone().strftime('%H:%M')} {close.station}"


def day_rows(day: Day, facts: str = "known", closes: DayCloses | None = None) -> list[DayRow]:
    """The day's carriers, each a heading (with its own latest close, from ``closes``) and
    its shipments."""
    rows: list[DayRow] = []
    for group in day.carriers:
        count = len(group.lines)
        heading = f"{group.carrier} · {count} shipment{'s' * (count != 1)}"
        if facts == "known":
            heading += f" · {group.pieces} pcs · {number(group.weight_lb)} lb"
        own = closes.of(group.carrier) if closes is not None else None
        if own is not None:
            heading += f" · {closed_text(own)}"
        rows.append(DayRow(f"carrier:{group.carrier}", group.carrier, heading=heading))
        for line in group.lines:
            key = f"line:{line.booking.reference}"
            rows.append(DayRow(key, group.carrier, line, facts=facts))
    return rows


def _cell(text: day_cells.CellText) -> Callable[[DayRow], str]:
    def read(row: DayRow) -> str:
        return "" if row.line is None else text(row.line)

    return read


def flags_text(row: DayRow) -> str:
    """The row's flags in words; while the service's record is missing, only what the store
    tells, and ``…`` (asked for) or ``?`` (no answer)."""
    if row.line is None:
        return ""
    words = short_flags(row.line)
    if row.facts == "known":
        return " ".join(words)
    known = [word for word in words if word in KNOWN_WITHOUT_SERVICE]
    return " ".join([*known, "…" if row.facts == "pending" else "?"])


def _flag_style(row: DayRow) -> str | None:
    return "bold" if row.line is not None and flags_text(row) and row.facts == "known" else None


def day_columns() -> list[Column[DayRow]]:
    """PRO, pieces, pounds, class, hazmat, consignee, window, pickup number and flags; at 80
    columns the window and class give way first."""
    return [
        Column("pro", "PRO", _cell(day_cells.pro), min_width=10, max_width=14, priority=100),
        Column("pieces", "Pcs", _cell(day_cells.pieces), width=4, justify="right", priority=90),
        Column(
            "weight",
            "Lb",
            _cell(day_cells.weight),
            min_width=5,
            max_width=9,
            justify="right",
            priority=85,
        ),
        Column("class", "Class", _cell(day_cells.freight_class), max_width=10, priority=20),
        Column("hazmat", "Haz", _cell(day_cells.hazmat), width=3, priority=50),
        Column(
            "consignee",
            "Consignee",
            _cell(day_cells.consignee),
            min_width=8,
            max_width=30,
            priority=70,
        ),
        Column("window", "Window", _cell(day_cells.window), width=11, priority=10),
        Column(
            "confirmation",
            "Pickup#",
            _cell(day_cells.confirmation),
            min_width=7,
            max_width=12,
            priority=80,
        ),
        Column(
            "flags",
            "Flags",
            flags_text,
            style=_flag_style,
            min_width=5,
            max_width=40,
            priority=95,
            flex=True,  # the spare width: a line's every flag, read at the end of it
        ),
    ]


class DayTable(VirtualTable[DayRow]):
    """The day's carriers and shipments: Enter opens the highlighted shipment."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Open", id="table.select", tooltip="Open the shipment"),
        Binding("end,G", "move('last')", "Last", show=False, id="table.last", key_display="G",
                tooltip="Last"),
    ]  # fmt: skip

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            day_columns(), lambda row: row.key, empty_text="no pickups on this day", id=id
        )

    def show_day(self, rows: Sequence[DayRow]) -> None:
        """Show ``rows``, the cursor kept on the same shipment when it is still there."""
        kept = self.cursor_key
        self.set_rows(rows)
        if kept is None or not self.move_cursor_to_key(kept):
            first = next((i for i, row in enumerate(rows) if row.line is not None), 0)
            self.move_cursor(first)

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_y) + y - 1
        if y == 0 or not 0 <= index < self.row_count:
            return super().render_line(y)
        row = self.row_at(index)
        if row.line is not None:
            return super().render_line(y)
        width = self.scrollable_content_region.width
        base = self.rich_style + Style(bold=True)
        cursor = index == self.cursor_row
        if cursor:
            base += self.get_component_rich_style("virtual-table--cursor")
        mark = "▸" if cursor else " "
        heading = plain(row.heading, limit=max(width - 1, 1))  # a cut station's name ends in …
        return Strip([Segment(mark + heading, base)]).adjust_cell_length(width, base)
