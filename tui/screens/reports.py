"""Reports: spend per carrier, lane or week and the carriers' scorecard, as bars or a table,
for a month, 30 days, a quarter or a year, read from the store off the event loop."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Final, Literal, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Sparkline
from textual.worker import get_current_worker

from tui.domain.money import HOME_CURRENCY, format_amount
from tui.domain.safe_text import plain
from tui.host import host_of
from tui.reports.engine import (
    CanceledRow,
    CarrierRow,
    SpendRow,
    canceled,
    canceled_totals,
    carriers,
    spend,
)
from tui.reports.periods import LENGTHS, Period, period
from tui.screens.modal import FreightScreen
from tui.screens.palette import binding_commands
from tui.screens.reports_audit import AuditExportDialog, AuditPanel
from tui.service_call import WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.plain import Static, show_status
from tui.widgets.report_charts import Bar, ReportChart, Score
from tui.widgets.report_tables import ReportTable, carrier_columns, spend_columns
from tui.widgets.virtual_table import VirtualTable
from tui.workspace import files_dir

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tui.reports.periods import Length

View = Literal["carrier", "lane", "week", "carriers", "audit"]
VIEWS: Final[tuple[View, ...]] = ("carrier", "lane", "week", "carriers", "audit")
STORED: Final[tuple[View, ...]] = VIEWS[:4]
"""The views read from the store alone (read ahead); the audit also asks the service."""
TITLES: Final[dict[View, str]] = {
    "carrier": "By carrier",
    "lane": "By lane",
    "week": "By week",
    "carriers": "Scorecard",
    "audit": "Audit",
}
"""The views as their line names them (the first three: spend)."""


def today() -> date:
    """The day the periods are counted from (tests replace it): the UTC day, as the periods
    are whole UTC days (at UTC+14 on New Year's morning it is still the old year's month)."""
    return datetime.now(UTC).date()


@dataclass(frozen=True)
class Wanted:
    """What the screen shows: a view of a period (the key of a read kept)."""

    view: View
    period: Period


@dataclass(frozen=True)
class Read:
    """What the store answered for one view and period (or why it could not)."""

    spend: list[SpendRow]
    carriers: list[CarrierRow]
    error: str | None = None
    canceled: tuple[CanceledRow, ...] = ()
    """The spend view's canceled shipments (left out of its spend, shown apart)."""


def shipments(count: int) -> str:
    """``1 shipment``, ``2,000 shipments``."""
    return f"{count:,} shipment" + ("" if count == 1 else "s")


def currencies(rows: list[SpendRow]) -> list[str]:
    """The currencies present, the home one first."""
    return sorted({r.currency for r in rows}, key=lambda c: (c != HOME_CURRENCY, c))


class ReportsScreen(WorkerErrorsToHost, FreightScreen[None]):
    """The month's money and carriers from the booking ledger, one key from the numbers."""

    TITLE = "Reports"

    AUTO_FOCUS = "#reports-scroll"

    HELP: ClassVar[str | None] = """\
## Reports

Spend and carriers from the bookings in the store (every station's), for a period of
whole days (UTC): `1` spend by carrier, `2` by lane, `3` by week (a line of the weekly
spend over bars per week), `4` the carriers' scorecard (share of bookings, on time, transit
days quoted → actual), `5` the audit (each shipment billed above its booked price, from the
service's listing, for the period's pickup days; `e` exports it as a CSV to dispute with;
`↑`/`↓` select a line, and `u` updates the saved item template or address book entry
where its cause may be yours, marked `*`: a reclass, or a residential, limited-access or
liftgate charge at a consignee of the address book);
`v` goes to the next view. `t` turns the chart into the table of
every figure and back. Money is shown one currency at a time, never summed across
currencies: `c` shows the next one. `←`/`[` and `→`/`]` move to the period before or after;
`p` changes its length (month, 30 days, quarter, year). `r` reads the store again.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "view('carrier')", "Carriers $", show=False, id="reports.by_carrier",
                tooltip="Spend by carrier"),
        Binding("2", "view('lane')", "Lanes $", show=False, id="reports.by_lane",
                tooltip="Spend by lane"),
        Binding("3", "view('week')", "Weeks $", show=False, id="reports.by_week",
                tooltip="Spend by week"),
        Binding("4", "view('carriers')", "Scorecard", show=False, id="reports.carriers",
                tooltip="Carriers: share, on time, transit days"),
        Binding("5", "view('audit')", "Audit", show=False, id="reports.audit",
                tooltip="Shipments billed above their booked price"),
        Binding("e", "export", "Export", show=False, id="reports.export",
                tooltip="The audit as a CSV to dispute with"),
        Binding("v", "next_view", "View", id="reports.next_view", tooltip="The next view"),
        Binding("t", "toggle_table", "Table", id="reports.table",
                tooltip="The chart's numbers as a table (and back)"),
        Binding("c", "next_currency", "Currency", id="reports.currency",
                tooltip="Show the next currency's money"),
        Binding("left,left_square_bracket", "move(1)", "Earlier", id="reports.earlier",
                key_display="←", tooltip="The period before", priority=True),
        Binding("right,right_square_bracket", "move(-1)", "Later", id="reports.later",
                key_display="→", tooltip="The period after", priority=True),
        Binding("p", "next_length", "Period", id="reports.length",
                tooltip="Month, 30 days, quarter or year"),
        Binding("r", "reload", "Reload", show=False, id="reports.reload",
                tooltip="Read the store again"),
        Binding("u", "update_data", "Update", show=False, id="reports.update",
                tooltip="Audit: update the item template or address behind the line (*)"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    ReportsScreen {
        & #reports-views { height: 1; padding: 0 1; }
        & #reports-period { height: 1; padding: 0 1; text-style: bold; }
        & #reports-canceled { height: 1; padding: 0 1; color: $text-muted; }
        & #reports-scroll { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
        & #reports-scroll:focus { background-tint: $foreground 3%; }
        & #reports-spark { height: 4; margin: 1 0 0 0; }
        & #reports-axis { height: 1; color: $text-muted; margin: 0 0 1 0; }
        & .-hidden { display: none; }
        & VirtualTable { height: 1fr; }
        & #reports-status { height: 1; padding: 0 1; color: $text-muted; }
        & #reports-status.-error { color: $text-error; }
    }
    """

    class Loaded(Message):
        """The store answered (or failed) for one view and period."""

        def __init__(self, wanted: Wanted, read: Read | None, generation: int) -> None:
            super().__init__()
            self.wanted = wanted
            self.read = read
            """None: left unread (the read ahead was cancelled)."""
            self.generation = generation

    def __init__(self) -> None:
        super().__init__()
        self.view: View = "carrier"
        self.length: Length = "month"
        self.back = 0
        """Periods before the current one (0: the one holding today)."""
        self.as_table = False
        self.currency: str | None = None
        self.reads: dict[Wanted, Read] = {}
        """Answers kept per view and period, until the screen is shown again or `r`."""
        self.pending: set[Wanted] = set()
        """Views and periods being read."""
        self.generation = 0
        """Counts `_forget`: an answer read before the last one is dropped."""

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield FreightHeader("Reports")
        yield Static("", id="reports-views")
        yield Static("", id="reports-period")
        yield Static("", id="reports-canceled", classes="-hidden", markup=False)
        with VerticalScroll(id="reports-scroll"):
            yield Sparkline([], id="reports-spark", classes="-hidden")
            yield Static("", id="reports-axis", classes="-hidden")
            yield ReportChart(id="reports-chart")
        yield ReportTable[SpendRow](
            spend_columns("Carrier"), self._spend_key, id="reports-spend", classes="-hidden"
        )
        yield ReportTable[CarrierRow](
            carrier_columns(), lambda r: r.carrier, id="reports-carriers", classes="-hidden"
        )
        yield AuditPanel(id="reports-audit", classes="-hidden")
        yield Static("", id="reports-status")
        yield FreightFooter()

    @staticmethod
    def _spend_key(row: SpendRow) -> str:
        return f"{row.key}\x1f{row.currency}"

    @property
    def wanted(self) -> Wanted:
        return Wanted(self.view, period(self.length, today(), self.back))

    @property
    def spend_table(self) -> VirtualTable[SpendRow]:
        return cast("VirtualTable[SpendRow]", self.query_one("#reports-spend", VirtualTable))

    @property
    def carriers_table(self) -> VirtualTable[CarrierRow]:
        return cast("VirtualTable[CarrierRow]", self.query_one("#reports-carriers", VirtualTable))

    def on_mount(self) -> None:
        self._show()

    def read_again(self) -> None:
        """Bookings may have been made since the figures were read: read them anew (the
        user came back to the screen)."""
        if self.reads or self.pending:
            self._forget()
            self._show()

    # -- keys -----------------------------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Every key of the screen in the command palette, named as the footer names it."""
        return binding_commands(self, self.BINDINGS, host_of(self).session.keymap)

    def action_view(self, view: View) -> None:
        self.view = view
        self._show()

    def action_next_view(self) -> None:
        self.action_view(VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)])

    def action_toggle_table(self) -> None:
        self.as_table = not self.as_table
        self._show()

    def action_next_currency(self) -> None:
        if self.view == "carriers":
            self.notify("The scorecard counts shipments: c changes the spend views' currency.")
            return
        read = self.reads.get(self.wanted)
        codes = currencies(read.spend) if read else []
        if len(codes) < 2:
            self.notify("Only one currency in this period.", timeout=3)
            return
        index = codes.index(self.currency) + 1 if self.currency in codes else 1
        self.currency = codes[index % len(codes)]
        self._show()

    def action_move(self, periods: int) -> None:
        self.back += periods
        self._show()

    def action_next_length(self) -> None:
        self.length = LENGTHS[(LENGTHS.index(self.length) + 1) % len(LENGTHS)]
        self.back = 0
        self._show()

    def action_export(self) -> None:
        """Write the audit shown as a CSV (asked where; a file there is replaced only after
        asking)."""
        report = self.query_one(AuditPanel).report if self.view == "audit" else None
        if report is None or not report.lines:
            self.notify("e exports the Audit view (5) once it lists a shipment.", timeout=3)
            return
        period = self.wanted.period
        name = f"freight-audit-{period.first}-{period.last}.csv"
        default = files_dir(host_of(self).session.data_dir) / "exports" / name

        def done(said: str | None) -> None:
            if said:
                self._status(said)
                self.notify(said, timeout=4, markup=False)

        self.app.push_screen(AuditExportDialog(report, default), done)

    def action_update_data(self) -> None:
        """Offer to set right the saved item template or address book entry behind the
        selected audit line."""
        if self.view != "audit":
            self.notify("u updates from the Audit view (5): select a line marked *.", timeout=3)
            return
        self.query_one(AuditPanel).offer_fix()

    def action_reload(self) -> None:
        self._forget()
        self._show()

    # -- reading --------------------------------------------------------------------------

    def _show(self) -> None:
        """Draw what is wanted from the answers kept, or ask the store for it."""
        wanted = self.wanted
        self._draw_bars(wanted)
        self._draw_canceled(())  # (drawn again with the view's figures)
        if wanted.view == "audit":
            self._layout("audit", spark=False)
            self._status("bills from the service's listing, for the period's pickup days")
            self.query_one(AuditPanel).show(wanted.period)
            return
        read = self.reads.get(wanted)
        if read is None:
            self._status(f"reading {wanted.period.label}…")
            if wanted not in self.pending:  # (else its answer is on the way)
                self.pending.add(wanted)
                reads = partial(self._read, [wanted], self.generation)
                self.run_worker(reads, thread=True, group="reports", exit_on_error=False)
            return
        self._draw(wanted, read)

    def _read_ahead(self, shown: Wanted) -> None:
        """Read the period's other views in the background, so switching shows them at once
        (a step to another period drops what is left of the last one's)."""
        others = [Wanted(view, shown.period) for view in STORED]
        missing = [w for w in others if w not in self.reads and w not in self.pending]
        if missing:
            self.pending.update(missing)
            reads = partial(self._read, missing, self.generation)
            self.run_worker(
                reads, thread=True, group="reports-ahead", exclusive=True, exit_on_error=False
            )

    def _read(self, wanted: list[Wanted], generation: int) -> None:
        """In a thread: each view's rows for its period, posted back one by one as `Loaded`
        (None for those left unread when the worker was cancelled)."""
        worker = get_current_worker()
        for one in wanted:
            read = None if worker.is_cancelled else self._answer(one)
            self.post_message(self.Loaded(one, read, generation))

    def _answer(self, wanted: Wanted) -> Read:
        since, until = wanted.period.since, wanted.period.until
        try:
            ledger = host_of(self).session.ledger()
            engine, environment = ledger.store.engine, ledger.environment
            view = wanted.view
            if view == "carriers" or view == "audit":  # (the audit is the panel's to read)
                return Read([], carriers(engine, since, until, environment=environment))
            rows = spend(engine, view, since, until, environment=environment)
            apart = canceled(engine, view, (since, until), environment=environment)
            return Read(rows, [], canceled=tuple(apart))
        except Exception as error:  # a store that cannot answer is said on the screen
            return Read([], [], f"the store could not answer: {error}")

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.generation != self.generation:
            return  # read before `r` or coming back: the store may have changed since
        self.pending.discard(message.wanted)
        read = message.read
        if read is not None and read.error is None:
            self.reads[message.wanted] = read
        if message.wanted != self.wanted:  # a late answer for another view is only kept
            return
        if read is None:
            self._show()  # left unread: read it now
            return
        self._draw(message.wanted, read)
        if read.error is None:
            self._read_ahead(message.wanted)

    def _forget(self) -> None:
        """Drop every answer kept (and those on the way): the next ones are read anew."""
        self.generation += 1
        self.reads.clear()
        self.pending.clear()
        self.query_one(AuditPanel).forget()

    # -- drawing --------------------------------------------------------------------------

    def _status(self, text: str, error: bool = False) -> None:
        show_status(self, "#reports-status", plain(text), error=error)

    def _draw_bars(self, wanted: Wanted) -> None:
        """The views line (the current one marked) and the period line."""
        views = Text(no_wrap=True, overflow="ellipsis")
        for number, view in enumerate(VIEWS, 1):
            label = f" {number} {TITLES[view]} "
            if view == wanted.view:
                views.append(f"[{label.strip()}]", style="bold reverse")
            else:
                views.append(label)
            views.append(" ")
        views.append("t " + ("chart" if self.as_table else "table"), style="dim")
        self.query_one("#reports-views", Static).update(views)
        self.query_one("#reports-period", Static).update(f"◂ {wanted.period.label} ▸")

    def _headline(self, wanted: Wanted, text: str) -> None:
        """The period, and what it holds."""
        line = self.query_one("#reports-period", Static)
        line.update(plain(f"◂ {wanted.period.label} ▸ · {text}"))

    def _draw(self, wanted: Wanted, read: Read) -> None:
        if read.error is not None:
            self._status(read.error, error=True)
            return
        if wanted.view == "carriers":
            self._draw_carriers(wanted, read.carriers)
        else:
            self._draw_spend(wanted, read.spend)
        self._draw_canceled(read.canceled if wanted.view != "carriers" else ())

    def _draw_canceled(self, rows: tuple[CanceledRow, ...]) -> None:
        """The canceled shipments, apart from the spend (in the currency shown): no line
        when none."""
        code = self.currency or HOME_CURRENCY
        n, total = canceled_totals(list(rows)).get(code, (0, Decimal(0)))
        line = self.query_one("#reports-canceled", Static)
        line.set_class(not n, "-hidden")
        if n:
            amount = format_amount(total, code).removesuffix(f" {code}")
            line.update(
                f"Canceled: {shipments(n)}, {code} {amount} not billed (left out of the spend)"
            )

    def _layout(self, table: str | None, spark: bool) -> None:
        """Show the chart (with the weekly line or not), or one of the tables."""
        self.query_one("#reports-scroll").set_class(table is not None, "-hidden")
        for name in ("spend", "carriers", "audit"):
            self.query_one(f"#reports-{name}").set_class(table != name, "-hidden")
        self.query_one("#reports-spark").set_class(not spark, "-hidden")
        self.query_one("#reports-axis").set_class(not spark, "-hidden")
        focus = f"#reports-{table}" if table else "#reports-scroll"
        self.query_one(focus).focus()

    def _draw_carriers(self, wanted: Wanted, rows: list[CarrierRow]) -> None:
        booked = sum(r.shipments for r in rows)
        delivered = sum(r.delivered for r in rows)
        self._headline(wanted, f"{shipments(booked)} booked, {delivered:,} delivered")
        self._status(
            "on time: delivered within the quoted days · days: quoted → actual"
            if rows
            else "no booked shipments with a recorded rate in this period"
        )
        if self.as_table:
            self._layout("carriers", spark=False)
            self.carriers_table.set_rows(rows)
            return
        self._layout(None, spark=False)
        scores = [
            Score(
                r.carrier,
                r.shipments,
                r.share,
                r.on_time,
                r.quoted_transit_days,
                r.actual_transit_days,
            )
            for r in rows
        ]
        self.query_one("#reports-chart", ReportChart).show_scores(scores)

    def _draw_spend(self, wanted: Wanted, rows: list[SpendRow]) -> None:
        codes = currencies(rows)
        if self.currency not in codes:
            self.currency = codes[0] if codes else None
        code = self.currency or HOME_CURRENCY
        shown = [r for r in rows if r.currency == code]
        if wanted.view == "week":
            by_week = {r.key: r for r in shown}
            weeks = sorted(set(wanted.period.weeks(through=today())) | set(by_week))
            shown = [
                by_week.get(w) or SpendRow(w, code, 0, Decimal(0), Decimal(0), Decimal(0))
                for w in weeks
            ]
        else:
            shown.sort(key=lambda r: (-r.total, r.key))
        total = sum((r.total for r in shown), Decimal(0))
        others = [c for c in codes if c != code]
        more = f" · c: {', '.join(others)}" if others else ""
        count = sum(r.shipments for r in shown)
        amount = format_amount(total, code).removesuffix(f" {code}")
        self._headline(wanted, f"{code} {amount} · {shipments(count)}{more}")
        if count:
            pounds = sum((r.pounds for r in shown), Decimal(0))
            saved = format_amount(sum((r.savings for r in shown), Decimal(0)), code)
            per_cwt = format_amount(total / (pounds / 100), code) if pounds else "–"
            self._status(f"{pounds:,f} lb · {per_cwt} per cwt · saved {saved} vs the next offer")
        else:
            self._status("no booked shipments with a recorded rate in this period")
        if self.as_table:
            self._layout("spend", spark=False)
            table = self.spend_table
            table.columns = spend_columns(TITLES[wanted.view].removeprefix("By ").title())
            table.set_rows(shown)
            return
        week = wanted.view == "week" and count > 0
        self._layout(None, spark=week)
        if week:
            self.query_one("#reports-spark", Sparkline).data = [float(r.total) for r in shown]
            first, last = shown[0].key, shown[-1].key
            axis = self.query_one("#reports-axis", Static)
            gap = max(1, self.size.width - 3 - len(first) - len(last))
            axis.update(first + " " * gap + last)
        bars = [Bar(r.key, r.total, r.shipments) for r in shown]
        self.query_one("#reports-chart", ReportChart).show_spend(bars, code)
