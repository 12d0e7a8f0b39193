"""The shipments list's pages: the first page of a search, the next ones as the cursor nears
the end, a retry after a failure; answers for filters the user has since changed are
dropped, and at most one search is in flight with one waiting. Also the list's timed
reload (`AutoRefresh`) and its status line (`StatusLine`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from time import monotonic
from typing import TYPE_CHECKING, TypeAlias

from tui.domain.safe_text import plain_lines
from tui.listing.paging import PageAnswer, Paging
from tui.listing.rows import ShipmentRow
from tui.service_call import ServiceCall
from tui.widgets.plain import Static
from tui.widgets.shipments_filters import ShipmentFilters

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.widgets.virtual_table import VirtualTable

    Table: TypeAlias = Callable[[], VirtualTable[ShipmentRow]]
    """The list's table (once it is composed)."""
    Status: TypeAlias = Callable[[str, bool], None]
    """Shows one line of status: its text, and whether it is an error."""
    Shown: TypeAlias = Callable[[], None]
    Open: TypeAlias = Callable[[str], None]


SAY_SEARCHING_AFTER = 0.2
"""Seconds a search over rows shown runs before the header says so: a quicker answer (as
you type) paints no frame for the words, nor another to take them away."""


@dataclass(frozen=True)
class FoundPage:
    """A page of rows and the token of the page after it (None: the last page)."""

    rows: list[ShipmentRow]
    token: str | None


AHEAD_KEPT = 2.0
"""Seconds a page asked ahead is kept for the search that takes it: held keys are let go
within a fraction of that; an older one (a scan's first key) is asked again."""


class StatusLine(Static):
    """One fixed line under the list: what is going on, or what went wrong (in red)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)  # quotes server errors: never markup

    def show(self, text: str, error: bool = False) -> None:
        text = plain_lines(text)
        if str(self.content) != text:
            self.update(text, layout=False)  # one fixed line: no layout pass, no full repaint
        self.set_class(error, "-error")


class ShipmentPages:
    """Asks for a list's pages and puts each answer in its table.

    Given the table, what to do when the list has changed (`shown`), what to say (`status`)
    and how to open a code once its search is loaded (`open_code`); `filters` are what
    the next search asks for."""

    def __init__(
        self, node: Widget, table: Table, *, shown: Shown, status: Status, open_code: Open
    ) -> None:
        """`node`: the requests run as its workers."""
        self.filters = ShipmentFilters()
        self._table = table
        self._shown = shown
        self._status = status
        self._open_code = open_code
        self.paging = Paging()
        self._call: ServiceCall[PageAnswer] = ServiceCall(
            node, "shipments-page", on_answer=self._loaded, on_error=self._failed
        )
        self.open_when_loaded: str | None = None
        """A code submitted in the search field while its search was loading."""
        self.first_rows = 0
        """Rows of the first page: auto-refresh leaves a cursor further down alone."""
        self._query_warm = False
        """A query was built once (its models are loaded): the next ones are built at once."""
        self._ahead: ServiceCall[FoundPage] = ServiceCall(
            node, "shipments-ahead", on_answer=self._ahead_answered, on_error=self._ahead_failed
        )
        self._ahead_for: ShipmentFilters | None = None
        """The filters the first page asked ahead is for (None: none asked)."""
        self._ahead_page: FoundPage | None = None
        """That page, once it came (None: on its way, or none)."""
        self._ahead_adopted: int | None = None
        """The search (its generation) waiting for the page asked ahead (None: none)."""
        self._ahead_came = 0.0
        """When that page came (`monotonic`)."""

    def ask_ahead(self, text: str) -> None:
        """Ask now for the first page of the current filters with `text` as the search,
        without showing it: keys still held as a possible scan would type it. The next
        `search` for exactly those filters takes it (at once when it has come) instead of
        asking; any other search drops it. A newer one stops an older one on its way."""
        filters = replace(self.filters, text=text)
        if self._ahead_adopted is not None:
            return  # the one on its way is a search's now
        if filters == self._ahead_for and self._ahead_page is None:
            return  # on its way already
        self._ahead_for, self._ahead_page = filters, None
        self._ahead.start(
            self._fetch(filters, None),
            activity="searching shipments…",
            activity_after=SAY_SEARCHING_AFTER,
        )

    def _ahead_answered(self, page: FoundPage) -> None:
        generation, self._ahead_adopted = self._ahead_adopted, None
        if generation is None:
            self._ahead_page = page  # for the search that takes it (soon, or never)
            self._ahead_came = monotonic()
            return
        self._ahead_for = None  # a search's first page: as any other answer
        self._loaded(PageAnswer(generation, page.rows, page.token, True))

    def _ahead_failed(self, error: Exception, text: str) -> None:
        generation, self._ahead_adopted = self._ahead_adopted, None
        self._ahead_for = self._ahead_page = None
        if generation is not None:
            self._failed(error, text)

    def _take_ahead(self) -> bool:
        """Let a search take the page asked ahead for its filters (True), shown now if it has
        come, else as it comes; a page asked ahead for other filters is dropped (unless a
        search took it: then it is that search's, on its way)."""
        if self._ahead_for is None or self._ahead_adopted is not None:
            return False
        page = self._ahead_page
        stale = page is not None and monotonic() - self._ahead_came > AHEAD_KEPT
        if self._ahead_for != self.filters or stale:
            self._ahead_for = self._ahead_page = None
            if page is None:
                self._ahead.cancel()
            return False
        if self._call.in_flight:
            self._call.cancel()  # (for older filters: its answer would be dropped)
        paging = self.paging
        paging.restart()
        paging.search_waiting = False
        paging.requested(None, first=True)
        if page is None:
            self._ahead_adopted = paging.generation
            self._table().tail_text = "searching…"
            return True
        self._ahead_for = self._ahead_page = None
        self._loaded(PageAnswer(paging.generation, page.rows, page.token, True))
        return True

    def search(self) -> None:
        """Ask for the first page of the current filters, at once when no search is in
        flight; else as soon as it is answered (its answer, for older filters, is dropped).

        So typing asks with no fixed wait, keeps at most one search in flight and one waiting
        (for the latest filters), and never shows the rows of text typed before. A page
        asked ahead for these filters (`ask_ahead`) is taken instead of asking again."""
        if self._take_ahead():
            return
        if self.paging.ask_first(self._call.in_flight or self._ahead_adopted is not None):
            self.request(None, first=True)
        else:
            self._table().tail_text = "searching…"

    def more(self) -> None:
        """Ask for the next page, if there is one and none is on its way."""
        if self.paging.can_load_more:
            self.request(self.paging.token, first=False)

    def retry(self) -> None:
        """Ask again for the page that failed, or search afresh."""
        if self.paging.failed and self.paging.pages > 0:
            self.request(self.paging.failed_token, first=False)
        else:
            self.search()

    def reload_top(self) -> None:
        """Search afresh unless a page is on its way or the cursor is past the first page
        (a reload would take the rows it is reading)."""
        if not self.paging.loading and self._table().cursor_row < max(self.first_rows, 1):
            self.search()

    def request(self, token: str | None, *, first: bool) -> None:
        paging = self.paging
        paging.requested(token, first=first)
        table = self._table()
        table.tail_text = "searching…" if first else "loading more…"
        if (first and table.row_count == 0) or paging.failed_token is not None:
            # The title says "searching…" over an empty list. Over rows it keeps describing
            # them until the answer replaces them (the header says a search is on its way):
            # retitling repaints the whole table, a frame of work per key typed.
            self._shown()  # (the title already says "more…" while paging on)
        generation, fetch = paging.generation, self._fetch(self.filters, token)

        async def page(client: FreightClient) -> PageAnswer:
            found = await fetch(client)
            return PageAnswer(generation, found.rows, found.token, first)

        # (next pages say so on the table's last line; the first one in the header too)
        self._call.start(
            page,
            activity="searching shipments…" if first else None,
            activity_after=SAY_SEARCHING_AFTER if first and table.row_count else 0.0,
        )

    def _fetch(
        self, filters: ShipmentFilters, token: str | None
    ) -> Callable[[FreightClient], Awaitable[FoundPage]]:
        """The request for the page of `filters` after `token` (None: the first page)."""
        warm, self._query_warm = self._query_warm, True

        async def fetch(client: FreightClient) -> FoundPage:
            # The first one in a thread: the query's models (pydantic) may still be loading as
            # the app starts, and the loop goes on drawing and taking keys meanwhile. Later
            # ones at once (a thread's hop costs a key typed on a busy machine ~15 ms).
            query = filters.to_query() if warm else await asyncio.to_thread(filters.to_query)
            found = await client.search_shipments(query, continuation_token=token)
            rows = [ShipmentRow.of(shipment) for shipment in found.shipments]
            return FoundPage(rows, found.continuation_token)

        return fetch

    def _loaded(self, message: PageAnswer) -> None:
        paging = self.paging
        if paging.answered():
            self.request(None, first=True)  # the search that waited for this answer
            return
        if not paging.current(message.generation):
            return  # an answer for filters the user has since changed
        table = self._table()
        paging.loaded(message.continuation_token)
        if message.first:
            self.first_rows = len(message.rows)
            keep = table.cursor_key
            table.set_rows(message.rows)
            if keep is not None:
                table.move_cursor_to_key(keep)
        else:
            table.append_rows(message.rows)
        table.tail_text = None
        self._status("", False)
        self._shown()
        code, self.open_when_loaded = self.open_when_loaded, None
        if code is not None:
            self._open_code(code)  # found among the rows just loaded, else asked for by itself
        if paging.can_load_more and self._near_end(table):
            self.request(paging.token, first=False)

    def _failed(self, _error: Exception, text: str) -> None:
        if self.paging.answered():
            self.request(None, first=True)  # the failed search was for older filters
            return
        self.paging.failed_asked()
        self.open_when_loaded = None
        self._table().tail_text = f"⚠ {text} — press r to retry"
        self._status(f"⚠ {text} — r retries; loaded rows are kept", True)
        self._shown()

    @staticmethod
    def _near_end(table: VirtualTable[ShipmentRow]) -> bool:
        return table.row_count - table.cursor_row <= max(table.near_end, table.size.height)


class AutoRefresh:
    """A timed reload, on or off (`a` on the list): `tick` is called every `seconds` while
    it is on. Its timer belongs to `node`, so it ends with it."""

    def __init__(self, node: Widget, seconds: float, tick: Callable[[], None]) -> None:
        self._node = node
        self.seconds = seconds
        self._tick = tick
        self._timer: Timer | None = None

    @property
    def running(self) -> bool:
        return self._timer is not None

    def toggle(self) -> str:
        """Turn the reload on or off; says which, for the status line."""
        if self._timer is None:
            self._timer = self._node.set_interval(self.seconds, self._tick)
            return f"auto-refresh every {self.seconds:g} s (a to stop)"
        self._timer.stop()
        self._timer = None
        return "auto-refresh off"
