"""Quote: where the freight goes and what it is; ctrl+r asks every carrier for rates."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Label, Select

from tui.domain.quote_form import MODES, FieldError, QuoteDraft, class_hint
from tui.host import Host, host_of
from tui.service_call import WorkerErrorsToHost
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.items_editor import ItemsEditor, TextCell
from tui.widgets.location_picker import LocationPicker
from tui.widgets.typeahead import TypeaheadFocus

if TYPE_CHECKING:
    from tui.screens.quote_address_book import Side
    from tui.screens.quote_templates import TemplateChoice

DRAFT_NAME = "quote"
SAVE_DELAY = 0.3


class QuoteScreen(
    TypeaheadFocus, WorkerErrorsToHost, Screen[None]
):  # Tab moves focus as it arrives
    """The quote form: ends, mode filter, items; validated as you type, kept as a draft."""

    HELP = """\
### Quote

Describe the shipment, then **ctrl+r** (or F9) gets every carrier's rates. The form is saved
as you type and comes back after a crash or a dropped SSH session.
"""

    HORIZONTAL_BREAKPOINTS = [
        (0, "-narrow"),
        (110, "-wide"),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
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

    @property
    def host(self) -> Host:
        """The app, as far as this screen may use it."""
        return host_of(self)

    # -- building --------------------------------------------------------------------------

    def _initial_draft(self) -> QuoteDraft:
        session = self.host.session
        saved = session.drafts.load(DRAFT_NAME)
        if saved is not None:
            draft = QuoteDraft.from_dict(saved)
            self._touched = draft.filled_fields()
            return draft
        origin = session.profile.default_origin
        if origin is None:
            return QuoteDraft()
        return QuoteDraft(origin_zip=origin.postal_code, origin_type=origin.location_type)

    def compose(self) -> ComposeResult:
        draft = self._initial_draft()
        yield FreightHeader()
        with Horizontal(id="quote-route"):
            yield LocationPicker("From", draft.origin_zip, draft.origin_type, id="origin")
            yield LocationPicker("To", draft.dest_zip, draft.dest_type, id="dest")
            yield Label("Show")
            yield Select(
                [(label, key) for key, label in MODES.items()],
                value=draft.mode,
                allow_blank=False,
                compact=True,
                id="quote-mode",
            )
        yield ItemsEditor(draft.items, id="items")
        yield TextCell("", id="quote-message")
        yield FreightFooter(compact=True)

    def on_mount(self) -> None:
        self._revalidate()
        origin = self.query_one("#origin", LocationPicker)
        first = origin.zip_input if not origin.postal_code else self._dest_zip
        if self.query_one("#dest", LocationPicker).postal_code and origin.postal_code:
            first = self.editor.input_for(0, "quantity")
        self.call_after_refresh(first.focus)

    def on_unmount(self) -> None:
        self._flush_draft()

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
        mode = self.query_one("#quote-mode", Select).value
        return QuoteDraft(
            mode=mode if isinstance(mode, str) else "all",
            origin_zip=origin.postal_code,
            origin_type=origin.location_type,
            dest_zip=dest.postal_code,
            dest_type=dest.location_type,
            items=self.editor.values(),
        )

    def widget_for(self, field: str) -> Widget:
        """The input a field error belongs to."""
        if field == "origin_zip":
            return self.query_one("#origin", LocationPicker).zip_input
        if field == "dest_zip":
            return self._dest_zip
        if field.startswith("items."):
            _, index, name = field.split(".", 2)
            rows = self.editor.rows
            return rows[min(int(index), len(rows) - 1)].field(name)
        return self.editor.input_for(0, "quantity")

    def _revalidate(self) -> QuoteDraft:
        draft = self.draft()
        self._errors = draft.errors()
        shown = {e.field for e in self._errors if self._show_all or e.field in self._touched}
        for name in ("origin_zip", "dest_zip"):
            _mark_invalid(self.widget_for(name), name in shown)
        for index, row in enumerate(self.editor.rows):
            for name, field in row.fields.items():
                _mark_invalid(field, f"items.{index}.{name}" in shown)
        self.editor.show_totals(draft.totals(), draft.incomplete_rows())
        self._show_message(draft, shown)
        return draft

    def _field_of(self, widget: Widget | None) -> str | None:
        if widget is None:
            return None
        if widget is self.widget_for("origin_zip"):
            return "origin_zip"
        if widget is self._dest_zip:
            return "dest_zip"
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
    @on(Select.Changed, "#quote-mode")
    def _form_changed(self, event: Any) -> None:
        self._changed()

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
            shown = {e.field for e in self._errors if self._show_all or e.field in self._touched}
            self._show_message(draft, shown)

    # -- actions ---------------------------------------------------------------------------

    async def action_add_row(self) -> None:
        index = self.editor.current_index()
        await self.editor.add_row(after=index)

    def action_get_rates(self) -> None:
        draft = self.draft()
        errors = draft.errors()
        if errors:
            self._show_all = True
            self._revalidate()
            first = errors[0]
            widget = self.widget_for(first.field)
            self.set_focus(widget)
            widget.scroll_visible()
            self._show_message(draft, {e.field for e in errors})
            return
        self._flush_draft()
        from tui.forms.quote_request import build_rate_request

        request = build_rate_request(draft)
        try:
            from tui.screens.rates import RatesScreen
        except ImportError:  # pragma: no cover - the rates screen is part of the app
            self.notify("Rates screen not available.", severity="error")
            return
        self.app.push_screen(RatesScreen(request, mode_filter=draft.mode_filter))

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
        self.set_focus(picker.type_select)

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
        yield SystemCommand("Clear the quote", "Start a new, empty quote", self.clear_form)

    def run_add_row(self) -> None:
        self.run_worker(self.action_add_row(), exclusive=False)

    def clear_form(self) -> None:
        """Start over: an empty form (the default origin stays)."""
        session = self.host.session
        session.drafts.clear(DRAFT_NAME)
        origin = session.profile.default_origin
        fresh = QuoteDraft(
            origin_zip=origin.postal_code if origin else "",
            origin_type=origin.location_type if origin else "business-dock",
        )
        self.run_worker(self._load(fresh), exclusive=True, group="quote-load")

    async def _load(self, draft: QuoteDraft) -> None:
        self.query_one("#origin", LocationPicker).set_location(draft.origin_zip, draft.origin_type)
        self.query_one("#dest", LocationPicker).set_location(draft.dest_zip, draft.dest_type)
        self.query_one("#quote-mode", Select).value = draft.mode
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
