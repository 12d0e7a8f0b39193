"""The shipments list: filters, pages loaded as the cursor nears the end, scan to open."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import ClassVar, cast

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Input, Select

from tui.domain.safe_text import plain
from tui.host import host_of
from tui.listing.columns import WIDE, shipment_columns
from tui.listing.paging import Paging
from tui.listing.rows import ShipmentRow
from tui.listing.scan import find_by_code, looks_like_code
from tui.screens.modal import FreightScreen
from tui.screens.shipments_export import ExportDialog, ExportRequest
from tui.screens.shipments_pages import AutoRefresh, ShipmentPages, StatusLine
from tui.screens.shipments_scan import ScanLookup
from tui.screens.shipments_summary import ShipmentsSummaryScreen
from tui.service_call import WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.shipments_filters import ShipmentFiltersBar
from tui.widgets.virtual_table import VirtualTable
from tui.workspace import files_dir

AUTO_REFRESH_SECONDS = 30.0
"""How often the list reloads its first page while auto-refresh is on (`a`)."""


def today() -> date:
    """The local date used by the pickup shortcuts (tests replace it)."""
    return date.today()


class ShipmentsScreen(WorkerErrorsToHost, FreightScreen[None]):
    """Find shipments; Enter (or a scan) opens one."""

    TITLE = "Shipments"

    OPENS_SCANS: ClassVar[bool] = True
    """A scanner's burst + Enter opens that shipment where focus takes scans (tui.key_filter)."""

    HELP: ClassVar[str | None] = """\
## Shipments

The newest shipments first; more load as the cursor nears the end.
`/` search, `f` filters, `s`/`S` sort (column / direction), `e` export (CSV, JSON),
`t` totals by status and carrier, `r` refresh (or retry after an error), `G`/End last row,
`a` auto-refresh every 30 s (off by default; the table's lower border says when it is on).
Scanning a PRO, tracking number or BOL opens that shipment from the list, a filter's
drop-down or the empty search (a date field types what it gets); typed by hand, it goes in
the search field (typing on the list starts there) and Enter opens it.
Esc clears the search.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "slash",
            "search",
            "Search",
            id="shipments.search",
            tooltip="Jump to the search field",
            priority=True,  # before keys typed right after it are routed to the list
        ),
        Binding(
            "f", "filters", "Filters", id="shipments.filters", tooltip="Jump to the status filter"
        ),
        Binding(
            "s",
            "sort('next')",
            "Sort",
            show=False,
            id="shipments.sort",
            tooltip="Sort by the next column",
        ),
        Binding(
            "S",
            "sort('again')",
            "Reverse",
            show=False,
            id="shipments.sort_reverse",
            tooltip="Reverse the sort direction",
        ),
        Binding(
            "e", "export", "Export", id="shipments.export", tooltip="All pages: CSV, JSON, JSONL"
        ),
        Binding(
            "t",
            "summary",
            "Totals",
            show=False,
            id="shipments.summary",
            tooltip="Counts and spend, as bars",
        ),
        Binding(
            "r",
            "refresh",
            "Refresh",
            id="shipments.refresh",
            tooltip="Reload, or retry a failed page",
        ),
        Binding(
            "a",
            "auto_refresh",
            "Auto",
            show=False,  # the footer is full at 80 columns; the table's border says when it is on
            id="shipments.auto",
            tooltip="Reload the newest shipments every 30 s (toggle)",
        ),
        Binding(
            "escape",
            "escape",
            "Clear",
            show=False,
            id="shipments.clear_search",
            tooltip="Clear the search / leave the filters",
        ),
    ]

    DEFAULT_CSS = """
    ShipmentsScreen {
        & #shipments-table {
            border: round $primary-darken-1;
            border-title-color: $text;
            border-subtitle-color: $text-muted;  /* the border's colour reads below 3:1 */
            scrollbar-size-vertical: 1;
            padding: 0;
        }
        & #shipments-table:focus {  /* plain in 16 colours too */
            border: heavy $accent;
            border-subtitle-color: $accent;
        }
        & #shipments-status { height: 1; padding: 0 1; color: $text-muted; }
        & #shipments-status.-error { color: $text-error; }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.status_line = StatusLine(id="shipments-status")
        status = self.status_line.show
        self.scan = ScanLookup(self, lambda: self.table, status=status, open_row=self.open_row)
        self.pages = ShipmentPages(
            self,
            lambda: self.table,
            shown=self.show_list,
            status=status,
            open_code=lambda code: self.scan.lookup(code, searched=True),
        )
        self.paging = self.pages.paging
        self.auto = AutoRefresh(self, AUTO_REFRESH_SECONDS, self._auto_tick)
        self._pending_search: str | None = None
        self._pending_code: str | None = None
        self._columns_for: tuple[bool, bool, bool] | None = None
        """(wide, any PRO, any mode) as the columns were last chosen."""
        self._title_shown: str | None = None
        """The table's border title as last set (it quotes the search: set as Content)."""
        self._clear_search_on_return = False
        """A shipment opened from the search: coming back from it clears the search, so the
        next scan or code is not appended to the last one."""

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield FreightHeader("Shipments")
        yield ShipmentFiltersBar(today, id="filters")
        yield VirtualTable[ShipmentRow](
            shipment_columns(width=self.app.size.width),
            lambda row: row.id,
            near_end=25,
            empty_text="no shipments match",  # "searching…" is the tail text meanwhile
            id="shipments-table",
        )
        yield self.status_line
        yield FreightFooter()

    @property
    def table(self) -> VirtualTable[ShipmentRow]:
        return cast("VirtualTable[ShipmentRow]", self.query_one("#shipments-table", VirtualTable))

    @property
    def is_loading(self) -> bool:
        """True while a page is being fetched."""
        return self.paging.loading

    @property
    def filters_bar(self) -> ShipmentFiltersBar:
        return self.query_one("#filters", ShipmentFiltersBar)

    def on_mount(self) -> None:
        self.table.focus()
        self.show_list()
        if self._pending_search is not None:
            self.filters_bar.set_search(self._pending_search)
        else:
            self.pages.search()
        code, self._pending_code = self._pending_code, None
        if code is not None:
            self.scan.lookup(code)

    def on_resize(self, event: events.Resize) -> None:
        self.show_list()

    def show_list(self) -> None:
        """Fit the columns to the width and the rows, and say on the table's borders what is
        loaded, how it is sorted, and auto-refresh."""
        table = self.table
        sample = table.head(200)
        width = self.app.size.width
        shape = (width >= WIDE, any(r.pro_number for r in sample), any(r.mode for r in sample))
        if shape != self._columns_for:
            self._columns_for = shape
            table.columns = shipment_columns(width=width, rows_sample=sample)
        title = self.paging.title(table.row_count, self.pages.filters.describe())
        column = table.sort_column
        label = next((c.label for c in table.columns if c.key == column), column)
        auto = AUTO_REFRESH_SECONDS if self.auto.running else None
        subtitle = Paging.subtitle(label, table.sort_reverse, auto)
        if self._title_shown != title:  # each assignment repaints the whole table
            self._title_shown = title
            table.border_title = Content(plain(title))  # the search text is never markup
        if table.border_subtitle != subtitle:
            table.border_subtitle = subtitle

    # ---------------------------------------------------------------- loading

    def apply_search(self, text: str) -> None:
        """Show the list filtered by free text (e.g. a quote id after a booking timeout)."""
        if not self.is_mounted:
            self._pending_search = text
            return
        self.filters_bar.set_search(text)
        self.table.focus()

    def lookup_scanned(self, code: str) -> None:
        """Open the shipment a scan named: now, or once the screen is mounted."""
        if self.is_mounted:
            self.scan.lookup(code)
        else:
            self._pending_code = code

    @on(VirtualTable.NearEnd, "#shipments-table")
    def _near_end_reached(self, message: VirtualTable.NearEnd) -> None:
        self.pages.more()

    # ---------------------------------------------------------------- filters

    @on(ShipmentFiltersBar.FiltersChanged)
    def _filters_changed(self, message: ShipmentFiltersBar.FiltersChanged) -> None:
        self.pages.filters = message.filters
        self.pages.search()

    @on(ShipmentFiltersBar.SearchSubmitted)
    def _search_submitted(self, message: ShipmentFiltersBar.SearchSubmitted) -> None:
        if not looks_like_code(message.text):
            self.table.focus()
        elif self.paging.loading:
            self.pages.open_when_loaded = (
                message.text
            )  # the search for it is on its way: one request
        else:
            self.scan.lookup(message.text, searched=True)

    def open_row(self, row: ShipmentRow) -> None:
        """Show a shipment's detail (carrier and cost travel along from its listing)."""
        searched = self.query_one("#search-input", Input).value.strip()
        self._clear_search_on_return = bool(searched) and find_by_code([row], searched) is row
        host_of(self).open_shipment(row.id, row.to_shipment())

    def on_screen_resume(self) -> None:
        """Back from a shipment the search named: the search is cleared, the list focused."""
        if self._clear_search_on_return:
            self._clear_search_on_return = False
            self.filters_bar.set_search("")
            self.table.focus()

    def take_burst_text(self, text: str) -> bool:
        """Keys too fast for a person that were no scan (tui.key_filter): typed into the
        search, as a code typed by hand on the list is, never taken as the list's keys."""
        self.filters_bar.type_in_search(text)
        return True

    def burst_held(self, text: str) -> None:
        """Keys held while the reader tells a scan from typing (tui.key_filter) would type
        `text` into the empty search: its first page is asked for ahead, unseen, so typed
        fast it shows as they are let go; a scan leaves it unused."""
        if not self.query_one("#search-input", Input).value:
            self.pages.ask_ahead(text.strip())

    @on(VirtualTable.RowSelected, "#shipments-table")
    def _row_selected(self, message: VirtualTable.RowSelected) -> None:
        self.open_row(cast("ShipmentRow", message.row))

    # ---------------------------------------------------------------- actions

    def action_search(self) -> None:
        """Focus the search field; in a text field `/` is typed as itself."""
        focused = self.focused
        if isinstance(focused, Input):
            focused.insert_text_at_cursor("/")
            return
        self.filters_bar.focus_search()

    def action_escape(self) -> None:
        """Esc clears the search (from its field or the list) and goes back to the list, so
        the next key is the list's (`e` exports; it is not typed into the search)."""
        bar = self.filters_bar
        if bar.filters.text:
            bar.set_search("")
        if not self.table.has_focus:
            self.table.focus()

    def on_key(self, event: events.Key) -> None:
        """A character typed on the list starts a search with it (a code typed by hand)."""
        character = event.character
        search = self.query_one("#search-input", Input)
        if (
            self.focused not in (self.table, search)  # (focus moved by a key just before)
            or not event.is_printable
            or character is None
            or character.isspace()
            or event.key in self.active_bindings
        ):
            return
        event.stop()
        event.prevent_default()
        self.filters_bar.type_in_search(character)

    def action_filters(self) -> None:
        self.set_focus(self.query_one("#status-filter", Select))

    def action_refresh(self) -> None:
        """Retry the page that failed, or reload from the first page."""
        self.pages.retry()

    def action_auto_refresh(self) -> None:
        """Turn the timed reload of the first page on or off."""
        self.status_line.show(self.auto.toggle())
        self.show_list()

    def _auto_tick(self) -> None:
        """Reload from the first page, unless a field is being typed in or a detail is on top
        (reload when the list is seen); the pages decide the rest."""
        if self.is_current and not isinstance(self.focused, Input):
            self.pages.reload_top()

    def action_sort(self, column: str) -> None:
        """Sort the loaded rows by `column`: `next` is the column after the current one
        (`s`), `again` the current one (`S`: the same column again reverses)."""
        table = self.table
        keys, current = table.column_keys_shown, table.sort_column
        if column == "next":
            column = keys[(keys.index(current) + 1) % len(keys)] if current in keys else keys[0]
        elif column == "again":
            column = current or "created"
        table.sort_by(column)
        self.show_list()

    def action_export(self) -> None:
        """Export every page of the current filter (not only the loaded rows)."""

        default = (
            files_dir(host_of(self).session.data_dir)
            / "exports"
            / f"freight-shipments-{today()}.csv"
        )
        request = ExportRequest(
            self.pages.filters.to_query(), self.pages.filters.describe(), default
        )

        def done(report: str | None) -> None:
            if report:
                self.status_line.show(report)
                self.notify(report, timeout=4, markup=False)

        self.app.push_screen(ExportDialog(request), done)

    def action_summary(self) -> None:

        self.app.push_screen(
            ShipmentsSummaryScreen(
                self.table.rows(), self.pages.filters.describe(), self.paging.complete
            )
        )

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Shipments: search", "Jump to the search field (/)", self.action_search)
        yield SystemCommand(
            "Shipments: export", "Every shipment of the filter: CSV, JSON (e)", self.action_export
        )
        yield SystemCommand(
            "Shipments: totals", "Counts and spend as bars (t)", self.action_summary
        )
        yield SystemCommand(
            "Shipments: refresh", "Reload from the first page (r)", self.pages.search
        )
        yield SystemCommand(
            "Shipments: auto-refresh", "Toggle a reload every 30 s (a)", self.action_auto_refresh
        )
        for column in self.table.columns:
            yield SystemCommand(
                f"Shipments: sort by {column.label}",
                "Sort the loaded rows (again to reverse)",
                lambda key=column.key: self.action_sort(key),
            )
