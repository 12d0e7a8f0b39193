"""Scan to open on the shipments list: a scanned code looked up among the rows, then the server."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from tui.api.models import ShipmentQuery
from tui.listing.rows import ShipmentRow
from tui.listing.scan import find_by_code
from tui.service_call import ServiceCall

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.screens.shipments_pages import Status, Table

    OpenRow: TypeAlias = Callable[[ShipmentRow], None]


class ScanLookup:
    """Opens the shipment a scanner (or the search field) named.

    The app tells scans from typing (`tui.key_filter`) and the list hands the code to
    `lookup`; Enter on a code in the search field comes to `lookup` too. Given the list's
    table, its status line and what opens a row.
    """

    def __init__(self, node: Widget, table: Table, *, status: Status, open_row: OpenRow) -> None:
        """`node`: the server lookups run as its workers."""
        self._table = table
        self._status = status
        self._open_row = open_row
        self._scanned = ""
        self._call: ServiceCall[ShipmentRow | None] = ServiceCall(
            node, "shipments-scan", on_answer=self._resolved, on_error=self._failed
        )

    def lookup(self, code: str, *, searched: bool = False) -> None:
        """Open the shipment whose PRO, tracking number, BOL or id is `code`.

        ``searched``: `code` is the search field's text, so the list already shows what it
        matches; with no exact match those rows are the answer (the cursor goes to them)."""
        table = self._table()
        loaded = find_by_code(table.rows(), code)
        if loaded is not None:
            self._open_row(loaded)
            return
        if searched and table.row_count:
            self._status("", False)
            table.focus()
            return
        self._status(f"looking up {code}…", False)
        self._resolve(code)

    def _resolve(self, code: str) -> None:

        self._scanned = code

        async def find(client: FreightClient) -> ShipmentRow | None:
            page = await client.search_shipments(ShipmentQuery(text=code))
            return find_by_code([ShipmentRow.of(shipment) for shipment in page.shipments], code)

        self._call.start(find)

    def _resolved(self, match: ShipmentRow | None) -> None:
        if match is None:
            self._status(f"no shipment matches {self._scanned}", True)
        else:
            self._status("", False)
            self._open_row(match)

    def _failed(self, _error: Exception, text: str) -> None:
        self._status(f"⚠ could not look up {self._scanned}: {text}", True)
