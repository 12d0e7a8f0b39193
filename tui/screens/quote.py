"""Quote: where the freight goes and what it is; ctrl+r asks every carrier for rates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Label

from tui.domain.accessorials import Accessorial, liftgate_for, parse_accessorials
from tui.domain.locations import DEFAULT_LOCATION_TYPE, LOCATION_TYPES
from tui.domain.pickup_dates import (
    calendar_loaded,
    load_calendar,
    next_business_day,
    parse_pickup_date,
    region_of,
    short_date,
)
from tui.domain.quote_form import (
    DETAIL_FIELDS,
    EMERGENCY_FIELDS,
    ITEM_DETAILS,
    MODES,
    FieldError,
    QuoteDraft,
    class_hint,
)
from tui.forms import zip_places
from tui.host import Host, host_of
from tui.service_call import WorkerErrorsToHost
from tui.widgets.drop_down import DropDown
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.items_editor import ItemsEditor, TextCell
from tui.widgets.location_picker import LocationPicker
from tui.widgets.typeahead import TYPEAHEAD_BINDINGS

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from tui.screens.quote_address_book import Side
    from tui.screens.quote_item_details import ItemDetails
    from tui.screens.quote_templates import TemplateChoice

DRAFT_NAME = "quote"
SAVE_DELAY = 0.3
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


class QuoteScreen(WorkerErrorsToHost, Screen[None]):
    """The quote form: ends, mode filter, items; validated as you type, kept as a draft."""

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

    def __init__(self) -> None:
        super().__init__()
        self._touched: set[str] = set()
        self._show_all = False
        self._save_timer: Timer | None = None
        self._pending: QuoteDraft | None = None
        self._errors: list[FieldError] = []
        self._template_row = 0
        self._details_row: Any = None
        self._accessorials: tuple[Accessorial, ...] = ()
        self._emergency = ("", "")
        self._types: dict[str, str] = {}
        self._draft_word: tuple[str, SeverityLevel] | None = None
        """What to say of the draft the form came back from, once it is on screen."""

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    # -- building --------------------------------------------------------------------------

    def _initial_draft(self) -> QuoteDraft:
        from tui.drafts import damaged_note

        session = self.host.session
        read = session.drafts.read(DRAFT_NAME)
        if read.damaged:
            self._draft_word = (damaged_note("the quote", read), "warning")
        if read.data is not None:
            draft = QuoteDraft.from_dict(read.data)
            self._touched = draft.filled_fields()
            if draft != self._fresh_draft():
                when = read.saved_at.astimezone() if read.saved_at is not None else None
                saved = f" (saved {when:%a %H:%M})" if when is not None else ""
                self._draft_word = (
                    f"Restored the quote you were typing{saved}. To start afresh: ctrl+p, "
                    "Clear the quote.",
                    "information",
                )
            return draft
        return self._fresh_draft()

    def _say_draft_word(self) -> None:
        """Say that the form came back from its draft (or that a damaged one was kept aside)."""
        if self._draft_word is not None:
            message, severity = self._draft_word
            self._draft_word = None
            self.notify(message, title="Quote draft", severity=severity, timeout=8)

    def _fresh_draft(self) -> QuoteDraft:
        """An empty form from the default origin, with its usual pickup accessorials."""
        origin = self.host.session.origin_sketch()  # the first frame needs no typed profile
        if origin is None:
            return QuoteDraft()
        usual = [a for a in parse_accessorials(origin.accessorials) if a.end != "delivery"]
        return QuoteDraft(
            origin_zip=origin.postal_code,
            origin_type=origin.location_type,
            accessorials=tuple(usual),
        )

    def compose(self) -> ComposeResult:
        # The width class now, before the children are styled, spares a restyle of the
        # whole screen (a sixth of the first frame) when the first resize would set it.
        width = self.app.size.width
        for minimum, name in sorted(self.HORIZONTAL_BREAKPOINTS, reverse=True):
            if width >= minimum:
                self.add_class(name, update=False)
                break
        draft = self._initial_draft()
        self._accessorials = draft.accessorials
        self._emergency = (draft.emergency_name, draft.emergency_phone)
        self._types = {"origin": draft.origin_type, "dest": draft.dest_type}
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
        self._revalidate()
        if not zip_places.is_loaded():
            self.call_after_refresh(self.set_timer, ZIP_DATA_DELAY, self._load_zip_data)
        origin = self.query_one("#origin", LocationPicker)
        to_items = bool(self.query_one("#dest", LocationPicker).postal_code and origin.postal_code)
        if not to_items:  # at once: keys typed right after the first frame go to the ZIP
            self.set_focus(origin.zip_input if not origin.postal_code else self._dest_zip)
        # The first frame shows the form without the grid's inputs or the drop-downs' lists;
        # they are mounted right after it, and keys typed meanwhile wait for them.
        self.call_after_refresh(self._complete, self.host.hold_input(), to_items)
        if not calendar_loaded():
            self.call_after_refresh(self._load_calendar)
        self.call_after_refresh(self._say_draft_word)

    async def _complete(self, release: Callable[[], None], to_items: bool) -> None:
        try:
            await self.editor.complete()
            if to_items:
                self.editor.input_for(0, "quantity").focus()
        finally:
            release()

    def on_unmount(self) -> None:
        self._flush_draft()

    def _load_zip_data(self) -> None:
        self.run_worker(self._read_zip_data, thread=True, group="zip-data", exit_on_error=False)

    def _load_calendar(self) -> None:
        draft = self.draft()
        today, region = self.origin_today(draft), region_of(draft.origin_zip)

        def read() -> None:
            load_calendar(today, region)
            self.app.call_from_thread(self._revalidate)

        self.run_worker(read, thread=True, group="calendar", exit_on_error=False)

    def _read_zip_data(self) -> None:
        zip_places.load()
        self.app.call_from_thread(self._revalidate)

    # -- the form --------------------------------------------------------------------------

    @property
    def editor(self) -> ItemsEditor:
        return self.query_one("#items", ItemsEditor)

    @property
    def _dest_zip(self) -> Input:
        return self.query_one("#dest", LocationPicker).zip_input

    def draft(self) -> QuoteDraft:
        """The form as typed right now."""
        origin = self.query_one("#origin", LocationPicker)
        dest = self.query_one("#dest", LocationPicker)
        return QuoteDraft(
            mode=self.query_one("#quote-mode", DropDown).value,
            origin_zip=origin.postal_code,
            origin_type=origin.location_type,
            dest_zip=dest.postal_code,
            dest_type=dest.location_type,
            items=self.editor.values(),
            pickup_date=self.shipment_input("pickup_date").value,
            accessorials=self._accessorials,
            po_number=self.shipment_input("po_number").value,
            shipper_reference=self.shipment_input("shipper_reference").value,
            emergency_name=self._emergency[0],
            emergency_phone=self._emergency[1],
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
            return self.query_one("#origin", LocationPicker).zip_input
        if field == "dest_zip":
            return self._dest_zip
        if field in ("pickup_date", "po_number", "shipper_reference"):
            return self.shipment_input(field)
        if field.startswith("items."):
            _, index, name = field.split(".", 2)
            rows = self.editor.rows
            # Details live in a dialog: their row's description stands for them.
            name = "description" if name in DETAIL_FIELDS else name
            return rows[min(int(index), len(rows) - 1)].field(name)
        if field in EMERGENCY_FIELDS:
            return self.editor.input_for(self._first_hazardous_row(), "description")
        return self.editor.input_for(0, "quantity")

    def _first_hazardous_row(self) -> int:
        items = self.editor.values()
        return next((i for i, item in enumerate(items) if item.hazardous), 0)

    def _revalidate(self) -> QuoteDraft:
        draft = self.draft()
        today = self.origin_today(draft)
        self._errors = draft.errors(today=today, unknown_zip=zip_places.is_unknown)
        shown = self._shown()
        for name in ("origin_zip", "dest_zip", "pickup_date", "po_number", "shipper_reference"):
            _mark_invalid(self.widget_for(name), name in shown)
        marked = shown | self._detail_marks(shown)
        self.editor.show_invalid(marked)
        self.editor.show_totals(draft.totals(), draft.incomplete_rows())
        self._show_places(draft)
        self._show_shipment(draft, today)
        self._show_message(draft, shown)
        return draft

    def _detail_marks(self, shown: set[str]) -> set[str]:
        """A wrong detail (or emergency contact) marks its row's description, on the grid."""
        rows = {
            int(e.field.split(".")[1])
            for e in self._errors
            if e.in_details and e.field in shown and e.field.startswith("items.")
        }
        if any(e.field in EMERGENCY_FIELDS and e.field in shown for e in self._errors):
            rows.add(self._first_hazardous_row())
        return {f"items.{index}.description" for index in rows}

    def _shown(self) -> set[str]:
        return {e.field for e in self._errors if self._show_all or self._was_touched(e.field)}

    def _was_touched(self, field: str) -> bool:
        if field in self._touched:
            return True
        # A detail's or the contact's error shows once the dialog was used on its row.
        if field in EMERGENCY_FIELDS:
            return any(name.endswith(".details") for name in self._touched)
        parts = field.split(".")
        return (
            len(parts) == 3
            and parts[2] in DETAIL_FIELDS
            and (f"items.{parts[1]}.details" in self._touched)
        )

    def _show_places(self, draft: QuoteDraft) -> None:
        def where(code: str) -> str:
            if not code.strip():
                return "…"
            found = zip_places.place(code)
            if found is not None:
                return found.name
            return "unknown ZIP" if zip_places.is_unknown(code) else code.strip()

        self.query_one("#quote-places", TextCell).update(
            f"{where(draft.origin_zip)} → {where(draft.dest_zip)}"
        )

    def _show_shipment(self, draft: QuoteDraft, today: date) -> None:
        region = region_of(draft.origin_zip)
        text = ""
        # Blank is the next business day: known once the holidays are loaded (after the frame).
        if draft.pickup_date.strip() or calendar_loaded():
            with suppress(ValueError):
                text = short_date(parse_pickup_date(draft.pickup_date, today, region=region))
            placeholder = next_business_day(today, region).isoformat()
            self.shipment_input("pickup_date").placeholder = placeholder
        self.query_one("#quote-pickup-day", TextCell).update(text)
        chosen = ", ".join(a.short for a in draft.accessorials) or "none"
        self.query_one("#quote-extras", TextCell).update(f"Extras: {chosen} · ctrl+l to change")

    def _field_of(self, widget: Widget | None) -> str | None:
        if widget is None:
            return None
        if widget is self.widget_for("origin_zip"):
            return "origin_zip"
        if widget is self._dest_zip:
            return "dest_zip"
        if isinstance(widget, Input) and widget.id == f"quote-{widget.name}":
            return widget.name
        index = self.editor.current_index()
        name = self.editor.current_field()
        return None if index is None or name is None else f"items.{index}.{name}"

    def _show_message(self, draft: QuoteDraft, shown: set[str]) -> None:
        message = self.query_one("#quote-message", TextCell)
        visible = [e for e in self._errors if e.field in shown]
        focused_field = self._field_of(self.focused)
        here = next((e for e in visible if e.field == focused_field), None)
        error = here or (visible[0] if visible else None)
        if error is not None:
            more = len(visible) - 1
            suffix = f"  (+{more} more, ctrl+r)" if more else ""
            message.update(f"{error.label}: {error.message}{suffix}")
            message.add_class("-error")
            return
        message.remove_class("-error")
        index = self.editor.current_index()
        if index is not None and index < len(draft.items):
            message.update(class_hint(index, draft.items[index]))
        elif self._errors:
            message.update("ctrl+r get rates · ctrl+a address book · F1 help")
        else:
            message.update("Ready: ctrl+r (F9) gets rates")

    # -- changes ---------------------------------------------------------------------------

    def _changed(self) -> None:
        self._pending = self._revalidate()
        # A throttle, not a debounce: steady typing is still saved every SAVE_DELAY seconds.
        if self._save_timer is None:
            self._save_timer = self.set_timer(SAVE_DELAY, self._flush_draft)

    def _flush_draft(self) -> None:
        if self._save_timer is not None:
            self._save_timer.stop()
            self._save_timer = None
        pending, self._pending = self._pending, None
        if pending is not None:
            self.host.session.drafts.save(DRAFT_NAME, pending.to_dict())

    @on(ItemsEditor.Changed)
    def _items_changed(self, event: ItemsEditor.Changed) -> None:
        if event.rows_changed:
            # Row numbers moved under the touched-field marks: re-mark what holds text.
            ends = {name for name in self._touched if not name.startswith("items.")}
            self._touched = ends | {
                name for name in self.draft().filled_fields() if name.startswith("items.")
            }
        self._changed()

    @on(LocationPicker.Changed)
    @on(DropDown.Changed, "#quote-mode")
    def _form_changed(self, event: Any) -> None:
        if isinstance(event, LocationPicker.Changed):
            self._offer_liftgate(event.picker)
        self._changed()

    def _offer_liftgate(self, picker: LocationPicker) -> None:
        """A new residential, no-dock or limited-access end turns its liftgate on (once)."""
        side = picker.id or ""
        kind = picker.location_type
        if self._types.get(side, DEFAULT_LOCATION_TYPE) == kind:
            return
        self._types[side] = kind
        liftgate = liftgate_for("pickup" if side == "origin" else "delivery", kind)
        if liftgate is None or liftgate in self._accessorials:
            return
        self._accessorials = parse_accessorials([*self._accessorials, liftgate])
        self.notify(
            f"{liftgate.label} added: a {LOCATION_TYPES[kind].lower()} end usually needs one "
            "(ctrl+l to change).",
            timeout=5,
        )

    @on(Input.Changed, "#quote-shipment Input")
    def _shipment_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.has_focus and event.input.name:
            self._touched.add(event.input.name)
        self._changed()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        widget = event.widget
        name = widget.name if isinstance(widget, Input) else None
        if name and widget.id == f"quote-{name}" and name not in self._touched:
            self._touched.add(name)
            self._revalidate()

    @on(ItemsEditor.FieldTouched)
    def _item_touched(self, event: ItemsEditor.FieldTouched) -> None:
        field = f"items.{event.index}.{event.name}"
        if field not in self._touched:
            self._touched.add(field)
            self._revalidate()

    @on(LocationPicker.Touched)
    def _zip_touched(self, event: LocationPicker.Touched) -> None:
        field = "origin_zip" if event.picker.id == "origin" else "dest_zip"
        if field not in self._touched:
            self._touched.add(field)
            self._revalidate()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self.is_mounted and self.editor.is_mounted:
            draft = self.draft()
            self._show_message(draft, self._shown())

    # -- actions ---------------------------------------------------------------------------

    async def action_add_row(self) -> None:
        index = self.editor.current_index()
        await self.editor.add_row(after=index)

    def action_get_rates(self) -> None:
        draft = self.draft()
        today = self.origin_today(draft)
        errors = draft.errors(today=today, unknown_zip=zip_places.is_unknown)
        if errors:
            self._show_all = True
            self._revalidate()
            first = errors[0]
            widget = self.widget_for(first.field)
            self.set_focus(widget)
            widget.scroll_visible()
            self._show_message(draft, {e.field for e in errors})
            if first.in_details:
                self._open_details(first.field.rsplit(".", 1)[-1], show_all=True)
            return
        self._flush_draft()
        from tui.forms.quote_request import build_rate_request

        request = build_rate_request(draft, today)
        self.host.show_rates(request, draft.mode_filter)

    def action_address_book(self) -> None:
        from tui.screens.quote_address_book import QuoteAddressesScreen

        addresses = self.host.session.profile.address_book
        if not addresses:
            self.notify("The address book is empty (add addresses when booking).", timeout=4)
            return
        side: Side = "origin" if self._field_of(self.focused) == "origin_zip" else "dest"
        if self.query_one("#origin", LocationPicker).has_focus_within:
            side = "origin"
        self.app.push_screen(QuoteAddressesScreen(addresses, side), self._address_picked)

    def _address_picked(self, choice: tuple[Side, int] | None) -> None:
        if choice is None:
            return
        side, index = choice
        location = self.host.session.profile.address_book[index]
        picker = self.query_one("#origin" if side == "origin" else "#dest", LocationPicker)
        picker.set_location(location.postal_code, location.location_type)
        end = "pickup" if side == "origin" else "delivery"
        usual = [a for a in parse_accessorials(location.accessorials) if a.end in (end, "shipment")]
        if usual:
            self._accessorials = parse_accessorials([*self._accessorials, *usual])
            names = ", ".join(a.label.lower() for a in usual)
            self.notify(f"{location.label or location.postal_code}: {names} added.", timeout=4)
            self._changed()
        self.set_focus(picker.type_select)

    # -- second-level fields ---------------------------------------------------------------

    def action_accessorials(self) -> None:
        from tui.screens.quote_accessorials import AccessorialsScreen

        self.app.push_screen(AccessorialsScreen(self._accessorials), self._accessorials_chosen)

    def _accessorials_chosen(self, chosen: tuple[Accessorial, ...] | None) -> None:
        if chosen is not None and chosen != self._accessorials:
            self._accessorials = chosen
            self._changed()

    def action_item_details(self) -> None:
        self._open_details(None)

    def _open_details(self, field: str | None, *, show_all: bool = False) -> None:
        from tui.screens.quote_item_details import ItemDetailsScreen

        index = self.editor.current_index()
        if index is None:
            index = self._first_hazardous_row() if field in EMERGENCY_FIELDS else 0
        self._details_row = self.editor.rows[index]
        draft = self.draft()
        self.app.push_screen(
            ItemDetailsScreen(index, draft, field, show_all=show_all), self._details_done
        )

    def _details_done(self, details: ItemDetails | None) -> None:
        row = self._details_row
        if details is None or row not in self.editor.rows:
            return
        index = self.editor.rows.index(row)
        chosen: dict[str, Any] = {name: getattr(details.item, name) for name in ITEM_DETAILS}
        row.load(replace(row.item, **chosen))
        self._emergency = (details.emergency_name, details.emergency_phone)
        self._touched.add(f"items.{index}.details")
        self._changed()
        self.set_focus(row.field(self.editor.current_field() or "description"))

    def action_templates(self) -> None:
        from tui.screens.quote_templates import TemplatesScreen

        index = self.editor.current_index()
        row_index = index if index is not None else len(self.editor.rows) - 1
        item = self.editor.rows[row_index].item
        can_save = not item.is_blank() and not item.errors()
        self._template_row = row_index
        self.app.push_screen(
            TemplatesScreen(
                self.host.session.profile.item_templates,
                row_index if can_save else None,
                item.description.strip()[:30],
            ),
            self._template_chosen,
        )

    async def _template_chosen(self, choice: TemplateChoice | None) -> None:
        from tui.forms.templates import item_from_template, save_template

        if choice is None:
            return
        session = self.host.session
        row = self.editor.rows[min(self._template_row, len(self.editor.rows) - 1)]
        if choice.index is not None:
            item = item_from_template(session.profile.item_templates[choice.index])
            if row.item.is_blank():
                row.load(item)
                self.set_focus(row.field("quantity"))
            else:
                await self.editor.add_row(item, after=self.editor.rows.index(row))
        elif choice.name is not None:
            message = save_template(session, choice.name, row.item)
            self.notify(message, timeout=4)

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
        self.host.session.drafts.clear(DRAFT_NAME)
        self.run_worker(self._load(self._fresh_draft()), exclusive=True, group="quote-load")

    async def _load(self, draft: QuoteDraft) -> None:
        self._types = {"origin": draft.origin_type, "dest": draft.dest_type}
        self._accessorials = draft.accessorials
        self._emergency = (draft.emergency_name, draft.emergency_phone)
        for name, _label, _width, _placeholder in _SHIPMENT_INPUTS:
            self.shipment_input(name).value = getattr(draft, name)
        self.query_one("#origin", LocationPicker).set_location(draft.origin_zip, draft.origin_type)
        self.query_one("#dest", LocationPicker).set_location(draft.dest_zip, draft.dest_type)
        self.query_one("#quote-mode", DropDown).value = draft.mode
        for row in self.editor.rows:
            await row.remove()
        for item in draft.items:
            await self.editor.add_row(item)
        self._touched = draft.filled_fields()
        self._show_all = False
        self._changed()


def _mark_invalid(widget: Widget, invalid: bool) -> None:
    """Toggle the error style only when it changes (a restyle per keystroke adds up)."""
    if widget.has_class("-invalid") != invalid:
        widget.set_class(invalid, "-invalid")
