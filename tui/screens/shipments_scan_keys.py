"""Scan to open on the shipments list: keys typed outside the fields become a code to open."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.screen import Screen
from textual.widgets import Input, Select

from tui.listing.rows import ShipmentRow
from tui.listing.scan import ScanBuffer, find_by_code
from tui.service_call import ServiceCall

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.host import Host
    from tui.widgets.virtual_table import VirtualTable

    _Host = Screen[None]
else:
    _Host = object


class ScanToOpen(_Host):
    """Mixin for the list screen: a scanner types a PRO, tracking number or BOL and Enter.

    Printable keys typed outside a text field or drop-down are gathered (digits, and keys that
    are no shortcut, start a code; once started, every key joins it, shortcuts included), shown
    on the status line, and Enter looks the code up among the loaded rows, then on the server.
    The screen provides `table`, `host`, `show_status()` and `open_row()`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.scan_buffer = ScanBuffer()
        self._scanned = ""
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

    def on_key(self, event: events.Key) -> None:
        """Gather printable keys typed outside text fields as a scanned code."""
        focused = self.focused
        if focused is not None and any(
            isinstance(widget, Input | Select) for widget in focused.ancestors_with_self
        ):
            return  # typing into a field or a drop-down
        scan = self.scan_buffer
        if event.key == "enter" and scan.active:
            event.stop()
            event.prevent_default()
            self.lookup(scan.take())
            return
        if event.key == "backspace" and scan.active:
            event.stop()
            scan.backspace()
            self._show_scan()
            return
        character = event.character
        if not event.is_printable or character is None or character.isspace():
            return
        starts_code = character.isdigit() or event.key not in self.app.active_bindings
        if scan.active or starts_code:
            event.stop()
            event.prevent_default()
            scan.feed(character)
            self._show_scan()

    def _show_scan(self) -> None:
        text = self.scan_buffer.text
        self.show_status(f"scan: {text}▏ Enter opens, Esc clears" if text else "")

    def action_clear_scan(self) -> None:
        """Escape: forget typed scan characters, else go back to the list from a field."""
        if self.scan_buffer.active:
            self.scan_buffer.clear()
            self.show_status("")
        elif not self.table.has_focus:
            self.table.focus()

    def lookup(self, code: str) -> None:
        """Open the shipment whose PRO, tracking number, BOL or id is `code`."""
        loaded = find_by_code(self.table.rows(), code)
        if loaded is not None:
            self.open_row(loaded)
            return
        self.show_status(f"looking up {code}…")
        self._resolve_code(code)

    def _resolve_code(self, code: str) -> None:
        from tui.api.models import ShipmentQuery

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
