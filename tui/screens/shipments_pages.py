"""The shipments list's pages: the first page of a search, the next ones as the cursor nears
the end, a retry after a failure; answers for filters the user has since changed are
dropped, and at most one search is in flight with one waiting."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from tui.listing.paging import PageAnswer, Paging
from tui.listing.rows import ShipmentRow
from tui.service_call import ServiceCall

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.widgets.shipments_filters import ShipmentFilters
    from tui.widgets.virtual_table import VirtualTable


class ShipmentsList(Protocol):
    """What the pages need of the list screen, and no more."""

    shipment_filters: ShipmentFilters

    @property
    def table(self) -> VirtualTable[ShipmentRow]: ...

    def set_columns(self) -> None: ...

    def update_title(self) -> None: ...

    def show_status(self, text: str, *, error: bool = False) -> None: ...

    def lookup(self, code: str, *, searched: bool = False) -> None: ...


class ShipmentPages:
    """Asks for a list screen's pages and puts each answer in its table."""

    def __init__(self, screen: ShipmentsList, node: Widget) -> None:
        """`node` is the screen as a widget: the requests run as its workers."""
        self.screen = screen
        self.paging = Paging()
        self._call: ServiceCall[PageAnswer] = ServiceCall(
            node, "shipments-page", on_answer=self._loaded, on_error=self._failed
        )
        self.open_when_loaded: str | None = None
        """A code submitted in the search field while its search was loading."""
        self.first_rows = 0
        """Rows of the first page: auto-refresh leaves a cursor further down alone."""

    def search(self) -> None:
        """Ask for the first page of the current filters, at once when no search is in
        flight; else as soon as it is answered (its answer, for older filters, is dropped).

        So typing asks with no fixed wait, keeps at most one search in flight and one waiting
        (for the latest filters), and never shows the rows of text typed before."""
        if self.paging.ask_first(self._call.in_flight):
            self.request(None, first=True)
        else:
            self.screen.table.tail_text = "searching…"

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

    def request(self, token: str | None, *, first: bool) -> None:
        paging, screen = self.paging, self.screen
        paging.requested(token, first=first)
        screen.table.tail_text = "searching…" if first else "loading more…"
        if first or paging.failed_token is not None:
            screen.update_title()  # (the title already says "more…" while paging on)
        generation, filters = paging.generation, screen.shipment_filters

        async def page(client: FreightClient) -> PageAnswer:
            # In a thread: the query's models (pydantic) may still be loading as the app
            # starts, and the loop goes on drawing and taking keys meanwhile.
            query = await asyncio.to_thread(filters.to_query)
            found = await client.search_shipments(query, continuation_token=token)
            rows = [ShipmentRow.of(shipment) for shipment in found.shipments]
            return PageAnswer(generation, rows, found.continuation_token, first)

        # (next pages say so on the table's last line; the first one in the header too)
        self._call.start(page, activity="searching shipments…" if first else None)

    def _loaded(self, message: PageAnswer) -> None:
        paging, screen = self.paging, self.screen
        if paging.answered():
            self.request(None, first=True)  # the search that waited for this answer
            return
        if not paging.current(message.generation):
            return  # an answer for filters the user has since changed
        table = screen.table
        paging.loaded(message.continuation_token)
        if message.first:
            self.first_rows = len(message.rows)
            keep = table.cursor_key
            table.set_rows(message.rows)
            if keep is not None:
                table.move_cursor_to_key(keep)
        else:
            table.append_rows(message.rows)
        screen.set_columns()
        table.tail_text = None
        screen.show_status("")
        screen.update_title()
        code, self.open_when_loaded = self.open_when_loaded, None
        if code is not None:
            screen.lookup(
                code, searched=True
            )  # found among the rows just loaded, else asked for by itself
        if paging.can_load_more and self._near_end():
            self.request(paging.token, first=False)

    def _failed(self, _error: Exception, text: str) -> None:
        if self.paging.answered():
            self.request(None, first=True)  # the failed search was for older filters
            return
        self.paging.failed_asked()
        self.open_when_loaded = None
        screen = self.screen
        screen.table.tail_text = f"⚠ {text} — press r to retry"
        screen.show_status(f"⚠ {text} — r retries; loaded rows are kept", error=True)
        screen.update_title()

    def _near_end(self) -> bool:
        table = self.screen.table
        return table.row_count - table.cursor_row <= max(table.near_end, table.size.height)
