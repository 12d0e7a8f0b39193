"""One shipment: lifecycle, places, items, tracking, events, documents, raw JSON."""

from __future__ import annotations

import json
from datetime import date
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets.option_list import Option

from tui.documents import default_folder, may_have_default_printer, save_and_print
from tui.domain.display_paths import display_path
from tui.domain.safe_text import plain, plain_lines, visible
from tui.host import Hosted
from tui.listing.detail_text import (
    accessorials_text,
    carrier_line,
    document_label,
    items_text,
    pickup_day,
    places_text,
    title_line,
    tracking_text,
)
from tui.listing.status import timeline
from tui.listing.tracking_events import events_shown, timeline_text
from tui.screens.modal import FreightScreen
from tui.screens.shipment_changes import ChangeDone, ShipmentChanger, next_business_day
from tui.service_call import ServiceCall, WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.plain import OptionList, Static, show_status

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tui.api.models import Shipment, ShipmentDetail, TrackingEvent
    from tui.documents import DocumentsReport

AUTO_REFRESH_SECONDS = 30.0
NO_PRINTER = "No printer configured: set [printers] in the config; s saves instead."


class ShipmentDetailScreen(Hosted, WorkerErrorsToHost, FreightScreen[None]):
    """Everything known about one shipment; carrier and cost come from the listing row."""

    TITLE = "Shipment"

    OPENS_SCANS: ClassVar[bool] = True
    """A scanner's burst + Enter opens that shipment (tui.key_filter)."""

    HELP: ClassVar[str | None] = """\
## Shipment

The lifecycle runs pending → awarded → confirmed → picked-up → delivered (canceled apart),
then the places, the accessorials (the location types and the services asked for), items,
tracking, documents and events. `↓`/`↑` scroll the detail a line, `PgDn`/`PgUp` a page,
`End`/`Home` to its end or top; `Tab` moves to the documents (arrows pick one there).
`r` refresh, `a` auto-refresh every 30 s, `t` the tracking timeline (newest first, in your
local time), `j` raw JSON, `s` save the highlighted document (`S` all), `p` print it with
`lp` (printers are set in the config), `u` move the pickup (or ask for one; ctrl+x in it
cancels the pickup), `x` cancel the shipment (before its pickup), `Esc` back to the list.
Scanning another PRO, tracking number or BOL opens that shipment.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="detail.back", tooltip="Back to the list"),
        Binding("r", "refresh", "Refresh", id="detail.refresh", tooltip="Load the shipment again"),
        Binding(
            "a",
            "auto_refresh",
            "Auto",
            show=False,
            id="detail.auto",
            tooltip="Refresh every 30 s (toggle)",
        ),
        Binding(
            "t",
            "tracking",
            "Tracking",
            id="detail.tracking",
            tooltip="Jump to the tracking timeline",
        ),
        Binding("j", "raw", "JSON", id="detail.raw", tooltip="Show or hide the raw JSON"),
        Binding("s", "save", "Save doc", id="detail.save", tooltip="Save the highlighted document"),
        Binding(
            "S",
            "save_all",
            "Save all",
            show=False,
            id="detail.save_all",
            tooltip="Save every document",
        ),
        Binding("p", "print", "Print", id="detail.print", tooltip="Print the highlighted document"),
        Binding("u", "change('pickup')", "Pickup", id="detail.pickup", show=False,
                tooltip="Move the pickup, ask for one, or cancel it"),
        Binding("x", "change('cancel')", "Cancel", id="detail.cancel", show=False,
                tooltip="Cancel the shipment (before its pickup)"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    ShipmentDetailScreen {
        & #detail-body { height: 1fr; padding: 0 1; }
        & #detail-timeline, & #detail-accessorials { margin: 0 0 1 0; }
        & #detail-events { margin: 1 0 0 0; }
        & #documents-label { text-style: bold; }
        & #documents { height: auto; max-height: 6; border: none; padding: 0 0 0 1; }
        & #detail-raw { display: none; border: round $panel; }
        & #detail-raw.-shown { display: block; }
        & #detail-status { height: 1; padding: 0 1; color: $text-muted; }
        & #detail-status.-error { color: $text-error; }
    }
    """

    def __init__(self, shipment_id: str, listing: Shipment | None = None) -> None:
        super().__init__()
        self.shipment_id = shipment_id
        self.listing = listing
        self.detail: ShipmentDetail | None = None
        self._auto: Timer | None = None
        self._loading: ServiceCall[ShipmentDetail] = ServiceCall(
            self,
            "shipment-detail",
            activity="loading shipment…",
            on_answer=self._loaded,
            on_error=self._failed,
        )
        self._events: ServiceCall[list[TrackingEvent]] = ServiceCall(
            self, "shipment-tracking", on_answer=self._events_loaded, on_error=self._events_failed
        )
        self._printing = False
        self._said = ""
        """The last change's outcome, kept on the status line over the reload it causes."""
        self._changes = ShipmentChanger(self, self._changed)
        self._timeline: tuple[list[TrackingEvent], str] | None = None
        """The tracking events shown and where they came from (painted again on a new theme)."""
        self._papers: ServiceCall[DocumentsReport] = ServiceCall(
            self, "shipment-documents", on_answer=self._papers_done, on_error=self._papers_failed
        )

    def compose(self) -> ComposeResult:
        yield FreightHeader("Shipment")
        with VerticalScroll(id="detail-body"):
            # Server text: shown as Text, never parsed as markup (a PRO may hold `[x=`).
            yield Static(self._listing_title(), id="detail-title", markup=False)
            yield Static("", id="detail-carrier", markup=False)
            yield Static("", id="detail-timeline", markup=False)
            yield Static("", id="detail-places", markup=False)
            yield Static("", id="detail-accessorials", markup=False)
            yield Static("", id="detail-items", markup=False)
            yield Static("", id="detail-tracking", markup=False)
            yield Static("Documents", id="documents-label", markup=False)
            yield OptionList(id="documents")
            yield Static("", id="detail-events", markup=False)
            yield Static("", id="detail-raw", markup=False)
        yield Static("loading…", id="detail-status", markup=False)  # messages quote [sections]
        yield FreightFooter()

    def _listing_title(self) -> Text:
        if self.listing is None:
            return Text(plain(self.shipment_id))
        return Text(plain(self.listing.pro_number or self.listing.id))

    def on_mount(self) -> None:
        # The detail has the keys: ↓ PgDn End scroll it (Tab reaches the documents).
        self.query_one("#detail-body", VerticalScroll).focus()
        self.watch(self.app, "theme", self._recolour, init=False)
        self._load()

    def _recolour(self) -> None:
        """A new theme: the status words are painted into the text, so paint them again
        (after the app has taken the theme's status colours)."""
        self.call_after_refresh(self._paint_statuses)

    def _paint_statuses(self) -> None:
        detail = self.detail
        if detail is not None:
            self.query_one("#detail-title", Static).update(title_line(detail, self.listing))
            self.query_one("#detail-timeline", Static).update(timeline(detail.status))
        if self._timeline is not None:
            events, source = self._timeline
            self.query_one("#detail-events", Static).update(timeline_text(events, source=source))

    def on_unmount(self) -> None:
        if self._auto is not None:
            self._auto.stop()
        self._loading.cancel()
        self._events.cancel()

    # ---------------------------------------------------------------- loading

    def _load(self) -> None:
        shipment_id = self.shipment_id
        self._loading.start(lambda client: client.get_shipment(shipment_id))

    def _loaded(self, detail: ShipmentDetail) -> None:
        if self.detail is not None and detail.raw == self.detail.raw:
            self._set_status(self._auto_note() or "no change")  # repaint nothing else
            self._load_events()
            return
        self.detail = detail
        self._load_events()
        self.query_one("#detail-title", Static).update(title_line(detail, self.listing))
        self.query_one("#detail-carrier", Static).update(carrier_line(detail, self.listing))
        self.query_one("#detail-timeline", Static).update(timeline(detail.status))
        self.query_one("#detail-places", Static).update(places_text(detail))
        self.query_one("#detail-accessorials", Static).update(accessorials_text(detail))
        self.query_one("#detail-items", Static).update(items_text(detail))
        self.query_one("#detail-tracking", Static).update(tracking_text(detail, self.listing))
        documents = self.query_one("#documents", OptionList)
        highlighted = documents.highlighted
        documents.clear_options()
        documents.add_options(
            [Option(Text(document_label(d)), id=str(i)) for i, d in enumerate(detail.documents)]
        )
        if detail.documents:
            documents.highlighted = min(highlighted or 0, len(detail.documents) - 1)
        self.query_one("#documents-label", Static).update(
            "Documents" if detail.documents else "Documents  none"
        )
        raw = self.query_one("#detail-raw", Static)
        if raw.has_class("-shown"):
            raw.update(self._raw_json())
        self._set_status(self._auto_note() or self._said)

    def _load_events(self) -> None:
        shipment_id = self.shipment_id
        self._events.start(lambda client: client.get_tracking(shipment_id))

    def _events_loaded(self, tracked: list[TrackingEvent]) -> None:
        recorded = self.detail.events if self.detail is not None else []
        events = events_shown(recorded, tracked)  # the CLI's choice: the same event names
        self._timeline = (events, "")
        shown = self.query_one("#detail-events", Static)
        text = timeline_text(events)
        if str(shown.render()) != str(text):  # an unchanged timeline repaints nothing
            shown.update(text)

    def _events_failed(self, _error: Exception, _text: str) -> None:
        """No tracking answer: the detail's own events (or none), and no error for that."""
        events = list(self.detail.events) if self.detail is not None else []
        note = "from the shipment record" if events else ""
        self._timeline = (events, note)
        self.query_one("#detail-events", Static).update(timeline_text(events, source=note))

    def _failed(self, _error: Exception, text: str) -> None:
        self._set_status(f"⚠ {text} — r to retry", error=True)

    def _set_status(self, text: str, *, error: bool = False) -> None:
        show_status(self, "#detail-status", Text(plain_lines(text)), error=error)

    def _auto_note(self) -> str:
        return f"auto-refresh every {AUTO_REFRESH_SECONDS:.0f} s (a to stop)" if self._auto else ""

    def _raw_json(self) -> Text:
        """The server's JSON as it came, every control character shown as an escape."""
        if self.detail is None:
            return Text("(not loaded yet)")
        dumped = json.dumps(self.detail.raw, indent=2, sort_keys=True, default=str)
        return Text(visible(dumped))

    # ---------------------------------------------------------------- actions

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_refresh(self) -> None:
        self._said = ""
        self._set_status("refreshing…")
        self._load()

    def action_auto_refresh(self) -> None:
        if self._auto is None:
            self._auto = self.set_interval(AUTO_REFRESH_SECONDS, self._load)
        else:
            self._auto.stop()
            self._auto = None
        self._set_status(self._auto_note() or "auto-refresh off")

    def action_tracking(self) -> None:
        """Scroll the tracking timeline (newest first) to the top of the screen."""
        events = self.query_one("#detail-events", Static)
        self.query_one("#detail-body", VerticalScroll).scroll_to_widget(
            events, top=True, animate=False
        )

    def action_raw(self) -> None:
        raw = self.query_one("#detail-raw", Static)
        shown = not raw.has_class("-shown")
        raw.set_class(shown, "-shown")
        if shown:
            raw.update(self._raw_json())
            self.query_one("#detail-body", VerticalScroll).scroll_to_widget(raw)

    def action_change(self, what: str) -> None:
        """Move, ask for or cancel the pickup (``pickup``), or cancel the shipment."""
        detail, sid = self.detail, self.shipment_id
        if detail is None:
            self._set_status("The shipment is not loaded yet.", error=True)
        elif detail.status == "canceled":
            self._set_status(f"{sid} is canceled.", error=True)
        elif what == "pickup":
            day = pickup_day(detail)
            name = plain(detail.pro_number or sid, limit=30)
            self._changes.pickup([sid], day, next_business_day(date.today()), name)
        else:
            name = plain(detail.pro_number or sid, limit=30)
            self._changes.cancel([sid], f"Cancel shipment {name}?")

    def _changed(self, outcomes: list[ChangeDone]) -> None:
        """Say how the change ended at the action; a change made shows in the reloaded detail."""
        done = outcomes[0]
        self._said = "" if done.ok else "⚠ "
        self._said += done.message
        self._set_status(self._said, error=not done.ok)
        if done.ok:
            self._load()

    def _highlighted_documents(self, every: bool) -> list[int]:
        if self.detail is None or not self.detail.documents:
            return []
        if every:
            return list(range(len(self.detail.documents)))
        index = self.query_one("#documents", OptionList).highlighted
        return [index if index is not None else 0]

    def action_save(self) -> None:
        self._documents(self._highlighted_documents(False), send_to_printer=False)

    def action_save_all(self) -> None:
        self._documents(self._highlighted_documents(True), send_to_printer=False)

    def action_print(self) -> None:

        printers = self.host.session.config.printers
        configured = printers.document_printer or printers.label_printer
        if not configured and not may_have_default_printer():
            self._set_status(NO_PRINTER, error=True)
            return
        self._documents(self._highlighted_documents(False), send_to_printer=True)

    def _documents(self, indexes: list[int], *, send_to_printer: bool) -> None:
        if not indexes:
            self._set_status("No documents on this shipment.", error=True)
            return
        self._set_status("printing…" if send_to_printer else "saving…")
        self._save_and_print(indexes, send_to_printer)

    def _save_and_print(self, indexes: list[int], send_to_printer: bool) -> None:

        assert self.detail is not None
        session = self.host.session
        documents = [self.detail.documents[i] for i in indexes]
        folder = default_folder(session.data_dir, self.detail.pro_number or self.detail.id)
        printers = session.config.printers if send_to_printer else None
        self._printing = send_to_printer
        self._papers.start(
            lambda client: save_and_print(
                client.download_document, documents, folder, printers=printers
            )
        )

    def _papers_done(self, report: DocumentsReport) -> None:
        paths = [document.path for document in report.saved]
        given = self.host.file_saved(*paths) if paths else ""
        text, problem = _documents_report(report, self._printing)
        self._set_status(f"{given} {text}".strip(), error=problem)

    def _papers_failed(self, _error: Exception, text: str) -> None:
        self._set_status(f"⚠ could not save: {text}", error=True)

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Shipment: refresh", "Load it again (r)", self.action_refresh)
        yield SystemCommand("Shipment: raw JSON", "Show or hide the JSON (j)", self.action_raw)
        yield SystemCommand(
            "Shipment: tracking timeline", "Newest event first (t)", self.action_tracking
        )
        yield SystemCommand(
            "Shipment: auto-refresh", "Toggle every 30 s (a)", self.action_auto_refresh
        )
        yield SystemCommand(
            "Shipment: save documents", "Save all to a folder (S)", self.action_save_all
        )
        yield SystemCommand(
            "Shipment: pickup",
            "Move it, ask for one, or cancel it (u)",
            lambda: self.action_change("pickup"),
        )
        yield SystemCommand(
            "Shipment: cancel", "Before its pickup (x)", lambda: self.action_change("cancel")
        )


def _documents_report(report: DocumentsReport, printing: bool) -> tuple[str, bool]:
    """The status line after saving or printing, and whether it reports a problem."""
    if report.no_printer:
        return NO_PRINTER, True
    if not printing:
        names = ", ".join(s.path.name for s in report.saved)
        return f"Saved {names} to {display_path(report.folder, 40)}", False
    if not report.outcomes:
        return f"Saved to {display_path(report.folder, 40)}; no printer takes this format.", False
    failed = report.failed
    if failed:
        return f"⚠ print failed: {failed[0].detail}", True
    return f"Sent {len(report.outcomes)} to {report.printer_phrase()}", False
