"""Scan to open on the shipments list: a scanned code looked up among the rows, then the server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.screen import Screen

from tui.api.models import ShipmentQuery
from tui.listing.rows import ShipmentRow
from tui.listing.scan import find_by_code
from tui.service_call import ServiceCall

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.host import Host
    from tui.widgets.virtual_table import VirtualTable

    _Host = Screen[None]
else:
    _Host = object


class ScanLookup(_Host):
    """Mixin for the list screen: open the shipment a scanner (or the search field) named.

    The app tells scans from typing (`tui.key_filter`) and hands the code to
    `lookup_scanned`; Enter on a code in the search field comes to `lookup` too. The screen
    provides `table`, `host`, `show_status()` and `open_row()`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._scanned = ""
        self._pending_code: str | None = None
        self._scan_lookup: ServiceCall[ShipmentRow | None] = ServiceCall(
            cast("Widget", self),
            "shipments-scan",
            on_answer=self._scan_resolved,
            on_error=self._scan_failed,
        )

    if TYPE_CHECKING:

        @property
        def table(self) -> VirtualTable[ShipmentRow]: ...

        @property
        def host(self) -> Host: ...

        def show_status(self, text: str, *, error: bool = False) -> None: ...

        def open_row(self, row: ShipmentRow) -> None: ...

    def lookup_scanned(self, code: str) -> None:
        """Look up a scanned code now, or once the screen is mounted."""
        if self.is_mounted:
            self.lookup(code)
        else:
            self._pending_code = code

    def take_pending_code(self) -> str | None:
        """A code scanned before the screen was mounted (once)."""
        code, self._pending_code = self._pending_code, None
        return code

    def lookup(self, code: str, *, searched: bool = False) -> None:
        """Open the shipment whose PRO, tracking number, BOL or id is `code`.

        ``searched``: `code` is the search field's text, so the list already shows what it
        matches; with no exact match those rows are the answer (the cursor goes to them)."""
        loaded = find_by_code(self.table.rows(), code)
        if loaded is not None:
            self.open_row(loaded)
            return
        if searched and self.table.row_count:
            self.show_status("")
            self.table.focus()
            return
        self.show_status(f"looking up {code}…")
        self._resolve_code(code)

    def _resolve_code(self, code: str) -> None:

        self._scanned = code

        async def find(client: FreightClient) -> ShipmentRow | None:
            page = await client.search_shipments(ShipmentQuery(text=code))
            return find_by_code([ShipmentRow.of(shipment) for shipment in page.shipments], code)

        self._scan_lookup.start(find)

    def _scan_resolved(self, match: ShipmentRow | None) -> None:
        if match is None:
            self.show_status(f"no shipment matches {self._scanned}", error=True)
        else:
            self.show_status("")
            self.open_row(match)

    def _scan_failed(self, _error: Exception, text: str) -> None:
        self.show_status(f"⚠ could not look up {self._scanned}: {text}", error=True)
