"""The Reports screen's Audit view: each shipment billed above its booked price, the
difference, the likely cause, totals per carrier and per cause; a CSV to dispute with.

The booked prices are the store's (read in a thread), the bills the service's listing (a page
of 100 shipments per request, for the period's pickup days), as ``freight report audit``
reads them. The CSV is written only where the user says, and a file already there is
replaced only after asking.
"""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Region
from textual.widgets import Input

from tui.atomic import write_atomically
from tui.config.settings import ItemTemplate, Location
from tui.domain.display_paths import display_path, home_relative
from tui.domain.safe_text import plain
from tui.host import host_of
from tui.reports.audit import AuditReport, audit, booked_prices, listed_bills, to_csv
from tui.reports.audit_fixes import Fix, fixes_of
from tui.screens.modal import PATH_WIDTH, PathDialog
from tui.screens.yes_no import YesNo, YesNoDialog
from tui.service_call import ServiceCall
from tui.store.engine import StoreError
from tui.widgets.plain import Label, Static, show_status

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.reports.periods import Period
    from tui.session import Session

"""Characters a path may take in a message."""


async def read_audit(
    client: FreightClient, session: Session, since: date, until: date
) -> AuditReport:
    """The audit of the pickup days ``since``..``until``: the store's prices (in a thread),
    the listing's bills (a page of 100 at a time), compared in a thread (keys stay live)."""

    def prices() -> dict[str, tuple[str, str, str, str, str, str, int]]:
        ledger = session.ledger()
        return booked_prices(ledger.store.engine, since, until, environment=ledger.environment)

    booked = await asyncio.to_thread(prices)
    bills = [bill async for bill in listed_bills(client, since, until)] if booked else []
    return await asyncio.to_thread(audit, booked, bills)  # 100,000: a quarter second of CPU


Fixes = dict[str, Fix]
"""Per shipment id: the change of the user's own data its bill suggests."""


def fixes_for(session: Session, report: AuditReport) -> Fixes:
    """Blocking: the lines whose cause may be the user's data, and the change of their saved
    item template or address book entry (the book read from the store only when a line
    points at an address; a store that cannot answer leaves those out)."""
    clued = [line for line in report.lines if line.clue is not None]
    if not clued:
        return {}
    entries = []
    if any(line.clue is not None and line.clue.kind == "accessorial" for line in clued):
        try:
            entries = session.address_book()
        except StoreError:
            entries = []
    templates = session.profile.item_templates
    return fixes_of(clued, templates, entries)


async def apply_fix(session: Session, fix: Fix) -> Fix:
    """Make the change (the fix made, given back): a template on the loop, as the quote's
    templates dialog saves one (the profile's listeners are the app's), an address book
    entry in a thread (the store)."""
    new, old = fix.new, fix.old
    if isinstance(new, ItemTemplate):
        kept = session.profile.item_templates
        session.change_profile(item_templates=[new if t == old else t for t in kept])
    elif isinstance(old, Location):
        await asyncio.to_thread(session.save_address, new, [old])
    return fix


def summary(report: AuditReport) -> str:
    """One line: how many were checked, billed above, and counted apart."""
    share = f" ({len(report.lines) / report.checked:.0%})" if report.checked else ""
    return (
        f"{report.checked:,} checked against their bill: {len(report.lines):,} billed above"
        f"{share} · {report.canceled:,} canceled, {report.not_listed:,} not listed, "
        f"{report.other_currency:,} in another currency"
    )


def audit_view(report: AuditReport, fixes: Fixes | None = None, selected: int = -1) -> Group:
    """The lines (PRO, carrier, booked, billed, difference, cause; ``*`` where the user's
    data may be the cause, the ``selected`` one marked) and the totals."""
    fixes = fixes or {}
    lines = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold", expand=False)
    for name, right in (("PRO / shipment", False), ("Carrier", False), ("Booked", True),
                        ("Billed", True), ("Diff", True), ("Cause", False)):  # fmt: skip
        lines.add_column(name, justify="right" if right else "left", no_wrap=True)
    for index, line in enumerate(report.lines):
        lines.add_row(
            Text(plain(line.pro_number or line.shipment_id, limit=12)),
            Text(plain(line.carrier, limit=14)),
            f"{line.booked:,.2f}",
            f"{line.billed:,.2f}",
            Text(f"+{line.difference:,.2f} {line.currency}", style="bold"),
            line.cause + (" *" if line.shipment_id in fixes else ""),
            style="reverse" if index == selected else None,
        )
    parts: list[Table | Text] = [lines]
    if fixes:
        parts.append(Text("* your item template or address book entry may be why: u updates it"))
    for title, totals in (("Per carrier", report.by_carrier), ("Per cause", report.by_cause)):
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
        for name, right in ((title, False), ("Ships", True), ("Difference", True)):
            table.add_column(name, justify="right" if right else "left", no_wrap=True)
        for (key, currency), (count, total) in totals.items():
            table.add_row(Text(plain(key, limit=30)), f"{count:,}", f"+{total:,.2f} {currency}")
        parts += [Text(""), table]
    if not report.lines:
        parts = [Text("No shipment of this period was billed above its booked price.")]
    return Group(*parts)


class AuditPanel(VerticalScroll):
    """The audit of one period, read once per period (until ``forget``); ↑/↓ select a line,
    ``update`` offers to set right the user's data behind it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "select(-1)", "Up", show=False, id="audit.up", tooltip="The line above"),
        Binding("down", "select(1)", "Down", show=False, id="audit.down",
                tooltip="The line below"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    AuditPanel { height: 1fr; padding: 0 1; }
    AuditPanel #audit-summary { color: $text-muted; margin: 0 0 1 0; }
    AuditPanel #audit-summary.-error { color: $text-error; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.reports: dict[Period, tuple[AuditReport, Fixes]] = {}
        self.period: Period | None = None
        """The period shown (or being read)."""
        self.selected = 0
        """The line selected (its index in the report's lines)."""
        self._call: ServiceCall[tuple[AuditReport, Fixes]] = ServiceCall(
            self, "reports-audit", activity="reading the bills…", on_answer=self._answered,
            on_error=self._failed,
        )  # fmt: skip
        self._fixing: ServiceCall[Fix] = ServiceCall(
            self, "reports-audit-fix", on_answer=self._fixed, on_error=self._not_fixed,
            handled_here=(OSError,),
        )  # fmt: skip

    def compose(self) -> ComposeResult:
        yield Static("", id="audit-summary", markup=False)
        yield Static("", id="audit-lines", markup=False)

    @property
    def report(self) -> AuditReport | None:
        """The report shown (None while it is read)."""
        read = self.reports.get(self.period) if self.period is not None else None
        return read[0] if read is not None else None

    @property
    def fixes(self) -> Fixes:
        """The changes of the user's data the report's lines suggest, by shipment id."""
        read = self.reports.get(self.period) if self.period is not None else None
        return read[1] if read is not None else {}

    def show(self, period: Period) -> None:
        """Show the audit of ``period``, reading it when not read yet."""
        if period != self.period:
            self.selected = 0
        self.period = period
        if period in self.reports:
            self._draw()
            return
        self._say("reading the bills of the period's pickup days…")
        self.query_one("#audit-lines", Static).update("")
        session = host_of(self).session
        first, last = period.first, period.last

        async def read(client: FreightClient) -> tuple[AuditReport, Fixes]:
            report = await read_audit(client, session, first, last)
            return report, await asyncio.to_thread(fixes_for, session, report)

        self._call.start(read)

    def forget(self) -> None:
        """Read the bills again when next shown."""
        self.reports.clear()

    def action_select(self, step: int) -> None:
        report = self.report
        if report is None or not report.lines:
            self.scroll_relative(y=step, animate=False)
            return
        self.selected = max(0, min(len(report.lines) - 1, self.selected + step))
        self._draw()
        lines = self.query_one("#audit-lines", Static).virtual_region
        row = Region(0, lines.y + 1 + self.selected, 1, 1)  # (below the header)
        self.scroll_to_region(row, animate=False, immediate=True)

    def offer_fix(self) -> None:
        """Ask to update the template or address book entry behind the selected line."""
        report = self.report
        line = report.lines[self.selected] if report and self.selected < len(report.lines) else None
        fix = self.fixes.get(line.shipment_id) if line is not None else None
        if line is None or fix is None:
            self.notify(
                "u updates an item template or address book entry where a line's cause may be "
                "yours (marked *).",
                timeout=4,
            )
            return
        shipment = line.pro_number or line.shipment_id
        question = f"{line.cause} of {shipment}: update the {fix.what}?"
        session = host_of(self).session

        def answered(yes: bool | None) -> None:
            if yes:
                self._fixing.start(lambda _client: apply_fix(session, fix))

        self.app.push_screen(AuditFixConfirm(question, fix.change), answered)

    def _fixed(self, made: Fix) -> None:
        for _, fixes in self.reports.values():  # set right: no longer offered
            for sid in [sid for sid, fix in fixes.items() if fix.what == made.what]:
                del fixes[sid]
        self._draw()
        self.notify(f"Updated the {made.what}: {made.change}.", timeout=4, markup=False)

    def _not_fixed(self, error: Exception, text: str) -> None:
        said = f"Not updated: {error if isinstance(error, OSError) else text}"
        self.notify(said, severity="error", timeout=6, markup=False)

    def _answered(self, read: tuple[AuditReport, Fixes]) -> None:
        if self.period is None:
            return
        self.reports[self.period] = read
        self._draw()

    def _failed(self, _error: Exception, text: str) -> None:
        self._say(f"⚠ the bills could not be read: {text} — r to retry", error=True)

    def _say(self, text: str, *, error: bool = False) -> None:
        show_status(self, "#audit-summary", Text(plain(text)), error=error)

    def _draw(self) -> None:
        report = self.report
        if report is None:
            return
        self._say(summary(report) + (" · e export CSV" if report.lines else ""))
        view = audit_view(report, self.fixes, self.selected)
        self.query_one("#audit-lines", Static).update(view)


class AuditFixConfirm(YesNoDialog):
    """Update the user's data behind an audited bill? y or Enter: yes; n or Esc: no."""

    TITLE = "Update from the audit"

    ANSWERS: ClassVar[YesNo] = YesNo(
        "audit_fix", "Update", "Make the change shown", "Leave", "Change nothing"
    )
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()

    DEFAULT_CSS = """
    AuditFixConfirm > Vertical { width: 72; border: round $accent; }
    AuditFixConfirm #audit-fix-change { text-style: bold; }
    """

    def __init__(self, question: str, change: str) -> None:
        super().__init__(self.TITLE, question)
        self.change = change

    def compose_more(self) -> ComposeResult:
        yield Static(self.change, id="audit-fix-change", markup=False)


class AuditExportDialog(PathDialog[str | None]):
    """Where to write the audit's CSV: Enter writes it (a file already there only after a
    second Enter), Esc leaves. Dismisses with a report line, or None."""

    TITLE = "Export the audit"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Cancel", id="audit_export.cancel", tooltip="Write nothing"),
    ]

    PATH_FIELD = "#audit-export-path"
    STATUS = "#audit-export-status"

    DEFAULT_CSS = """
    AuditExportDialog > Vertical { width: 76; }
    AuditExportDialog #audit-export-status { color: $text-muted; width: 1fr; height: auto; }
    AuditExportDialog #audit-export-status.-error { color: $text-error; }
    """

    def __init__(self, report: AuditReport, default: Path) -> None:
        super().__init__()
        self.report = report
        self.default = default
        self._call: ServiceCall[Path] = ServiceCall(
            self, "audit-export", on_answer=self._written, on_error=self._failed,
            handled_here=(OSError,),
        )  # fmt: skip

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Export the audit ({len(self.report.lines):,} shipments, CSV)"
            yield Label("Save to (Enter to write, Esc to cancel)")
            yield Input(home_relative(self.default), id="audit-export-path", compact=True)
            yield Static("", id="audit-export-status", markup=False)

    @on(Input.Submitted, "#audit-export-path")
    def _write(self, event: Input.Submitted) -> None:
        if self._call.in_flight:
            return
        path = self._file_to_write(event.value.strip() or str(self.default))
        if path is None:
            return
        replace = self._replace == path
        text = "\ufeff" + to_csv(self.report)  # a byte-order mark: Excel reads accents right

        def save() -> Path:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, text, overwrite=replace)
            return path

        async def write(_client: FreightClient) -> Path:
            return await asyncio.to_thread(save)

        self._call.start(write)

    def _written(self, path: Path) -> None:
        given = host_of(self).file_saved(path)
        lines = len(self.report.lines)
        self.dismiss(
            f"Wrote {lines:,} shipments to {display_path(path, PATH_WIDTH)} {given}".strip()
        )

    def _failed(self, error: Exception, message: str) -> None:
        if isinstance(error, FileExistsError):
            self._replace = None
            message = "a file appeared there meanwhile: Enter again asks to replace it"
        elif isinstance(error, OSError):
            message = f"could not write: {error.strerror or error}"
        self._say(f"{message} — nothing was written", error=True)

    def action_leave(self) -> None:
        self.dismiss(None)
