"""Export every shipment of the list's filter (all pages) as CSV, JSON or JSON Lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, Select

from tui.domain.display_paths import display_path, home_relative
from tui.export import export_shipments
from tui.host import host_of
from tui.listing.booked import joined_with
from tui.screens.modal import PATH_WIDTH, PathDialog
from tui.service_call import ServiceCall
from tui.widgets.plain import Label

if TYPE_CHECKING:
    from textual.timer import Timer

    from tui.api.client import FreightClient
    from tui.api.models import ShipmentQuery
    from tui.export import ExportFormat, ExportResult

CHOICES: tuple[tuple[str, str], ...] = (
    ("CSV for Excel (with BOM)", "csv"),
    ("CSV without BOM", "csv-plain"),
    ("JSON", "json"),
    ("JSON Lines", "jsonl"),
)
"""The format menu: label and choice."""
SUFFIXES = {"csv": ".csv", "csv-plain": ".csv", "json": ".json", "jsonl": ".jsonl"}
PROGRESS_EVERY = 0.2
"""Seconds between two updates of the count on screen (not one per shipment)."""


@dataclass(frozen=True)
class ExportRequest:
    """What to export: the list's filter, its words for the title, and a default path."""

    query: ShipmentQuery
    description: str
    default_path: Path


class ExportDialog(PathDialog[str | None]):
    """Format and path; Enter writes every page of the filter with a running count, Esc stops
    (the file is then not written at all). Dismisses with a report line, or None."""

    TITLE = "Export"

    HELP: ClassVar[str | None] = """\
## Export shipments

Every shipment of the list's current filter is written, page after page, not only the rows
loaded on screen, newest first. Pick the format (CSV for Excel has a byte-order mark so
accents read right; formula-like cells start with `'`), edit the path, and press **Enter**.
The count runs in this box and in the header. **Escape** closes, or stops an export under
way: a stopped export writes nothing, and a file already at the path is left as it was.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "cancel",
            "Cancel",
            id="export.cancel",
            tooltip="Close, or stop the export (nothing is written)",
        ),
    ]

    PATH_FIELD = "#export-path"
    STATUS = "#export-status"

    DEFAULT_CSS = """
    ExportDialog {
        & > Vertical { width: 76; }
        & Horizontal { height: auto; }
        & #export-format { width: 1fr; }
        & #export-status { color: $text-muted; }
        & #export-status.-error { color: $text-error; }
    }
    """

    def __init__(self, request: ExportRequest) -> None:
        super().__init__()
        self._request = request
        self._path: Path | None = None
        self._count = 0
        self._shown = -1
        self._ticker: Timer | None = None
        self._call: ServiceCall[ExportResult] = ServiceCall(
            self,
            "shipments-export",
            activity="exporting shipments…",
            on_answer=self._finished,
            on_error=self._failed,
            handled_here=(OSError,),
        )

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            which = self._request.description or "all shipments"
            box.border_title = Content(f"Export {which}")  # the search typed: never markup
            with Horizontal():
                yield Label("Format ")
                yield Select(
                    CHOICES, value="csv", allow_blank=False, id="export-format", compact=True
                )
            yield Label("Save to (Enter to write every page, Esc to cancel)")
            yield Input(home_relative(self._request.default_path), id="export-path", compact=True)
            yield Label("", id="export-status", markup=False)  # server words

    @property
    def running(self) -> bool:
        """True while an export is being written."""
        return self._call.in_flight

    @on(Select.Changed, "#export-format")
    def _format_changed(self, event: Select.Changed) -> None:
        field = self.query_one("#export-path", Input)
        path = Path(field.value)
        if path.suffix in SUFFIXES.values():
            field.value = str(path.with_suffix(SUFFIXES[str(event.value)]))

    @on(Input.Submitted, "#export-path")
    def _start(self, event: Input.Submitted) -> None:
        if self.running:
            return
        text = event.value.strip()
        if not text:
            self._say("Type a file path.", error=True)
            return
        path = self._file_to_write(text)
        if path is None:
            return
        choice = str(self.query_one("#export-format", Select).value)
        fmt: ExportFormat = "csv" if choice == "csv-plain" else choice  # type: ignore[assignment]
        self._path, self._count = path, 0
        query = self._request.query
        self.query_one("#export-path", Input).disabled = True
        self.query_one("#export-format", Select).disabled = True
        self._say("Exporting… (Esc stops)")
        session = host_of(self).session

        async def export(client: FreightClient) -> ExportResult:
            # Each shipment with what the store knows of it: the batch's order number and
            # Freight's booking reference, as ``freight shipments`` writes them.
            return await export_shipments(
                joined_with(session.booked_shipments, client.iter_shipments(query)),
                path,
                fmt,
                bom=choice == "csv",
                progress=self._progress,
            )

        self._call.start(export)
        self._ticker = self.set_interval(PROGRESS_EVERY, self._show_progress)

    def _progress(self, count: int) -> None:
        self._count = count

    def _show_progress(self) -> None:
        count = self._count
        if count != self._shown and self.running:
            self._shown = count
            self._say(f"Exporting… {count:,} shipments (Esc stops)")
            host_of(self).set_activity("shipments-export", f"exporting… {count:,} shipments")

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def _finished(self, result: ExportResult) -> None:
        self._stop_ticker()
        given = "" if result.stopped else host_of(self).file_saved(result.path)
        wrote = f"Wrote {result.count:,} shipments to {display_path(result.path, PATH_WIDTH)}"
        self.dismiss(f"{wrote} {given}".strip())

    def _failed(self, error: Exception, message: str) -> None:
        self._stop_ticker()
        if isinstance(error, OSError):
            where = display_path(self._path or "", PATH_WIDTH)
            message = f"Could not write {where}: {error.strerror or error}"
        self._say(f"{message} — nothing was written", error=True)
        self.query_one("#export-path", Input).disabled = False
        self.query_one("#export-format", Select).disabled = False
        self.query_one("#export-path", Input).focus()

    def action_cancel(self) -> None:
        self._stop_ticker()
        if self.running:
            self._call.cancel()
            self.dismiss(
                f"Export stopped after {self._count:,} shipments: "
                f"{display_path(self._path or '', PATH_WIDTH)} was not written"
            )
        else:
            self.dismiss(None)
