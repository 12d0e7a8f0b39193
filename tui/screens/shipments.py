"""The shipments list: filters, pages loaded as the cursor nears the end, scan to open."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING, ClassVar, cast

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Select, Static

from tui.domain.safe_text import plain, plain_lines
from tui.host import Host, host_of
from tui.listing.columns import WIDE, shipment_columns
from tui.listing.paging import PageAnswer, Paging
from tui.listing.rows import ShipmentRow
from tui.listing.scan import looks_like_code
from tui.screens.shipments_scan import ScanLookup
from tui.service_call import ServiceCall, WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.shipments_filters import ShipmentFilters, ShipmentFiltersBar
from tui.widgets.virtual_table import VirtualTable

if TYPE_CHECKING:
    from tui.api.client import FreightClient

AUTO_REFRESH_SECONDS = 30.0
"""How often the list reloads its first page while auto-refresh is on (`a`)."""


def today() -> date:
    """The local date used by the pickup shortcuts (tests replace it)."""
    return date.today()


class ShipmentsScreen(WorkerErrorsToHost, ScanLookup, Screen[None]):
    """Find shipments; Enter (or a scan) opens one."""

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
            "sort_next",
            "Sort",
            show=False,
            id="shipments.sort",
            tooltip="Sort by the next column",
        ),
        Binding(
            "S",
            "sort_reverse",
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
            scrollbar-size-vertical: 1;
            padding: 0;
        }
        & #shipments-table:focus { border: heavy $accent; }  /* plain in 16 colours too */
        & #shipments-status { height: 1; padding: 0 1; color: $text-muted; }
        & #shipments-status.-error { color: $text-error; }
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self._filters = ShipmentFilters()
        self.paging = Paging()
        self._asked: str | None = None
        """The continuation token of the page asked for last (None: the first page)."""
        self._pages: ServiceCall[PageAnswer] = ServiceCall(
            self, "shipments-page", on_answer=self._page_loaded, on_error=self._page_failed
        )
        self._pending_search: str | None = None
        self._first_in_flight = False
        """The request in flight is a first page (a search, not the next page of one)."""
        self._search_waiting = False
        """Filters changed while a first page was in flight: ask when it is answered."""
        self._open_when_loaded: str | None = None
        """A code submitted in the search field while its search was loading."""
        self._wide: bool | None = None
        self._title_shown: str | None = None
        """The table's border title as last set (it quotes the search: set as Content)."""
        self._has_pro = False
        self._has_mode = False
        self._auto: Timer | None = None
        self._first_rows = 0
        """Rows of the first page: auto-refresh leaves a cursor further down alone."""

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
        yield Static("", id="shipments-status", markup=False)  # quotes server errors
        yield FreightFooter()

    @property
    def table(self) -> VirtualTable[ShipmentRow]:
        return cast("VirtualTable[ShipmentRow]", self.query_one("#shipments-table", VirtualTable))

    @property
    def is_loading(self) -> bool:
        """True while a page is being fetched."""
        return self.paging.loading

    @property
    def is_complete(self) -> bool:
        """True once the last page of the current filters has arrived."""
        return self.paging.complete

    @property
    def filters_bar(self) -> ShipmentFiltersBar:
        return self.query_one("#filters", ShipmentFiltersBar)

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    def on_mount(self) -> None:
        self.table.focus()
        self._set_columns()
        if self._pending_search is not None:
            self.filters_bar.set_search(self._pending_search)
        else:
            self._start_search()
        code = self.take_pending_code()
        if code is not None:
            self.lookup(code)

    def on_resize(self, event: events.Resize) -> None:
        self._set_columns()

    def _set_columns(self) -> None:
        wide = self.app.size.width >= WIDE
        sample = self.table.head(200)
        has_pro = any(row.pro_number for row in sample)
        has_mode = any(row.mode for row in sample)
        if (wide, has_pro, has_mode) == (self._wide, self._has_pro, self._has_mode):
            return
        self._wide, self._has_pro, self._has_mode = wide, has_pro, has_mode
        self.table.columns = shipment_columns(width=self.app.size.width, rows_sample=sample)

    # ---------------------------------------------------------------- loading

    def apply_search(self, text: str) -> None:
        """Show the list filtered by free text (e.g. a quote id after a booking timeout)."""
        if not self.is_mounted:
            self._pending_search = text
            return
        self.filters_bar.set_search(text)
        self.table.focus()

    def _start_search(self) -> None:
        """Ask for the first page of the current filters, at once when no search is in
        flight; else as soon as it is answered (its answer, for older filters, is dropped).

        So typing asks with no fixed wait, keeps at most one search in flight and one waiting
        (for the latest filters), and never shows the rows of text typed before."""
        self.paging.restart()  # answers for older filters are dropped from now on
        if self._pages.in_flight and self._first_in_flight:
            self._search_waiting = True
            self.table.tail_text = "searching…"
            return
        self._request(None, first=True)

    def _ask_waiting_search(self) -> bool:
        """Send the search that waited for the one in flight; True if there was one."""
        if not self._search_waiting:
            return False
        self._search_waiting = False
        self._request(None, first=True)
        return True

    def _request(self, token: str | None, *, first: bool) -> None:
        self._first_in_flight = first
        self.paging.requested()
        self.table.tail_text = "searching…" if first else "loading more…"
        if first or self.paging.failed_token is not None:
            self._update_title()  # (the title already says "more…" while paging on)
        generation, query = self.paging.generation, self._filters.to_query()
        self._asked = token

        async def page(client: FreightClient) -> PageAnswer:
            found = await client.search_shipments(query, continuation_token=token)
            rows = [ShipmentRow.of(shipment) for shipment in found.shipments]
            return PageAnswer(generation, rows, found.continuation_token, first)

        # (next pages say so on the table's last line; the first one in the header too)
        self._pages.start(page, activity="searching shipments…" if first else None)

    def _page_loaded(self, message: PageAnswer) -> None:
        self._first_in_flight = False
        if self._ask_waiting_search() or not self.paging.current(message.generation):
            return  # an answer for filters the user has since changed
        table = self.table
        self.paging.loaded(message.continuation_token)
        if message.first:
            self._first_rows = len(message.rows)
            keep = table.cursor_key
            table.set_rows(message.rows)
            if keep is not None:
                table.move_cursor_to_key(keep)
        else:
            table.append_rows(message.rows)
        self._set_columns()
        table.tail_text = None
        self.show_status("")
        self._update_title()
        code, self._open_when_loaded = self._open_when_loaded, None
        if code is not None:
            self.lookup(code)  # found among the rows just loaded, else asked for by itself
        if self.paging.can_load_more and self._near_end():
            self._request(self.paging.token, first=False)

    def _page_failed(self, _error: Exception, text: str) -> None:
        self._first_in_flight = False
        if self._ask_waiting_search():
            return  # the failed search was for filters the user has since changed
        self.paging.failed_at(self._asked)
        self._open_when_loaded = None
        self.table.tail_text = f"⚠ {text} — press r to retry"
        self.show_status(f"⚠ {text} — r retries; loaded rows are kept", error=True)
        self._update_title()

    def _near_end(self) -> bool:
        table = self.table
        return table.row_count - table.cursor_row <= max(table.near_end, table.size.height)

    @on(VirtualTable.NearEnd, "#shipments-table")
    def _near_end_reached(self, message: VirtualTable.NearEnd) -> None:
        if self.paging.can_load_more:
            self._request(self.paging.token, first=False)

    def _update_title(self) -> None:
        table = self.table
        title = self.paging.title(table.row_count, self._filters.describe())
        column = table.sort_column
        if column is None:
            subtitle = "newest first"
        else:
            label = next((c.label for c in table.columns if c.key == column), column)
            subtitle = f"sorted by {label} {'▼' if table.sort_reverse else '▲'}"
        if self._auto is not None:
            subtitle += f" · auto-refresh {AUTO_REFRESH_SECONDS:g} s"
        if self._title_shown != title:  # each assignment repaints the whole table
            self._title_shown = title
            table.border_title = Content(plain(title))  # the search text is never markup
        if table.border_subtitle != subtitle:
            table.border_subtitle = subtitle

    def show_status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#shipments-status", Static)
        text = plain_lines(text)
        if str(status.content) != text:
            status.update(text, layout=False)  # one fixed line: no layout pass, no full repaint
        status.set_class(error, "-error")

    # ---------------------------------------------------------------- filters

    @on(ShipmentFiltersBar.FiltersChanged)
    def _filters_changed(self, message: ShipmentFiltersBar.FiltersChanged) -> None:
        self._filters = message.filters
        self._start_search()

    @on(ShipmentFiltersBar.SearchSubmitted)
    def _search_submitted(self, message: ShipmentFiltersBar.SearchSubmitted) -> None:
        if not looks_like_code(message.text):
            self.table.focus()
        elif self.paging.loading:
            self._open_when_loaded = message.text  # the search for it is on its way: one request
        else:
            self.lookup(message.text)

    def open_row(self, row: ShipmentRow) -> None:
        """Show a shipment's detail (carrier and cost travel along from its listing)."""
        self.host.open_shipment(row.id, row.to_shipment())

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
        if self.focused is self.table:
            self.filters_bar.focus_search()
        # After the field's own focus handling (which selects what it holds), in key order.
        search.call_later(search.insert_text_at_cursor, character)

    def action_filters(self) -> None:
        self.set_focus(self.query_one("#status-filter", Select))

    def action_refresh(self) -> None:
        """Retry the page that failed, or reload from the first page."""
        if self.paging.failed and self.paging.pages > 0:
            self._request(self.paging.failed_token, first=False)
        else:
            self._start_search()

    @property
    def auto_refreshing(self) -> bool:
        """Whether the list reloads itself on a timer."""
        return self._auto is not None

    def action_auto_refresh(self) -> None:
        """Turn the timed reload of the first page on or off."""
        if self._auto is None:
            self._auto = self.set_interval(AUTO_REFRESH_SECONDS, self._auto_tick)
            self.show_status(f"auto-refresh every {AUTO_REFRESH_SECONDS:g} s (a to stop)")
        else:
            self._auto.stop()
            self._auto = None
            self.show_status("auto-refresh off")
        self._update_title()

    def _auto_tick(self) -> None:
        """Reload from the first page, unless a page is on its way, a field is being typed in,
        or the cursor is past the first page (a reload would take the rows it is reading)."""
        busy = self.paging.loading or isinstance(self.focused, Input)
        busy = busy or not self.is_current  # a detail on top: reload when the list is seen
        if busy or self.table.cursor_row >= max(self._first_rows, 1):
            return
        self._start_search()

    def on_unmount(self) -> None:
        if self._auto is not None:
            self._auto.stop()

    def action_sort_next(self) -> None:
        keys = self.table.column_keys_shown
        current = self.table.sort_column
        following = keys[(keys.index(current) + 1) % len(keys)] if current in keys else keys[0]
        self.sort_by(following)

    def action_sort_reverse(self) -> None:
        self.sort_by(self.table.sort_column or "created")

    def sort_by(self, column_key: str) -> None:
        self.table.sort_by(column_key)
        self._update_title()

    def action_export(self) -> None:
        """Export every page of the current filter (not only the loaded rows)."""
        from tui.screens.shipments_export import ExportDialog, ExportRequest
        from tui.workspace import files_dir

        default = (
            files_dir(self.host.session.data_dir) / "exports" / f"freight-shipments-{today()}.csv"
        )
        request = ExportRequest(self._filters.to_query(), self._filters.describe(), default)

        def done(report: str | None) -> None:
            if report:
                self.show_status(report)
                self.notify(report, timeout=4, markup=False)

        self.app.push_screen(ExportDialog(request), done)

    def action_summary(self) -> None:
        from tui.screens.shipments_summary import ShipmentsSummaryScreen

        self.app.push_screen(
            ShipmentsSummaryScreen(
                self.table.rows(), self._filters.describe(), self.paging.complete
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
            "Shipments: refresh", "Reload from the first page (r)", self._start_search
        )
        yield SystemCommand(
            "Shipments: auto-refresh", "Toggle a reload every 30 s (a)", self.action_auto_refresh
        )
        for column in self.table.columns:
            yield SystemCommand(
                f"Shipments: sort by {column.label}",
                "Sort the loaded rows (again to reverse)",
                lambda key=column.key: self.sort_by(key),
            )
