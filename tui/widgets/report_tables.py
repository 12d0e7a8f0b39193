"""The Reports screen's numbers: spend rows and carrier scorecards as table columns."""

from __future__ import annotations

from decimal import Decimal
from typing import ClassVar, TypeVar

from tui.domain.money import format_money
from tui.listing.table_column import Column
from tui.reports.engine import CarrierRow, SpendRow
from tui.widgets.report_charts import days, percent
from tui.widgets.virtual_table import VirtualTable

RowT = TypeVar("RowT")


class ReportTable(VirtualTable[RowT]):
    """The project's table, read-only: a report's row opens nothing."""

    HELP: ClassVar[str | None] = """\
## Table

Every figure of the chart. Arrows move the cursor, **PgUp/PgDn** a page, **Home**/`g` the
first row, **End**/`G` the last; `t` goes back to the chart.
"""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select":
            return False
        return super().check_action(action, parameters)


def _money(value: Decimal | None) -> str:
    return "" if value is None else format_money(value)


def _count(value: int) -> str:
    return f"{value:,}"


def spend_columns(name: str) -> list[Column[SpendRow]]:
    """Carrier, lane or week; shipments, pounds, total, cost per cwt and savings (one currency
    at a time: the screen says which)."""
    return [
        Column("key", name, lambda r: r.key, max_width=40, priority=9, flex=True),
        Column("shipments", "Ships", lambda r: _count(r.shipments), lambda r: r.shipments,
               justify="right", priority=5),
        Column("pounds", "Pounds", lambda r: f"{r.pounds:,f}", lambda r: r.pounds,
               justify="right", priority=2),
        Column("total", "Total", lambda r: _money(r.total), lambda r: r.total,
               justify="right", priority=8),
        Column("per_cwt", "Per cwt", lambda r: _money(r.cost_per_cwt),
               lambda r: r.cost_per_cwt or Decimal(0), justify="right", priority=6),
        Column("savings", "Saved", lambda r: _money(r.savings), lambda r: r.savings,
               justify="right", priority=4),
    ]  # fmt: skip


def carrier_columns() -> list[Column[CarrierRow]]:
    """Per carrier: shipments, share, transit days quoted and actual, delivered, on time."""
    return [
        Column("carrier", "Carrier", lambda r: r.carrier, max_width=40, priority=9, flex=True),
        Column("shipments", "Ships", lambda r: _count(r.shipments), lambda r: r.shipments,
               justify="right", priority=8),
        Column("share", "Share", lambda r: percent(r.share), lambda r: r.share,
               justify="right", priority=7),
        Column("quoted", "Days quoted", lambda r: days(r.quoted_transit_days),
               lambda r: r.quoted_transit_days or Decimal(0), justify="right", priority=6),
        Column("actual", "Days actual", lambda r: days(r.actual_transit_days),
               lambda r: r.actual_transit_days or Decimal(0), justify="right", priority=6),
        Column("delivered", "Delivered", lambda r: _count(r.delivered), lambda r: r.delivered,
               justify="right", priority=3),
        Column("on_time", "On time", lambda r: percent(r.on_time),
               lambda r: r.on_time or Decimal(-1), justify="right", priority=7),
    ]  # fmt: skip
