"""The quote form's second-level dialogs and what each brings back into the form: the
address book (an end), accessorials, a row's item details, item templates."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from tui.domain.accessorials import Accessorial, parse_accessorials
from tui.domain.quote_form import EMERGENCY_FIELDS, ITEM_DETAILS
from tui.domain.safe_text import plain
from tui.screens.quote_draft import QuoteDraftKeeper, QuoteForm

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from tui.screens.quote_address_book import Side
    from tui.screens.quote_item_details import ItemDetails
    from tui.screens.quote_templates import TemplateChoice


class QuoteDialogsForm(QuoteForm, Protocol):
    """What the dialogs need of the quote screen beyond the draft's needs."""

    keeper: QuoteDraftKeeper

    @property
    def app(self) -> App[object]: ...

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...


def first_hazardous_row(form: QuoteForm) -> int:
    """The row the emergency contact belongs to: the first hazardous one (else the first)."""
    items = form.editor.values()
    return next((i for i, item in enumerate(items) if item.hazardous), 0)


async def open_address_book(form: QuoteDialogsForm, side: Side) -> None:
    """Pick an end from the address book (as the store holds it now: read off the event
    loop); its usual accessorials come with it."""
    from tui.screens.quote_address_book import QuoteAddressesScreen

    try:
        addresses = await asyncio.to_thread(form.host.session.address_book)
    except OSError as error:
        form.notify(f"The address book cannot be read: {plain(str(error))}", severity="error")
        return
    if not addresses:
        form.notify("The address book is empty (add addresses when booking).", timeout=4)
        return

    def picked(choice: tuple[Side, int] | None) -> None:
        if choice is None:
            return
        side, index = choice
        location = addresses[index]
        picker = form.origin_picker if side == "origin" else form.dest_picker
        picker.set_location(location.postal_code, location.location_type)
        end = "pickup" if side == "origin" else "delivery"
        usual = [a for a in parse_accessorials(location.accessorials) if a.end in (end, "shipment")]
        if usual:
            form.accessorials = parse_accessorials([*form.accessorials, *usual])
            names = ", ".join(a.label.lower() for a in usual)
            form.notify(f"{location.label or location.postal_code}: {names} added.", timeout=4)
            form.keeper.changed()
        form.set_focus(picker.type_select)

    form.app.push_screen(QuoteAddressesScreen(addresses, side), picked)


def open_accessorials(form: QuoteDialogsForm) -> None:
    """Choose the shipment's accessorials."""
    from tui.screens.quote_accessorials import AccessorialsScreen

    def chosen(accessorials: tuple[Accessorial, ...] | None) -> None:
        if accessorials is not None and accessorials != form.accessorials:
            form.accessorials = accessorials
            form.keeper.changed()

    form.app.push_screen(AccessorialsScreen(form.accessorials), chosen)


def open_item_details(form: QuoteDialogsForm, field: str | None, *, show_all: bool) -> None:
    """The current row's details (or the hazardous row's, for the emergency contact),
    focused on `field`; `show_all` shows every error at once."""
    from tui.screens.quote_item_details import ItemDetailsScreen

    editor = form.editor
    index = editor.current_index()
    if index is None:
        index = first_hazardous_row(form) if field in EMERGENCY_FIELDS else 0
    row = editor.rows[index]

    async def done(details: ItemDetails | None) -> None:
        if details is None or row not in editor.rows:
            return
        await editor.complete()  # opened from outside the grid: its inputs may not be built
        index = editor.rows.index(row)
        chosen: dict[str, Any] = {name: getattr(details.item, name) for name in ITEM_DETAILS}
        row.load(replace(row.item, **chosen))
        form.emergency = (details.emergency_name, details.emergency_phone)
        form.marks.touched.add(f"items.{index}.details")
        form.keeper.changed()
        form.set_focus(row.field(editor.current_field() or "description"))

    form.app.push_screen(ItemDetailsScreen(index, form.draft(), field, show_all=show_all), done)


def open_templates(form: QuoteDialogsForm) -> None:
    """Insert a saved item at the current row, or save the row as a template."""
    from tui.screens.quote_templates import TemplatesScreen

    editor = form.editor
    index = editor.current_index()
    row_index = index if index is not None else len(editor.rows) - 1
    item = editor.rows[row_index].item
    can_save = not item.is_blank() and not item.errors()

    async def chosen(choice: TemplateChoice | None) -> None:
        from tui.forms.templates import item_from_template, save_template

        if choice is None:
            return
        session = form.host.session
        row = editor.rows[min(row_index, len(editor.rows) - 1)]
        if choice.index is not None:
            item = item_from_template(session.profile.item_templates[choice.index])
            if row.item.is_blank():
                row.load(item)
                await editor.complete()
                form.set_focus(row.field("quantity"))
            else:
                await editor.add_row(item, after=editor.rows.index(row))
        elif choice.name is not None:
            form.notify(save_template(session, choice.name, row.item), timeout=4)

    form.app.push_screen(
        TemplatesScreen(
            form.host.session.profile.item_templates,
            row_index if can_save else None,
            item.description.strip()[:30],
        ),
        chosen,
    )
