"""Result: a booking's numbers (PRO, BOL, pickup or tracking) to copy; its papers to save, print."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.widgets import Input

from tui import documents
from tui.api.models import ParcelBooking
from tui.api.models.changes import PickupChange
from tui.domain.display_paths import display_path, home_relative
from tui.domain.money import format_price
from tui.domain.safe_text import plain, plain_lines
from tui.forms.book_summary import pickup_window
from tui.host import Hosted
from tui.screens.modal import FreightScreen
from tui.screens.shipment_changes import ChangeDone, ShipmentChanger, next_business_day
from tui.service_call import ServiceCall, WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.plain import Label, Static
from tui.workspace import OutsideWorkspace, save_folder

if TYPE_CHECKING:
    from tui.api.models import Booking, BookingRequest, Document, ParcelBookingRequest, Rate

MAX_COPY_KEYS = 9
KEY_BOUNCE_SECONDS = 0.6
"""Enter held or pressed twice on the confirmation must not also open the shipment."""


def booking_numbers(booking: Booking | ParcelBooking) -> list[tuple[str, str]]:
    """The numbers worth copying, in order: (label, value); pickup shows when not scheduled."""

    numbers: list[tuple[str, str]] = []
    if isinstance(booking, ParcelBooking):
        many = len(booking.tracking_numbers) > 1
        for index, number in enumerate(booking.tracking_numbers, start=1):
            numbers.append((f"Tracking {index}" if many else "Tracking", number))
    else:
        if booking.pro_number:
            numbers.append(("PRO", booking.pro_number))
        if booking.bol_number:
            numbers.append(("BOL", booking.bol_number))
        if booking.pickup_confirmation:
            numbers.append(("Pickup conf.", booking.pickup_confirmation))
    if booking.shipment_id:
        numbers.append(("Shipment", booking.shipment_id))
    return numbers


def booking_documents(booking: Booking | ParcelBooking) -> tuple[list[Document], str]:
    """The documents to save and print, and the kind to assume when one has no type."""

    if isinstance(booking, ParcelBooking):
        return list(booking.labels), "label"
    return list(booking.documents), "document"


NO_PRINTER = (
    "No printer configured: set document_printer / label_printer under "
    "[printers] in the config. Documents can still be saved (s)."
)


class ResultScreen(Hosted, WorkerErrorsToHost, FreightScreen[None]):
    """The booked shipment's numbers with keys to copy, save, print and open it."""

    TITLE = "Booked"

    OPENS_SCANS: ClassVar[bool] = True
    """A scanner's burst + Enter opens that shipment (tui.key_filter)."""

    AUTO_FOCUS = None

    HELP = """\
## Booked

The numbers the booking gave back. **1**–**9** copy a number (OSC 52: it reaches
your own clipboard, also over SSH); **y** copies the first one (PRO or tracking).
**s** saves the documents and labels to the folder shown (**f** changes it);
**p** prints them (`lp`; ZPL labels go raw to the label printer).
**u** moves the pickup (or asks for one; ctrl+x in it cancels the pickup),
**x** cancels the shipment (before its pickup).
**Enter** opens the shipment, **n** starts a new quote.
Scanning a PRO, tracking number or BOL opens that shipment.
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "y",
            "copy(0)",
            "Copy",
            id="result.copy",
            tooltip="Copy the first number (PRO, or tracking number)",
        ),
        *(
            Binding(
                str(index),
                f"copy({index - 1})",
                f"Copy #{index}",
                show=False,
                id=f"result.copy_{index}",
                tooltip=f"Copy number {index}",
            )
            for index in range(1, MAX_COPY_KEYS + 1)
        ),
        Binding("s", "save", "Save docs", id="result.save", tooltip="Save documents and labels"),
        Binding("p", "print", "Print", id="result.print", tooltip="Print with lp"),
        Binding("f", "folder", "Folder", id="result.folder", tooltip="Change the save folder"),
        Binding("enter,o", "open_shipment", "Open", id="result.open", tooltip="Open the shipment"),
        Binding(
            "u",
            "change('pickup')",
            "Pickup",
            id="result.pickup",
            show=False,
            tooltip="Move the pickup, ask for one, or cancel it",
        ),
        Binding(
            "x",
            "change('cancel')",
            "Cancel",
            id="result.cancel",
            show=False,
            tooltip="Cancel the shipment (before its pickup)",
        ),
        Binding("n", "new_quote", "New quote", id="result.new_quote", tooltip="Start over"),
        Binding("escape", "back", "Back", id="result.back", tooltip="Back to the rates"),
    ]

    DEFAULT_CSS = """
    ResultScreen #result-title {
        padding: 0 1;
        height: 1;
        text-style: bold;
        background: $success 30%;
    }
    ResultScreen #result-title.-canceled {
        background: $error 30%;
    }
    ResultScreen #result-body {
        padding: 0 1;
        height: 1fr;
    }
    ResultScreen #result-numbers {
        height: auto;
        margin-bottom: 1;
    }
    ResultScreen #result-documents {
        height: auto;
    }
    ResultScreen #result-pickup-note {
        height: auto;
        margin-bottom: 1;
        color: $warning;
        text-style: bold;
    }
    ResultScreen #result-folder-row {
        height: 1;
    }
    ResultScreen #result-folder-row Label {
        width: 8;
    }
    ResultScreen #result-folder {
        width: 1fr;
    }
    ResultScreen #result-status {
        height: auto;
        padding: 0 1;
    }
    ResultScreen #result-status.-problem {
        color: $error;
        text-style: bold;
    }
    """

    def __init__(
        self,
        booking: Booking | ParcelBooking,
        rate: Rate,
        environment: str,
        request: BookingRequest | ParcelBookingRequest | None = None,
    ) -> None:
        super().__init__()
        self.booking = booking
        self.rate = rate
        self.environment = environment
        self.request = request
        """What was sent (the pickup day asked for and its window), when known."""
        self.numbers = booking_numbers(booking)
        self.documents, self.default_kind = booking_documents(booking)
        self.saved: list[documents.SavedDocument] = []
        self.busy = False
        self._printing_requested = False
        self._save_to = Path()
        """The folder the running (or last) save went to."""
        self._shown_at = time.monotonic()
        self.canceled = False
        self._moved: Text | None = None
        """The pickup as the last change left it (None: as booked)."""
        self._changes = ShipmentChanger(self, self._changed)
        self._papers: ServiceCall[documents.DocumentsReport] = ServiceCall(
            self,
            "documents",
            on_answer=self._saved,
            on_error=self._failed,
            handled_here=(OSError,),
        )

    def compose(self) -> ComposeResult:
        yield FreightHeader("Booked")
        yield Static(self._title(), id="result-title", markup=False)
        with VerticalScroll(id="result-body"):
            yield Static(self._numbers_table(), id="result-numbers", markup=False)
            note = self._pickup_note()
            if note is not None:
                yield Static(note, id="result-pickup-note", markup=False)
            yield Static(self._documents_text(), id="result-documents", markup=False)
            with Horizontal(id="result-folder-row"):
                yield Label("Folder")
                folder = home_relative(self._default_folder())
                yield Input(folder, id="result-folder", compact=True)
        yield Static("", id="result-status", markup=False)  # messages quote [sections]
        yield FreightFooter()

    def _title(self) -> Text:
        rate = self.rate
        return Text.assemble(
            "Canceled · " if self.canceled else "Booked · ",
            (self.environment, "bold reverse"),
            plain(f" · {rate.carrier} {rate.service_type or ''}".rstrip()),
            f" · {format_price(rate.total, rate.currency)}",
        )

    def _numbers_table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(justify="right", style="bold")
        table.add_column(style="bold")
        table.add_column()
        table.add_column(style="dim")
        for index, (label, value) in enumerate(self.numbers, start=1):
            key = str(index) if index <= MAX_COPY_KEYS else ""
            hint = f"{key} copy" + (" · y" if index == 1 else "")
            table.add_row(key, label, Text(plain(value)), hint)  # a str cell is Rich markup
        if not self.numbers:
            table.add_row("", "No numbers came back", "", "")
        pickup = self._pickup_text()
        if pickup is not None:
            table.add_row("", "Pickup", pickup, "")
        return table

    def _pickup_text(self) -> Text | None:
        """`Mon 2026-11-30 08:00–16:00 · moved from Thu 11-26`, as the service gave the day."""

        if self._moved is not None:
            return self._moved
        asked = self.request.pickup_date if self.request is not None else None
        day = self.booking.pickup_date or asked
        scheduled = self._is_parcel() or bool(getattr(self.booking, "pickup_confirmation", None))
        if day is None and scheduled:
            return None
        text = Text(f"{day:%a %Y-%m-%d}" if day is not None else "day not given")
        window = pickup_window(self.request) if self.request is not None else None
        if window:
            text.append(f" {window}")
        if asked is not None and day != asked:
            text.append(f" · moved from {asked:%a %m-%d}", style="bold")
        if not scheduled:
            text.append(" · not scheduled", style="italic")
        return text

    def _pickup_note(self) -> Text | None:
        """What the service said about the pickup day (as text: it is the server's)."""

        message = self.booking.pickup_date_message
        return Text("⚠ " + plain(message)) if message else None

    def _is_parcel(self) -> bool:

        return isinstance(self.booking, ParcelBooking)

    def _documents_text(self) -> Text:
        if not self.documents:
            return Text("Documents  none came back", style="dim")
        names = [name for *_, name in documents.planned_files(self.documents, self.default_kind)]
        return Text.assemble(("Documents  ", "bold"), "  ".join(names))

    def _default_folder(self) -> Path:
        shipment = self.booking.shipment_id or self.rate.id
        return documents.default_folder(self.host.session.data_dir, shipment)

    def _folder(self) -> Path:
        """The folder typed, else the default (raises OutsideWorkspace)."""
        text = self.query_one("#result-folder", Input).value
        return save_folder(text, self._default_folder())

    def _set_status(self, text: str | Text, problem: bool = False) -> None:
        status = self.query_one("#result-status", Static)
        status.set_class(problem, "-problem")
        status.update(Text(plain_lines(text)) if isinstance(text, str) else text)

    # -- actions ------------------------------------------------------------------------

    def action_copy(self, index: int) -> None:
        """Copy one number to the clipboard (OSC 52)."""
        if not 0 <= index < len(self.numbers):
            return
        label, value = self.numbers[index]
        value = plain(value)  # what is pasted is only the number, never a control character
        self.app.copy_to_clipboard(value)
        self._set_status(f"Copied {label} {value}.{documents.clipboard_hint()}")

    def action_folder(self) -> None:
        """Edit the folder documents are saved to."""
        self.query_one("#result-folder", Input).focus()

    @on(Input.Submitted, "#result-folder")
    def _folder_done(self) -> None:
        self.set_focus(None)
        self.action_save()

    def action_save(self) -> None:
        """Download the documents and labels into the folder."""
        self._run_documents(print_them=False)

    def action_print(self) -> None:
        """Save, then print with lp to the configured printers (or the system default)."""
        printers = self.host.session.config.printers
        configured = printers.document_printer or printers.label_printer
        if not configured and not documents.may_have_default_printer():
            self._set_status(NO_PRINTER, True)
            return
        self._run_documents(print_them=True)

    def _run_documents(self, *, print_them: bool) -> None:
        if self.busy:
            return
        if not self.documents:
            self._set_status("This booking came back without documents.", True)
            return
        try:
            folder = self._save_to = self._folder()
        except OutsideWorkspace as error:  # served: the workspace only
            self._set_status(str(error), True)
            self.query_one("#result-folder", Input).focus()
            return
        self.busy = True
        self._printing_requested = print_them
        session = self.host.session
        papers, kind = self.documents, self.default_kind
        printers = session.config.printers if print_them else None
        self._papers.start(
            lambda client: documents.save_and_print(
                client.download_document, papers, folder, printers=printers, default_kind=kind
            ),
            activity="printing…" if print_them else "saving…",
        )

    def _saved(self, report: documents.DocumentsReport) -> None:
        self.busy = False
        asked, self._printing_requested = self._printing_requested, False
        if report.no_printer:
            self._set_status(NO_PRINTER, True)
            return
        self.saved = report.saved
        paths = [document.path for document in report.saved]
        given = self.host.file_saved(*paths) if paths else ""
        folder = report.saved[0].path.parent if report.saved else self._save_to
        count = len(report.saved)
        text = f"Saved {count} file{'s' if count != 1 else ''} to {display_path(folder, 50)}."
        failed = report.failed
        if report.outcomes:
            sent = len(report.outcomes) - len(failed)
            if report.outcomes[0].job.printer is None:
                text += f" Sent {sent} to {report.printer_phrase()}."
            else:
                text += f" Sent {sent} to the printer."
        elif asked:
            text += " Nothing matched a configured printer."
        if failed:
            text += " Failed: " + "; ".join(
                f"{outcome.job.path.name}: {outcome.detail}" for outcome in failed
            )
        if given:
            text += " " + given
        self._set_status(text, bool(failed))

    def _failed(self, error: Exception, message: str) -> None:
        self.busy = False
        self._printing_requested = False
        if isinstance(error, OSError):
            where = display_path(self._save_to, 40)
            self._set_status(f"Could not save: {error.strerror or error} ({where}).", True)
        else:
            self._set_status(message, True)

    def on_mount(self) -> None:
        self._shown_at = time.monotonic()

    def action_open_shipment(self) -> None:
        """Open the new shipment's detail (not in the first moment: that Enter was for booking)."""
        if time.monotonic() - self._shown_at < KEY_BOUNCE_SECONDS:
            return
        if self.booking.shipment_id:
            self.host.open_shipment(self.booking.shipment_id)
        else:
            self._set_status("The booking did not name a shipment id.", True)

    def action_change(self, what: str) -> None:
        """Move, ask for or cancel the pickup (``pickup``), or cancel the shipment."""
        sid = self.booking.shipment_id
        if not sid:
            self._set_status("The booking did not name a shipment id.", True)
        elif self.canceled:
            self._set_status(f"{sid} is canceled.", True)
        elif what == "pickup":
            today = date.today()
            day = self.booking.pickup_date
            self._changes.pickup([sid], day, next_business_day(today), self.numbers[0][1])
        else:
            label = self.numbers[0][1] if self.numbers else sid
            self._changes.cancel([sid], f"Cancel shipment {label} ({self.rate.carrier})?")

    def _changed(self, outcomes: list[ChangeDone]) -> None:
        """Say how the change ended; a canceled shipment or a moved pickup shows at once."""
        done = outcomes[0]
        self._set_status(done.message, not done.ok)
        if not done.ok:
            return
        if done.canceled:
            self.canceled = True
            self.query_one("#result-title", Static).update(self._title())
            self.query_one("#result-title").add_class("-canceled")
            return
        result = done.pickup
        if isinstance(done.wish, PickupChange):
            day = result.pickup_date if result and result.pickup_date else done.wish.pickup_date
            self._moved = Text(f"{day:%a %Y-%m-%d} {done.wish.ready:%H:%M}–{done.wish.close:%H:%M}")
            self._moved.append(" · moved", style="bold")
        else:
            self._moved = Text("none · pickup canceled", style="italic")
        self.query_one("#result-numbers", Static).update(self._numbers_table())

    def action_new_quote(self) -> None:
        """Start a new quote: the form empty, no items of the one just booked."""
        self.host.show_quote(new=True)

    def action_back(self) -> None:
        """Back to the rates (or leave the folder field)."""
        if self.focused is not None:
            self.set_focus(None)
            return
        self.dismiss()

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Commands for the booked shipment."""

        for index, (label, value) in enumerate(self.numbers):
            yield SystemCommand(
                f"Copy {label}",
                escape(plain(value)),  # the palette reads its help as markup
                lambda index=index: self.action_copy(index),
            )
        yield SystemCommand("Save documents", "To the folder shown", self.action_save)
        yield SystemCommand("Print documents", "With lp", self.action_print)
        yield SystemCommand("Open shipment", "Its detail and tracking", self.action_open_shipment)
        yield SystemCommand(
            "Pickup", "Move it, ask for one, or cancel it (u)", lambda: self.action_change("pickup")
        )
        yield SystemCommand(
            "Cancel shipment", "Before its pickup (x)", lambda: self.action_change("cancel")
        )
        yield SystemCommand("New quote", "Start over", self.action_new_quote)
