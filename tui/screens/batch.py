"""Batch: a file of orders (or pasted rows) read, reviewed, rated, chosen and written back, on
the batch engine (``tui.batch``) the command line uses too."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input
from textual.worker import Worker

from tui.batch.view import (
    ReviewRow,
    review_row,
)
from tui.domain.safe_text import plain
from tui.host import Host, host_of
from tui.screens.batch_open import BatchOpening
from tui.screens.batch_runs import BatchRuns
from tui.screens.modal import FreightScreen
from tui.service_call import WorkerErrorsToHost
from tui.widgets.batch_progress import BatchProgress
from tui.widgets.batch_review import BatchFilter, BatchReviewTable
from tui.widgets.batch_stations import BatchStations
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.path_input import PathInput
from tui.widgets.plain import Label, Static
from tui.widgets.virtual_table import VirtualTable
from tui.workspace import files_dir

if TYPE_CHECKING:
    from tui.batch.engine import Batch
    from tui.batch.model import OrderState
    from tui.batch.rules import Rules
    from tui.batch.source import Sheet


_PLACEHOLDER = "path of an order file (.csv, .tsv, .xlsx); Tab completes"


def now() -> datetime:
    """The time the batch's ship dates are judged by (tests replace it)."""
    return datetime.now(UTC)


class BatchScreen(WorkerErrorsToHost, FreightScreen[None]):
    """Open an order file (or paste rows), review the mapping, rate, choose, write results."""

    TITLE = "Batch"

    AUTO_FOCUS = "#batch-path"

    HELP: ClassVar[str | None] = """\
## Batch

A day's orders at once. Type the path of an order export (**Tab** completes it; when
several names fit, Tab lists them) and **Enter**, or `v` to paste rows (or paste them into
the path field). A file whose headers are new shows its columns for review first, with how
the orders read with them (`m` opens it again; `n` there names the mapping). `r` rates every
order not rated yet (and those that failed), at the service's pace; **Esc** stops it and
keeps what is done. The table shows each order's destination, pieces, pounds, class, flags
(`HZ` hazmat, `LG` liftgate, `AP` appointment, `IN` inside, `RES` residential, `LTD` limited
access), carrier, days and total; its lower border the totals per currency; an order set
aside shows its row's reason. **Enter** on an order shows its problems and its own rates to
choose another (`r` there rates it again); on an order whose booking got no answer, Enter
searches for it: `y` says a shipment found is it, `b` books it again under a new reference.
`c` changes the rules (cheapest, fastest, within N days; carriers preferred or excluded; a
maximum total): the orders not chosen by hand are chosen again.
`/` filters, `s`/`S` sort, `e` writes the results file beside the input. `b` books the rated
orders not booked yet, each once under its own reference (PRODUCTION asks to type the count
and each currency's total first), and saves every BOL and label in one folder, named by
order; `p` prints them (the PDFs as one job, ZPL labels as another). The batch is saved as
it goes: open the same file again (even after a crash) to go on; the latest one left
unfinished (pasted rows too) is offered in the path field.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+o", "focus_field('batch-path')", "File", show=False, id="batch.open",
                tooltip="Type an order file's path"),
        Binding("v", "paste", "Paste", show=False, id="batch.paste",
                tooltip="Paste rows of orders"),
        Binding("m", "mapping", "Columns", show=False, id="batch.mapping",
                tooltip="Review the columns"),
        Binding("r", "rate(False)", "Rate", id="batch.rate",
                tooltip="Rate the orders not rated yet (and the failed ones)"),
        Binding("R", "rate(True)", "Rate all", show=False, id="batch.rerate",
                tooltip="Rate every order again (not the booked ones)"),
        Binding("c", "rules", "Rules", show=False, id="batch.rules",
                tooltip="Choose by: cheapest, fastest, within N days; prefer, exclude, max"),
        Binding("b", "book", "Book", id="batch.book",
                tooltip="Book the rated orders not booked yet"),
        Binding("p", "print", "Print", id="batch.print",
                tooltip="Print the batch's paperwork (its PDFs as one job)"),
        Binding("e", "results", "Results", id="batch.results",
                tooltip="Write the results file beside the input"),
        Binding("slash", "focus_field('batch-filter')", "Filter", id="batch.filter",
                tooltip="Filter the orders"),
        Binding("s", "sort_next", "Sort", show=False, id="batch.sort",
                tooltip="Sort by the next column"),
        Binding("S", "sort_reverse", "Reverse", show=False, id="batch.sort_reverse",
                tooltip="Reverse the sort direction"),
        Binding("escape", "escape", "Stop", show=False, id="batch.escape",
                tooltip="Stop rating (keeps what is done), or clear the filter"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    BatchScreen {
        & #batch-bar { height: 1; padding: 0 1; }
        & #batch-bar Label { width: auto; padding: 0 1 0 0; color: $text-muted; }
        & #batch-path { width: 2fr; }
        & #batch-filter { width: 1fr; margin: 0 0 0 1; }
        & #batch-info { height: 1; padding: 0 1; color: $text-muted; }
        & #batch-table {
            border: round $primary-darken-1;
            border-title-color: $text;
            border-subtitle-color: $text;
            scrollbar-size-vertical: 1;
            padding: 0;
        }
        & #batch-table:focus { border: heavy $accent; }
        & #batch-progress-row { height: 1; padding: 0 1; display: none; }
        & #batch-progress-row.-running { display: block; }
        & #batch-progress { width: 30; }
        & #batch-progress-text { width: 1fr; padding: 0 0 0 1; }
        & #batch-status { height: 1; padding: 0 1; color: $text-muted; }
        & #batch-status.-error { color: $text-error; }
    }
    """

    def __init__(self, path: str | None = None) -> None:
        super().__init__()
        self.current_batch: Batch | None = None
        self.sheet: Sheet | None = None
        self._path_text = path
        self.runs = BatchRuns(self, self)
        self.opening = BatchOpening(self, lambda: now())  # (``now`` as tests set it)
        self._status_shown: tuple[str, bool] = ("", False)
        self._info_text = ""

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield FreightHeader("Batch")
        with Horizontal(id="batch-bar"):
            yield Label("File")
            yield PathInput(id="batch-path", placeholder=_PLACEHOLDER)
            yield BatchFilter(id="batch-filter", placeholder="/ filter", compact=True)
        yield Static("", id="batch-info", markup=False)
        yield BatchReviewTable(
            empty_text="no orders yet: type an order file's path above, or v to paste rows",
            id="batch-table",
        )
        yield BatchStations(id="batch-stations")
        yield BatchProgress(id="batch-progress-row")
        yield Static("", id="batch-status", markup=False)
        yield FreightFooter()

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    @property
    def table(self) -> BatchReviewTable:
        return self.query_one("#batch-table", BatchReviewTable)

    @property
    def path_input(self) -> PathInput:
        return self.query_one("#batch-path", PathInput)

    @property
    def progress(self) -> BatchProgress:
        """The bar and line of the run going."""
        return self.query_one("#batch-progress-row", BatchProgress)

    @property
    def rating_worker(self) -> Worker[None] | None:
        """The last rating run's worker (None before the first)."""
        return self.runs.rating_worker

    @property
    def is_rating(self) -> bool:
        """True while a rating run is going."""
        return self.runs.is_rating

    @property
    def is_booking(self) -> bool:
        """True while a booking run is going."""
        return self.runs.is_booking

    def on_mount(self) -> None:
        self.table.border_title = "Orders"
        if self._path_text:
            self.open_path(self._path_text)
        else:
            self.run_worker(self.opening.offer_resume(), group="batch-resume", exit_on_error=False)

    def show_info(self, text: str) -> None:
        self._info_text = text
        self.query_one("#batch-info", Static).update(text)

    @on(PathInput.Choices, "#batch-path")
    def _choices(self, message: PathInput.Choices) -> None:
        """The names that fit the path typed, on the line under it (until the next Tab)."""
        line = self.query_one("#batch-info", Static)
        if message.names:
            shown = "  ".join(plain(name, limit=40) for name in message.names[:30])
            line.update(f"Tab again moves on · {shown}")
        else:
            line.update(self._info_text)

    @on(PathInput.RowsPasted, "#batch-path")
    def _rows_pasted(self, message: PathInput.RowsPasted) -> None:
        """Rows of orders pasted into the path field are read as orders."""
        self.open_text(message.text)

    def say(self, text: str, *, error: bool = False) -> None:
        """The line under the table (changed only when it says something else: an update
        lays the screen out again)."""
        if (text, error) == self._status_shown:
            return
        self._status_shown = (text, error)
        status = self.query_one("#batch-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    @on(Input.Submitted, "#batch-path")
    def _path_submitted(self, message: Input.Submitted) -> None:
        if message.value.strip():
            self.open_path(message.value.strip())

    def open_path(self, text: str) -> None:
        """Read the file at ``text`` (the mapping reviewed first when its headers are new)."""
        self.opening.open_path(text)

    def open_text(self, text: str) -> None:
        """Read pasted rows of orders."""
        self.opening.open_text(text)

    def show_all(self) -> None:
        batch, sheet = self.current_batch, self.sheet
        if batch is None or sheet is None:
            return
        # The rule in force beside the totals it chose (the line above cuts at 80 columns).
        self.table.rule_text = batch.rules.text
        self.table.show({o.key: review_row(o, batch.state(o.key)) for o in batch.orders})
        self.query_one("#batch-stations", BatchStations).follow(batch, self.show_state)
        name = plain(Path(sheet.source).name if sheet.kind != "text" else "pasted rows", limit=40)
        encoding = sheet.encoding.replace("-sig", " BOM")
        self.show_info(
            f"{name} · {len(sheet.rows)} rows · {sheet.delimiter_name}, {encoding}"
            + (", decimal commas" if sheet.decimal_comma else "")
            + f" · columns {plain(batch.mapping.name, limit=20)!r}"
            + (f" · {len(sheet.set_aside)} rows set aside" if sheet.set_aside else "")
        )

    def show_state(self, state: OrderState) -> None:
        """One order's new state: its row again, the borders again."""
        if self.current_batch is None:
            return
        self.table.changed(review_row(self.current_batch.order(state.key), state))

    # -- the highlighted order ------------------------------------------------------------

    @on(VirtualTable.RowHighlighted, "#batch-table")
    def _highlighted(self, message: VirtualTable.RowHighlighted) -> None:
        row = cast("ReviewRow | None", message.row)
        if row is not None and not self.is_rating:
            self.say(
                row.problem, error=row.status in ("invalid", "failed") or row.paperwork_missing
            )

    @on(VirtualTable.RowSelected, "#batch-table")
    def _selected(self, message: VirtualTable.RowSelected) -> None:
        from tui.batch.model import BOOKED_OR_MAYBE
        from tui.screens.batch_order import BatchOrderScreen

        batch = self.current_batch
        if batch is None:
            return
        key = cast("ReviewRow", message.row).key
        state = batch.state(key)
        unsettled = state.status in ("booking", "unknown") and not self.is_booking
        if unsettled and self.runs.check_unknown(batch, key):
            return

        def picked(rate_id: str | None) -> None:
            if rate_id is None or self.current_batch is None:
                return
            try:
                self.show_state(self.current_batch.pick(key, rate_id))
            except ValueError as error:
                self.notify(str(error), severity="warning", timeout=5)

        bookable = state.status not in BOOKED_OR_MAYBE
        busy = self.is_rating or self.is_booking
        rerate = None if busy else partial(self.runs.rate_one, batch, key)
        self.app.push_screen(BatchOrderScreen(batch.order(key), state, bookable, rerate), picked)

    # -- actions --------------------------------------------------------------------------

    def action_paste(self) -> None:
        from tui.screens.batch_paste import BatchPasteScreen

        def pasted(text: str | None) -> None:
            if text:
                self.open_text(text)

        self.app.push_screen(BatchPasteScreen(), pasted)

    def on_paste(self, event: events.Paste) -> None:
        """Rows pasted on the table (not in a field) are read at once."""
        if "\n" in event.text.strip() and not isinstance(self.focused, Input):
            event.stop()
            self.open_text(event.text)

    def action_mapping(self) -> None:
        if self.current_batch is None or self.sheet is None:
            self.notify("Open an order file first.", timeout=3)
            return
        if self.is_rating:
            self.notify("Rating: stop it first (Esc).", timeout=3)
            return
        path = Path(self.sheet.source) if self.sheet.kind != "text" else None
        text = None
        if path is None:
            self.notify("The columns of pasted rows: paste them again to change.", timeout=4)
            return
        self.opening.review(path, text, self.sheet, self.current_batch.mapping)

    def action_focus_field(self, widget_id: str) -> None:
        """Focus the path field or the filter at once (the keys typed next go there)."""
        self.query_one(f"#{widget_id}").focus()

    def action_rate(self, rerate: bool) -> None:
        """Rate the orders not rated yet (every order again with ``rerate``)."""
        self.runs.start_rating(self.current_batch, rerate=rerate)

    # -- booking and paperwork ------------------------------------------------------------

    def action_rules(self) -> None:
        """Change how each order's rate is chosen; every order not chosen by hand is chosen
        again by the new rules."""
        from tui.screens.batch_rules import BatchRulesScreen

        batch = self.current_batch
        if batch is None:
            self.notify("Open an order file first.", timeout=3)
            return
        if self.is_rating or self.is_booking:
            self.notify("Wait for the run to end (or stop it with Esc) first.", timeout=4)
            return

        def chosen(rules: Rules | None) -> None:
            if rules is None or self.current_batch is not batch:
                return
            before = {o.key: batch.state(o.key).chosen for o in batch.orders}
            batch.apply_rules(rules)
            changed = sum(1 for o in batch.orders if batch.state(o.key).chosen != before[o.key])
            self.show_all()
            noun = "order" if changed == 1 else "orders"
            self.say(f"Chosen again by {rules.text}: {changed} {noun} changed.")

        self.app.push_screen(BatchRulesScreen(batch.rules), chosen)

    def action_book(self) -> None:
        batch = self.current_batch
        if batch is None:
            self.notify("Open an order file first.", timeout=3)
            return
        self.runs.confirm_and_book(batch, None)

    def action_print(self) -> None:
        batch = self.current_batch
        if batch is None:
            self.notify("Open an order file first.", timeout=3)
            return
        self.runs.print(batch)

    def action_escape(self) -> None:
        if self.runs.cancel():
            return
        if self.table.words:
            filter_input = self.query_one("#batch-filter", Input)
            filter_input.value = ""
            self.table.focus()

    def action_sort_next(self) -> None:
        self.table.sort_next()

    def action_sort_reverse(self) -> None:
        self.table.sort_reverse_now()

    def action_results(self) -> None:
        batch, sheet = self.current_batch, self.sheet
        if batch is None or sheet is None:
            self.notify("Open an order file first.", timeout=3)
            return
        from tui.batch.results import suggested_results, write_results
        from tui.screens.batch_results import BatchResultsDialog

        suggested = suggested_results(sheet, files_dir(self.host.session.data_dir))

        def chosen(target: Path | None) -> None:
            if target is None or self.sheet is not sheet:
                return
            try:
                write_results(target, sheet, batch.orders, batch.states)
            except OSError as error:
                self.say(f"Not written: {target}: {error.strerror or error}", error=True)
                return
            given = self.host.file_saved(target)  # in a browser, it also goes to the browser
            self.notify(f"Results written to {plain(str(target))}. {given}".strip(), timeout=6)

        self.app.push_screen(BatchResultsDialog(suggested), chosen)

    def palette_commands(self) -> Iterable[SystemCommand]:
        """The batch's own commands in the palette."""
        yield SystemCommand("Open orders", "Type an order file's path", self.path_input.focus)
        yield SystemCommand("Paste orders", "Paste rows of orders", self.action_paste)
        yield SystemCommand(
            "Rate the batch",
            "Rate the orders not rated yet",
            partial(self.action_rate, False),
        )
        yield SystemCommand(
            "Batch rules",
            "Cheapest, fastest, within N days; prefer, exclude (c)",
            self.action_rules,
        )
        yield SystemCommand("Book the batch", "Book the rated orders", self.action_book)
        yield SystemCommand("Print the batch", "Print its paperwork", self.action_print)
        yield SystemCommand("Batch results", "Write the results file", self.action_results)

    def on_unmount(self) -> None:
        self.opening.close()
