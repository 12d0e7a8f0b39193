"""Quote: where the freight goes and what it is; ctrl+r asks every carrier for rates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Input

from tui.domain.accessorials import Accessorial, offered_liftgate, parse_accessorials
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
    FieldError,
    QuoteDraft,
)
from tui.forms import zip_places
from tui.forms.quote_lines import extras_line, form_message, pickup_day, places_line
from tui.forms.quote_marks import FieldMarks
from tui.host import Host, host_of
from tui.screens.modal import FreightScreen
from tui.screens.quote_dialogs import (
    first_hazardous_row,
    open_accessorials,
    open_address_book,
    open_item_details,
    open_templates,
)
from tui.screens.quote_draft import DRAFT_NAME, QuoteDraftKeeper
from tui.service_call import WorkerErrorsToHost
from tui.widgets.drop_down import DropDown
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.items_editor import ItemsEditor, TextCell
from tui.widgets.location_picker import LocationPicker
from tui.widgets.plain import Label
from tui.widgets.typeahead import TYPEAHEAD_BINDINGS

if TYPE_CHECKING:
    from tui.screens.quote_address_book import Side

__all__ = ["DRAFT_NAME", "QuoteScreen", "now"]

ZIP_DATA_DELAY = 0.2
"""Seconds after the first frame before the ZIP data is read (in a thread)."""

# (field, label, input width, placeholder)
_SHIPMENT_INPUTS: tuple[tuple[str, str, int, str], ...] = (
    ("pickup_date", "Pickup", 12, ""),
    ("po_number", "PO", 12, "PO / order"),
    ("shipper_reference", "Ref", 12, "your ref"),
)


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

**Pickup**: blank is the next business day at the origin; type `2026-11-24`, `11-24`,
`11/24`, `today`, `tomorrow`, `+2` or a weekday (`fri`). Weekends and past days are refused.
**PO** is the consignee's PO / order number, **Ref** your own reference; both go on the BOL.

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
        self.marks = FieldMarks()
        self._errors: list[FieldError] = []
        self.accessorials: tuple[Accessorial, ...] = ()
        self.emergency = ("", "")
        self.types: dict[str, str] = {}
        self.keeper = QuoteDraftKeeper(self)

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    # -- building --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # The width class now, before the children are styled, spares a restyle of the
        # whole screen (a sixth of the first frame) when the first resize would set it.
        width = self.app.size.width
        for minimum, name in sorted(self.HORIZONTAL_BREAKPOINTS, reverse=True):
            if width >= minimum:
                self.add_class(name, update=False)
                break
        draft = self.keeper.initial()
        self.accessorials = draft.accessorials
        self.emergency = (draft.emergency_name, draft.emergency_phone)
        self.types = {"origin": draft.origin_type, "dest": draft.dest_type}
        yield FreightHeader()
        with Horizontal(id="quote-route"):
            yield LocationPicker("From", draft.origin_zip, draft.origin_type, id="origin")
            yield LocationPicker("To", draft.dest_zip, draft.dest_type, id="dest")
            yield Label("Show")
            yield DropDown(
                [(label, key) for key, label in MODES.items()], draft.mode, id="quote-mode"
            )
        yield TextCell("", id="quote-places")
        yield ItemsEditor(draft.items, id="items")
        with Horizontal(id="quote-shipment"):
            for name, label, width, placeholder in _SHIPMENT_INPUTS:
                yield Label(label)
                field = Input(
                    getattr(draft, name),
                    placeholder=placeholder,
                    id=f"quote-{name}",
                    name=name,
                    compact=True,
                    max_length=60,
                )
                field.styles.width = width
                yield field
                if name == "pickup_date":
                    yield TextCell("", id="quote-pickup-day")
        yield TextCell("", id="quote-extras")
        yield TextCell("", id="quote-message")
        yield FreightFooter(compact=True)

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
            self.call_after_refresh(self.set_timer, ZIP_DATA_DELAY, self._load_zip_data)
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
            self.call_after_refresh(self._load_calendar)
        self.call_after_refresh(self.keeper.say_word)

    def on_unmount(self) -> None:
        self.keeper.flush()

    def _load_zip_data(self) -> None:
        def read() -> None:
            zip_places.load()
            self.app.call_from_thread(self.revalidate)

        self.run_worker(read, thread=True, group="zip-data", exit_on_error=False)

    def _load_calendar(self) -> None:
        draft = self.draft()
        today, region = self.origin_today(draft), region_of(draft.origin_zip)

        def read() -> None:
            load_calendar(today, region)
            self.app.call_from_thread(self.revalidate)

        self.run_worker(read, thread=True, group="calendar", exit_on_error=False)

    # -- the form --------------------------------------------------------------------------

    @property
    def editor(self) -> ItemsEditor:
        return self.query_one("#items", ItemsEditor)

    @property
    def origin_picker(self) -> LocationPicker:
        return self.query_one("#origin", LocationPicker)

    @property
    def dest_picker(self) -> LocationPicker:
        return self.query_one("#dest", LocationPicker)

    @property
    def mode_select(self) -> DropDown:
        return self.query_one("#quote-mode", DropDown)

    def draft(self) -> QuoteDraft:
        """The form as typed right now."""
        origin = self.origin_picker
        dest = self.dest_picker
        return QuoteDraft(
            mode=self.mode_select.value,
            origin_zip=origin.postal_code,
            origin_type=origin.location_type,
            dest_zip=dest.postal_code,
            dest_type=dest.location_type,
            items=self.editor.values(),
            pickup_date=self.shipment_input("pickup_date").value,
            accessorials=self.accessorials,
            po_number=self.shipment_input("po_number").value,
            shipper_reference=self.shipment_input("shipper_reference").value,
            emergency_name=self.emergency[0],
            emergency_phone=self.emergency[1],
        )

    def shipment_input(self, name: str) -> Input:
        """The input of `pickup_date`, `po_number` or `shipper_reference`."""
        return self.query_one(f"#quote-{name}", Input)

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
        if field in ("pickup_date", "po_number", "shipper_reference"):
            return self.shipment_input(field)
        if field.startswith("items."):
            _, index, name = field.split(".", 2)
            rows = self.editor.rows
            # Details live in a dialog: their row's description stands for them.
            name = "description" if name in DETAIL_FIELDS else name
            return rows[min(int(index), len(rows) - 1)].field(name)
        if field in EMERGENCY_FIELDS:
            return self.editor.input_for(first_hazardous_row(self), "description")
        return self.editor.input_for(0, "quantity")

    def revalidate(self) -> QuoteDraft:
        """Check the form as typed; mark, total and describe it. The draft checked."""
        draft = self.draft()
        today = self.origin_today(draft)
        self._errors = draft.errors(today=today, unknown_zip=zip_places.is_unknown)
        shown = self.marks.shown(self._errors)
        for name in ("origin_zip", "dest_zip", "pickup_date", "po_number", "shipper_reference"):
            _mark_invalid(self.widget_for(name), name in shown)
        marked = shown | self.marks.detail_marks(self._errors, shown, first_hazardous_row(self))
        self.editor.show_invalid(marked)
        self.editor.show_totals(draft.totals(), draft.incomplete_rows())
        self._show_lines(draft, today)
        self._show_message(draft, shown)
        return draft

    def _show_lines(self, draft: QuoteDraft, today: date) -> None:
        self.query_one("#quote-places", TextCell).update(places_line(draft))
        day, placeholder = pickup_day(draft, today)
        if placeholder is not None:
            self.shipment_input("pickup_date").placeholder = placeholder
        self.query_one("#quote-pickup-day", TextCell).update(day)
        self.query_one("#quote-extras", TextCell).update(extras_line(draft))

    def _field_of(self, widget: Widget | None) -> str | None:
        if widget is None:
            return None
        if widget is self.widget_for("origin_zip"):
            return "origin_zip"
        if widget is self.dest_picker.zip_input:
            return "dest_zip"
        if isinstance(widget, Input) and widget.id == f"quote-{widget.name}":
            return widget.name
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
    def _form_changed(self, event: LocationPicker.Changed | DropDown.Changed) -> None:
        if isinstance(event, LocationPicker.Changed):
            # A new residential, no-dock or limited-access end turns its liftgate on (once).
            side, kind = event.picker.id or "", event.picker.location_type
            liftgate = offered_liftgate(self.types, side, kind, self.accessorials)
            self.types[side] = kind
            if liftgate is not None:
                self.accessorials = parse_accessorials([*self.accessorials, liftgate])
                self.notify(
                    f"{liftgate.label} added: a {LOCATION_TYPES[kind].lower()} end usually "
                    "needs one (ctrl+l to change).",
                    timeout=5,
                )
        self.keeper.changed()

    @on(Input.Changed, "#quote-shipment Input")
    def _shipment_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.has_focus and event.input.name:
            self.marks.touched.add(event.input.name)
        self.keeper.changed()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        widget = event.widget
        name = widget.name if isinstance(widget, Input) else None
        if name and widget.id == f"quote-{name}" and self.marks.touch(name):
            self.revalidate()

    @on(ItemsEditor.FieldTouched)
    @on(LocationPicker.Touched)
    def _field_touched(self, event: ItemsEditor.FieldTouched | LocationPicker.Touched) -> None:
        if isinstance(event, ItemsEditor.FieldTouched):
            field = f"items.{event.index}.{event.name}"
        else:
            field = "origin_zip" if event.picker.id == "origin" else "dest_zip"
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
            self.marks.show_all = True
            self.revalidate()
            first = errors[0]
            widget = self.widget_for(first.field)
            self.set_focus(widget)
            widget.scroll_visible()
            self._show_message(draft, {e.field for e in errors})
            if first.in_details:
                open_item_details(self, first.field.rsplit(".", 1)[-1], show_all=True)
            return
        self.keeper.flush()
        from tui.forms.quote_request import build_rate_request

        request = build_rate_request(draft, today)
        self.host.show_rates(request, draft.mode_filter)

    def action_address_book(self) -> None:
        side: Side = "origin" if self._field_of(self.focused) == "origin_zip" else "dest"
        if self.origin_picker.has_focus_within:
            side = "origin"
        self.run_worker(open_address_book(self, side), group="address-book", exclusive=True)

    # -- second-level fields ---------------------------------------------------------------

    def action_accessorials(self) -> None:
        open_accessorials(self)

    def action_item_details(self) -> None:
        open_item_details(self, None, show_all=False)

    def action_templates(self) -> None:
        open_templates(self)

    def palette_commands(self) -> Iterable[SystemCommand]:
        """What the command palette offers while the quote form is shown."""
        yield SystemCommand("Get rates", "Ask every carrier (ctrl+r, F9)", self.action_get_rates)
        yield SystemCommand("Add item row", "ctrl+n, F5", self.run_add_row)
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

    def run_add_row(self) -> None:
        self.run_worker(self.action_add_row(), exclusive=False)

    def clear_form(self) -> None:
        """Start over: an empty form (the default origin stays)."""
        fresh = self.keeper.clear()
        self.run_worker(self.keeper.load(fresh), exclusive=True, group="quote-load")


def _mark_invalid(widget: Widget, invalid: bool) -> None:
    """Toggle the error style only when it changes (a restyle per keystroke adds up)."""
    if widget.has_class("-invalid") != invalid:
        widget.set_class(invalid, "-invalid")
