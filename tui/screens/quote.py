"""Quote: where the freight goes and what it is; ctrl+r asks every carrier for rates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget

from tui.domain.locations import LOCATION_TYPES
from tui.domain.pickup_dates import (
    calendar_loaded,
    load_calendar,
    region_of,
)
from tui.domain.quote_form import (
    DETAIL_FIELDS,
    EMERGENCY_FIELDS,
    MODES,
    SHIPMENT_FIELDS,
    FieldError,
    QuoteDraft,
)
from tui.forms import zip_places
from tui.forms.quote_extras import QuoteExtras
from tui.forms.quote_lines import (
    extras_line,
    form_message,
    liftgate_warning,
    pickup_day,
    places_line,
)
from tui.forms.quote_marks import FieldMarks
from tui.host import Host, host_of
from tui.screens.freight_screen import FreightScreen
from tui.screens.quote_dialogs import (
    first_hazardous_row,
    open_accessorials,
    open_address_book,
    open_item_details,
    open_templates,
    say_booked,
)
from tui.screens.quote_draft import DRAFT_NAME, QuoteDraftKeeper
from tui.screens.width_class import add_width_class
from tui.service_call import WorkerErrorsToHost
from tui.widgets.drop_down import DropDown
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.items_editor import ItemsEditor, TextCell
from tui.widgets.location_picker import LocationPicker
from tui.widgets.shipment_fields import ShipmentFields
from tui.widgets.typeahead import TYPEAHEAD_BINDINGS

if TYPE_CHECKING:
    from tui.screens.quote_address_book import Side

__all__ = ["DRAFT_NAME", "QuoteScreen", "now"]

ZIP_DATA_DELAY = 0.2
"""Seconds after the first frame before the ZIP data is read (in a thread)."""


def now() -> datetime:
    """The current time (tests replace it); the pickup day is taken at the origin's zone."""
    return datetime.now(UTC)


class QuoteScreen(WorkerErrorsToHost, FreightScreen[None]):
    """The quote form: ends, mode filter, items; validated as you type, kept as a draft."""

    TITLE = "Quote"

    HELP = """\
### Quote

Describe the shipment, then **ctrl+r** (or F9) gets every carrier's rates. The form is saved
as you type and comes back after a crash or a dropped SSH session.

The line under the items is one Tab stop that lands on **Ref**, your own reference; Tab
goes on to **PO** (the consignee's PO / order number; both go on the BOL) and **Pickup**:
blank is the next business day at the origin; type `2026-11-24`, `11-24`, `11/24`, `today`,
`tomorrow`, `+2` or a weekday (`fri`). Weekends and past days are refused.

**ctrl+l** (alt+l): accessorials such as liftgate, inside delivery, delivery appointment.
**ctrl+o** (alt+i): the focused row's NMFC item, stackable and hazmat data (UN number, class,
packing group), and the emergency contact hazardous freight needs.
"""

    AUTO_FOCUS = ""
    """The form picks its first field itself on mount (the ZIP to fill, or the grid): Textual's
    own pick came first and moved right after, restyling both fields before the first frame.
    Empty, not None: None is "the app's choice", which is every focusable widget."""
    HORIZONTAL_BREAKPOINTS = [
        (0, "-narrow"),
        (110, "-wide"),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        *TYPEAHEAD_BINDINGS,  # Tab moves focus as it arrives
        Binding("ctrl+n,f5", "add_row", "Add", id="quote.add_item", tooltip="Add a row (F5)"),
        Binding(
            "ctrl+t,f8",
            "templates",
            "Tmpl",
            id="quote.templates",
            tooltip="Insert a saved item, or save this row as one (F8)",
        ),
        Binding(
            "ctrl+r,f9",
            "get_rates",
            "Get rates",
            id="quote.get_rates",
            tooltip="Ask for rates; jumps to the first wrong field instead (F9)",
        ),
        Binding(
            "ctrl+o,alt+i",
            "item_details",
            "Details",
            id="quote.item_details",
            tooltip="This row's NMFC, stackable, hazmat and the emergency contact (alt+i)",
            show=False,
        ),
        Binding(
            "ctrl+l,alt+l",
            "accessorials",
            "Extras",
            id="quote.accessorials",
            tooltip="Accessorials: liftgate, inside delivery, appointment… (alt+l)",
            show=False,
        ),
        Binding(
            "ctrl+a,f10",
            "address_book",
            "Addresses",
            id="quote.address_book",
            tooltip="Pick origin or destination from the address book (F10)",
            priority=True,
            show=False,
        ),
    ]

    CSS_PATH = "quote.tcss"

    def __init__(self, *, when_mounted: Callable[[], None] | None = None) -> None:
        """`when_mounted` is called once the form is mounted and a field has focus (the app's
        first screen releases the keys typed while it started)."""
        super().__init__()
        self._when_mounted = when_mounted
        self._resumed = False
        self.marks = FieldMarks()
        self._errors: list[FieldError] = []
        self.extras = QuoteExtras(changed=lambda: self.keeper.changed())
        self.keeper: QuoteDraftKeeper
        """Made in `compose`, once the session is known."""

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    # -- building --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        add_width_class(self)
        self.keeper = QuoteDraftKeeper(
            self.host.session, check=self.revalidate, schedule=self.set_timer
        )
        draft = self.keeper.initial()
        if self.keeper.restored:
            self.marks.reset(draft.filled_fields())
        self.extras.reset(draft)
        self.origin_picker = LocationPicker(
            "From", draft.origin_zip, draft.origin_type, id="origin"
        )
        self.dest_picker = LocationPicker("To", draft.dest_zip, draft.dest_type, id="dest")
        modes = [(label, key) for key, label in MODES.items()]
        self.mode_select = DropDown(modes, draft.mode, id="quote-mode")
        self.editor = ItemsEditor(draft.items, id="items")
        self.shipment = ShipmentFields(draft, id="quote-shipment")
        """Pickup date, PO and reference."""
        yield FreightHeader()
        with Horizontal(id="quote-route"):
            yield self.origin_picker
            yield self.dest_picker
            yield TextCell("Show", classes="-label")
            yield self.mode_select
        yield TextCell("", id="quote-places", classes="-note")
        yield self.editor
        yield self.shipment
        yield TextCell("", id="quote-extras", classes="-note")
        yield TextCell("", id="quote-message", classes="-note")
        yield FreightFooter(compact=True)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first time the form shows, its nodes were styled as they were mounted, a moment
        before: Textual would style every one of them again (and each input's parts) before
        the first frame. Later resumes (after a dialog, another mode, a theme change) do."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        try:
            self._start()
        finally:
            if self._when_mounted is not None:
                self._when_mounted()
                self._when_mounted = None

    def _start(self) -> None:
        self.revalidate()
        if not zip_places.is_loaded():
            read_zips = partial(self._read_in_thread, "zip-data", zip_places.load)
            self.call_after_refresh(self.set_timer, ZIP_DATA_DELAY, read_zips)
        # At once: keys typed right after the first frame go to the ZIP to fill, else to the
        # grid (which builds its inputs as it gets focus; keys typed meanwhile wait for them).
        origin, dest = self.origin_picker, self.dest_picker
        if not origin.postal_code:
            self.set_focus(origin.zip_input)
        elif not dest.postal_code:
            self.set_focus(dest.zip_input)
        else:
            self.set_focus(self.editor.entry)
        if not calendar_loaded():

            def read_calendar() -> None:
                # The origin's day and region as the form holds them after the first frame.
                draft = self.draft()
                today, region = self.origin_today(draft), region_of(draft.origin_zip)
                self._read_in_thread("calendar", partial(load_calendar, today, region))

            self.call_after_refresh(read_calendar)
        if self.keeper.booked is not None:
            saying = say_booked(self.app, self.host.session, self.keeper, self.clear_form)
            self.run_worker(saying, group="quote-booked", exclusive=True)
        if self.keeper.word is not None:
            # That the form came back from its draft (or that a damaged one was kept aside).
            message, severity = self.keeper.word
            say = partial(self.notify, title="Quote draft", severity=severity, timeout=8)
            self.call_after_refresh(say, message)

    def on_unmount(self) -> None:
        self.keeper.close()

    def _read_in_thread(self, group: str, read: Callable[[], object]) -> None:
        """Read reference data (ZIP places, holidays) off the event loop; check the form
        again once it is known."""

        def work() -> None:
            read()
            self.app.call_from_thread(self.revalidate)

        self.run_worker(work, thread=True, group=group, exit_on_error=False)

    # -- the form --------------------------------------------------------------------------

    def draft(self) -> QuoteDraft:
        """The form as typed right now."""
        origin = self.origin_picker
        dest = self.dest_picker
        shipment = self.shipment
        extras = self.extras
        return QuoteDraft(
            mode=self.mode_select.value,
            origin_zip=origin.postal_code,
            origin_type=origin.location_type,
            dest_zip=dest.postal_code,
            dest_type=dest.location_type,
            items=self.editor.values(),
            pickup_date=shipment.value("pickup_date"),
            accessorials=extras.accessorials,
            po_number=shipment.value("po_number"),
            shipper_reference=shipment.value("shipper_reference"),
            emergency_name=extras.emergency[0],
            emergency_phone=extras.emergency[1],
        )

    def origin_today(self, draft: QuoteDraft | None = None) -> date:
        """Today at the origin (its ZIP's time zone; the local date until that is known)."""
        origin = draft.origin_zip if draft is not None else self.draft().origin_zip
        return zip_places.today_at(origin, now())

    def widget_for(self, field: str) -> Widget:
        """The input a field error belongs to."""
        if field == "origin_zip":
            return self.origin_picker.zip_input
        if field == "dest_zip":
            return self.dest_picker.zip_input
        if field in SHIPMENT_FIELDS:
            return self.shipment.widget_for(field)
        if field.startswith("items."):
            _, index, name = field.split(".", 2)
            last = len(self.editor.rows) - 1
            # Details live in a dialog: their row's description stands for them.
            name = "description" if name in DETAIL_FIELDS else name
            return self.editor.input_for(min(int(index), last), name)
        if field in EMERGENCY_FIELDS:
            return self.editor.input_for(first_hazardous_row(self.editor.values()), "description")
        return self.editor.input_for(0, "quantity")

    def revalidate(self) -> QuoteDraft:
        """Check the form as typed; mark, total and describe it. The draft checked."""
        draft = self.draft()
        today = self.origin_today(draft)
        self._errors = draft.errors(today=today, unknown_zip=zip_places.is_unknown)
        shown = self.marks.shown(self._errors)
        for name in ("origin_zip", "dest_zip"):
            _mark_invalid(self.widget_for(name), name in shown)
        for name in SHIPMENT_FIELDS:
            self.shipment.mark_invalid(name, name in shown)
        hazardous = first_hazardous_row(draft.items)
        marked = shown | self.marks.detail_marks(self._errors, shown, hazardous)
        self.editor.show_invalid(marked)
        self.editor.show_totals(draft.totals(), draft.incomplete_rows())
        self._show_lines(draft, today)
        self._show_message(draft, shown)
        return draft

    def _show_lines(self, draft: QuoteDraft, today: date) -> None:
        self.query_one("#quote-places", TextCell).update(places_line(draft))
        self.shipment.show_day(*pickup_day(draft, today))
        extras = self.query_one("#quote-extras", TextCell)
        extras.update(extras_line(draft))
        warned = bool(liftgate_warning(draft))
        if extras.has_class("-warning") != warned:
            extras.set_class(warned, "-warning")

    def _field_of(self, widget: Widget | None) -> str | None:
        if widget is None:
            return None
        if widget is self.widget_for("origin_zip"):
            return "origin_zip"
        if widget is self.dest_picker.zip_input:
            return "dest_zip"
        name = self.shipment.name_of(widget)
        if name is not None:
            return name
        index = self.editor.current_index()
        name = self.editor.current_field()
        return None if index is None or name is None else f"items.{index}.{name}"

    def _show_message(self, draft: QuoteDraft, shown: set[str]) -> None:
        focused = self._field_of(self.focused)
        text, error = form_message(draft, self._errors, shown, focused, self.editor.current_index())
        message = self.query_one("#quote-message", TextCell)
        message.update(text)
        message.set_class(error, "-error")

    # -- changes ---------------------------------------------------------------------------

    @on(ItemsEditor.Changed)
    def _items_changed(self, event: ItemsEditor.Changed) -> None:
        if event.rows_changed:
            # Row numbers moved under the touched-field marks: re-mark what holds text.
            self.marks.rows_moved(self.draft().filled_fields())
        self.keeper.changed()

    @on(LocationPicker.Changed)
    @on(DropDown.Changed, "#quote-mode")
    @on(ShipmentFields.Changed)
    def _form_changed(
        self, event: LocationPicker.Changed | DropDown.Changed | ShipmentFields.Changed
    ) -> None:
        if isinstance(event, ShipmentFields.Changed) and event.typed:
            self.marks.touched.add(event.name)
        if isinstance(event, LocationPicker.Changed):
            # A new residential, no-dock or limited-access end turns its liftgate on (once).
            kind = event.control.location_type
            liftgate = self.extras.end_type(event.control.id or "", kind)
            if liftgate is not None:
                self.notify(
                    f"{liftgate.label} added: a {LOCATION_TYPES[kind].lower()} end usually "
                    "needs one (ctrl+l to change).",
                    timeout=5,
                )
        self.keeper.changed()

    @on(ItemsEditor.FieldTouched)
    @on(LocationPicker.Touched)
    @on(ShipmentFields.Left)
    def _field_touched(
        self, event: ItemsEditor.FieldTouched | LocationPicker.Touched | ShipmentFields.Left
    ) -> None:
        if isinstance(event, ItemsEditor.FieldTouched):
            field = f"items.{event.index}.{event.name}"
        elif isinstance(event, ShipmentFields.Left):
            field = event.name
        else:
            field = "origin_zip" if event.control.id == "origin" else "dest_zip"
        if self.marks.touch(field):
            self.revalidate()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self.is_mounted and self.editor.is_mounted:
            draft = self.draft()
            self._show_message(draft, self.marks.shown(self._errors))

    # -- actions ---------------------------------------------------------------------------

    async def action_add_row(self) -> None:
        index = self.editor.current_index()
        await self.editor.add_row(after=index)

    async def action_get_rates(self) -> None:
        draft = self.draft()
        today = self.origin_today(draft)
        errors = draft.errors(today=today, unknown_zip=zip_places.is_unknown)
        if errors:
            await self.editor.complete()  # the field to fix may be one of the grid's inputs
            if errors[0].field in SHIPMENT_FIELDS:
                await self.shipment.complete()
            self.marks.show_all = True
            self.revalidate()
            first = errors[0]
            widget = self.widget_for(first.field)
            self.set_focus(widget)
            widget.scroll_visible()
            self._show_message(draft, {e.field for e in errors})
            if first.in_details:
                self._open_item_details(first.field.rsplit(".", 1)[-1], show_all=True)
            return
        self.keeper.flush()
        from tui.forms.quote_request import build_rate_request

        request = build_rate_request(draft, today)
        self.host.show_rates(request, draft.mode_filter)

    def action_address_book(self) -> None:
        side: Side = "origin" if self._field_of(self.focused) == "origin_zip" else "dest"
        if self.origin_picker.has_focus_within:
            side = "origin"
        pickers: dict[Side, LocationPicker] = {
            "origin": self.origin_picker,
            "dest": self.dest_picker,
        }
        opening = open_address_book(self.app, self.host.session, side, pickers, self.extras)
        self.run_worker(opening, group="address-book", exclusive=True)

    # -- second-level fields ---------------------------------------------------------------

    def action_accessorials(self) -> None:
        open_accessorials(self.app, self.extras)

    def action_item_details(self) -> None:
        self._open_item_details(None, show_all=False)

    def _open_item_details(self, field: str | None, *, show_all: bool) -> None:
        open_item_details(
            self.editor, self.draft(), self.extras, self.marks, field, show_all=show_all
        )

    def action_templates(self) -> None:
        open_templates(self.editor, self.host.session)

    def palette_commands(self) -> Iterable[SystemCommand]:
        """What the command palette offers while the quote form is shown."""

        def add_row() -> None:
            self.run_worker(self.action_add_row(), exclusive=False)

        yield SystemCommand("Get rates", "Ask every carrier (ctrl+r, F9)", self.action_get_rates)
        yield SystemCommand("Add item row", "ctrl+n, F5", add_row)
        yield SystemCommand("Item templates", "Insert or save (ctrl+t, F8)", self.action_templates)
        yield SystemCommand("Address book", "ctrl+a, F10", self.action_address_book)
        yield SystemCommand(
            "Accessorials",
            "Liftgate, inside delivery, appointment… (ctrl+l)",
            self.action_accessorials,
        )
        yield SystemCommand(
            "Item details", "NMFC, stackable, hazmat of the row (ctrl+o)", self.action_item_details
        )
        yield SystemCommand("Clear the quote", "Start a new, empty quote", self.clear_form)

    def clear_form(self) -> None:
        """Start over: an empty form (the default origin stays)."""
        fresh = self.keeper.clear()
        self.run_worker(self._load(fresh), exclusive=True, group="quote-load")

    async def _load(self, draft: QuoteDraft) -> None:
        """Put a whole draft into the form."""
        self.extras.reset(draft)
        self.shipment.load(draft)
        self.origin_picker.set_location(draft.origin_zip, draft.origin_type)
        self.dest_picker.set_location(draft.dest_zip, draft.dest_type)
        self.mode_select.value = draft.mode
        editor = self.editor
        for row in editor.rows:
            await row.remove()
        for item in draft.items:
            await editor.add_row(item)
        self.marks.reset(draft.filled_fields())
        self.keeper.changed()


def _mark_invalid(widget: Widget, invalid: bool) -> None:
    """Toggle the error style only when it changes (a restyle per keystroke adds up)."""
    if widget.has_class("-invalid") != invalid:
        widget.set_class(invalid, "-invalid")
