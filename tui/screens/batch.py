"""Batch: a file of orders (or pasted rows) read, reviewed, rated, chosen and written back, on
the batch engine (``tui.batch``) the command line uses too."""

from __future__ import annotations

import asyncio
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

from tui.batch.engine import said_not_hazardous
from tui.batch.model import BOOKED_OR_MAYBE
from tui.batch.results import suggested_results, write_results
from tui.batch.view import (
    ReviewRow,
    review_row,
)
from tui.domain.safe_text import plain
from tui.host import host_of
from tui.screens.batch_hazard import BatchHazardConfirm
from tui.screens.batch_open import BatchOpening
from tui.screens.batch_order import BatchOrderScreen, prepare_order_view
from tui.screens.batch_paste import BatchPasteScreen
from tui.screens.batch_results import BatchResultsDialog
from tui.screens.batch_rules import BatchRulesScreen
from tui.screens.batch_runs import BatchRuns
from tui.screens.modal import FreightScreen
from tui.service_call import WorkerErrorsToHost
from tui.widgets.batch_lines import BatchInfo, BatchStatus
from tui.widgets.batch_progress import BatchProgress
from tui.widgets.batch_review import BatchFilter, BatchReviewTable
from tui.widgets.batch_stations import BatchStations
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.path_input import PathInput
from tui.widgets.plain import Label
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
maximum total): the orders not chosen by hand are chosen again. An order set aside because
its lines look hazardous (paint, lithium…) with no UN number says so in its row; if it is
not, `h` on it says so (after asking, naming the order and the words): the word is kept
with the batch, as `--not-hazardous` keeps it, and asked again only if those lines change.
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
        Binding("h", "not_hazardous", "Not hazardous", show=False, id="batch.not_hazardous",
                tooltip="Say the order set aside as looking hazardous is not (asks first)"),
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
        self.path_input = PathInput(id="batch-path", placeholder=_PLACEHOLDER)
        self.info = BatchInfo(id="batch-info")
        self.table = BatchReviewTable(
            empty_text="no orders yet: type an order file's path above, or v to paste rows",
            id="batch-table",
        )
        self.progress = BatchProgress(id="batch-progress-row")
        """The bar and line of the run going."""
        self.status = BatchStatus(id="batch-status")
        self.runs = BatchRuns(self, self.progress, self.status, self.show_state)
        self.opening = BatchOpening(
            self,
            lambda: now(),  # (``now`` as tests set it)
            self.path_input,
            self.info,
            self.status,
            self._opened,
        )

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield FreightHeader("Batch")
        with Horizontal(id="batch-bar"):
            yield Label("File")
            yield self.path_input
            yield BatchFilter(id="batch-filter", placeholder="/ filter", compact=True)
        yield self.info
        yield self.table
        yield BatchStations(id="batch-stations")
        yield self.progress
        yield self.status
        yield FreightFooter()

    def on_mount(self) -> None:
        self.table.border_title = "Orders"
        if self._path_text:
            self.open_path(self._path_text)
        else:
            self.run_worker(self.opening.offer_resume(), group="batch-resume", exit_on_error=False)

    @on(PathInput.Choices, "#batch-path")
    def _choices(self, message: PathInput.Choices) -> None:
        """The names that fit the path typed, on the line under it (until the next Tab)."""
        self.info.show_choices(message.names)

    @on(PathInput.RowsPasted, "#batch-path")
    def _rows_pasted(self, message: PathInput.RowsPasted) -> None:
        """Rows of orders pasted into the path field are read as orders."""
        self.opening.open_text(message.text)

    @on(Input.Submitted, "#batch-path")
    def _path_submitted(self, message: Input.Submitted) -> None:
        if message.value.strip():
            self.open_path(message.value.strip())

    def open_path(self, text: str) -> None:
        """Read the file at ``text`` (the mapping reviewed first when its headers are new)."""
        self.opening.open_path(text)

    def _opened(self, batch: Batch, sheet: Sheet) -> None:
        """A batch opened: shown, the table focused."""
        self.current_batch, self.sheet = batch, sheet
        self.show_all()
        self.table.focus()
        # Once the review is painted: the order screen's CSS parsed now, not at the first Enter.
        self.call_after_refresh(prepare_order_view, self.app)

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
        self.info.show_info(
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
        if row is not None and not self.runs.is_rating:
            self.status.say(
                row.problem, error=row.status in ("invalid", "failed") or row.paperwork_missing
            )

    @on(VirtualTable.RowSelected, "#batch-table")
    def _selected(self, message: VirtualTable.RowSelected) -> None:
        batch = self.current_batch
        if batch is None:
            return
        key = cast("ReviewRow", message.row).key
        state = batch.state(key)
        if state.status in ("booking", "unknown") and not self.runs.is_booking:
            self.runs.check_unknown(batch, key, partial(self._open_order, batch, key))
        else:
            self._open_order(batch, key)

    def _open_order(self, batch: Batch, key: str) -> None:
        """The order's rates and details, to pick a rate by hand (or rate it again)."""
        state = batch.state(key)

        async def pick(rate_id: str) -> None:
            try:  # (the batch saves the choice: a store call, never on the loop)
                after = await asyncio.to_thread(batch.pick, key, rate_id)
            except ValueError as error:
                self.notify(str(error), severity="warning", timeout=5)
                return
            self.show_state(after)

        def picked(rate_id: str | None) -> None:
            if rate_id is not None and self.current_batch is batch:
                self.run_worker(pick(rate_id), group="batch-pick", exit_on_error=False)

        bookable = state.status not in BOOKED_OR_MAYBE
        busy = self.runs.is_rating or self.runs.is_booking
        rerate = None if busy else partial(self.runs.rate_one, batch, key)
        self.app.push_screen(BatchOrderScreen(batch.order(key), state, bookable, rerate), picked)

    # -- actions --------------------------------------------------------------------------

    def action_paste(self) -> None:

        def pasted(text: str | None) -> None:
            if text:
                self.opening.open_text(text)

        self.app.push_screen(BatchPasteScreen(), pasted)

    def on_paste(self, event: events.Paste) -> None:
        """Rows pasted on the table (not in a field) are read at once."""
        if "\n" in event.text.strip() and not isinstance(self.focused, Input):
            event.stop()
            self.opening.open_text(event.text)

    def action_mapping(self) -> None:
        if self.current_batch is None or self.sheet is None:
            self.notify("Open an order file first.", timeout=3)
            return
        if self.runs.is_rating:
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

    def action_not_hazardous(self) -> None:
        """The highlighted order, set aside because its lines look hazardous, is not: asked
        first (naming the order and the words), then kept with the batch and read again."""

        batch, sheet = self.current_batch, self.sheet
        if batch is None or sheet is None:
            self.notify("Open an order file first.", timeout=3)
            return
        if self.runs.is_rating or self.runs.is_booking:
            self.notify("Wait for the run to end (or stop it with Esc) first.", timeout=4)
            return
        row = self.table.cursor_value
        order = batch.order(row.key) if row is not None else None
        looks = order.looks_hazardous if order is not None else None
        if order is None or looks is None:
            self.status.say("Nothing looks hazardous in this order: h is for one that does.")
            return
        key = order.key
        if said_not_hazardous(batch.info.settings).get(key) == looks.lines:
            self.status.say(f"Order {plain(key)} is read as not hazardous already, as you said.")
            return

        async def say() -> None:
            kept = partial(batch.say_not_hazardous, [key])
            again = await self.opening.read_again(batch.info.source, sheet, batch.mapping, kept)
            if again is None:
                return
            self.table.move_cursor_to_key(key)
            state = again.state(key)
            then = "r rates it" if state.status == "pending" else state.error_text
            self.status.say(f"Order {plain(key)}: not hazardous, as you said. {plain(then)}")

        def answered(yes: bool | None) -> None:
            if yes and self.current_batch is batch:
                self.run_worker(say(), group="batch-read", exclusive=True, exit_on_error=False)

        self.app.push_screen(BatchHazardConfirm(key, looks), answered)

    # -- booking and paperwork ------------------------------------------------------------

    def action_rules(self) -> None:
        """Change how each order's rate is chosen; every order not chosen by hand is chosen
        again by the new rules."""

        batch = self.current_batch
        if batch is None:
            self.notify("Open an order file first.", timeout=3)
            return
        if self.runs.is_rating or self.runs.is_booking:
            self.notify("Wait for the run to end (or stop it with Esc) first.", timeout=4)
            return

        def choose_again(rules: Rules) -> int:
            """Apply the rules (saved in the store, so on a thread): how many orders changed."""
            before = {o.key: batch.state(o.key).chosen for o in batch.orders}
            batch.apply_rules(rules)
            return sum(1 for o in batch.orders if batch.state(o.key).chosen != before[o.key])

        async def apply(rules: Rules) -> None:
            changed = await asyncio.to_thread(choose_again, rules)
            self.show_all()
            noun = "order" if changed == 1 else "orders"
            self.status.say(f"Chosen again by {rules.text}: {changed} {noun} changed.")

        def chosen(rules: Rules | None) -> None:
            if rules is not None and self.current_batch is batch:
                self.run_worker(apply(rules), group="batch-rules", exit_on_error=False)

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

        host = host_of(self)
        suggested = suggested_results(sheet, files_dir(host.session.data_dir))

        def chosen(target: Path | None) -> None:
            if target is None or self.sheet is not sheet:
                return
            try:
                write_results(target, sheet, batch.orders, batch.states)
            except OSError as error:
                self.status.say(f"Not written: {target}: {error.strerror or error}", error=True)
                return
            given = host.file_saved(target)  # in a browser, it also goes to the browser
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
        yield SystemCommand(
            "Not hazardous", "The order that looks hazardous is not (h)", self.action_not_hazardous
        )
        yield SystemCommand("Book the batch", "Book the rated orders", self.action_book)
        yield SystemCommand("Print the batch", "Print its paperwork", self.action_print)
        yield SystemCommand("Batch results", "Write the results file", self.action_results)

    def on_unmount(self) -> None:
        self.opening.close()
