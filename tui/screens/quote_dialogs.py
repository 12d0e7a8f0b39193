"""The quote form's second-level dialogs and what each brings back into the form: the
address book (an end), accessorials, a row's item details, item templates. Each takes the
parts of the form it fills (the pickers, the grid, the extras), never the screen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tui.domain.accessorials import Accessorial, parse_accessorials
from tui.domain.quote_form import EMERGENCY_FIELDS, ITEM_DETAILS, ItemDraft, QuoteDraft
from tui.domain.safe_text import plain
from tui.forms.quote_extras import QuoteExtras
from tui.forms.quote_lines import booked_text
from tui.forms.quote_marks import FieldMarks

if TYPE_CHECKING:
    from textual.app import App

    from tui.ledger import BookingRecord
    from tui.screens.quote_address_book import Side
    from tui.screens.quote_draft import QuoteDraftKeeper
    from tui.screens.quote_item_details import ItemDetails
    from tui.screens.quote_templates import TemplateChoice
    from tui.session import Session
    from tui.widgets.items_editor import ItemsEditor
    from tui.widgets.location_picker import LocationPicker


def first_hazardous_row(items: Sequence[ItemDraft]) -> int:
    """The row the emergency contact belongs to: the first hazardous one (else the first)."""
    return next((i for i, item in enumerate(items) if item.hazardous), 0)


async def open_address_book(
    app: App[object],
    session: Session,
    side: Side,
    pickers: Mapping[Side, LocationPicker],
    extras: QuoteExtras,
) -> None:
    """Pick an end from the address book (as the store holds it now: read off the event
    loop) into the picker of its side; its usual accessorials come with it."""
    from tui.screens.quote_address_book import QuoteAddressesScreen

    try:
        addresses = await asyncio.to_thread(session.address_book)
    except OSError as error:
        app.notify(f"The address book cannot be read: {plain(str(error))}", severity="error")
        return
    if not addresses:
        app.notify("The address book is empty (add addresses when booking).", timeout=4)
        return

    def picked(choice: tuple[Side, int] | None) -> None:
        if choice is None:
            return
        side, index = choice
        location = addresses[index]
        picker = pickers[side]
        picker.set_location(location.postal_code, location.location_type)
        end = "pickup" if side == "origin" else "delivery"
        usual = [a for a in parse_accessorials(location.accessorials) if a.end in (end, "shipment")]
        if usual:
            names = ", ".join(a.label.lower() for a in usual)
            app.notify(f"{location.label or location.postal_code}: {names} added.", timeout=4)
            extras.add(usual)
        picker.screen.set_focus(picker.type_select)

    app.push_screen(QuoteAddressesScreen(addresses, side), picked)


def open_accessorials(app: App[object], extras: QuoteExtras) -> None:
    """Choose the shipment's accessorials."""
    from tui.screens.quote_accessorials import AccessorialsScreen

    def chosen(accessorials: tuple[Accessorial, ...] | None) -> None:
        if accessorials is not None:
            extras.choose(accessorials)

    app.push_screen(AccessorialsScreen(extras.accessorials), chosen)


def open_item_details(
    editor: ItemsEditor,
    draft: QuoteDraft,
    extras: QuoteExtras,
    marks: FieldMarks,
    field: str | None,
    *,
    show_all: bool,
) -> None:
    """The current row's details (or the hazardous row's, for the emergency contact),
    focused on `field`; `show_all` shows every error at once."""
    from tui.screens.quote_item_details import ItemDetailsScreen

    index = editor.current_index()
    if index is None:
        index = first_hazardous_row(draft.items) if field in EMERGENCY_FIELDS else 0
    row = editor.rows[index]

    async def done(details: ItemDetails | None) -> None:
        if details is None or row not in editor.rows:
            return
        await editor.complete()  # opened from outside the grid: its inputs may not be built
        index = editor.rows.index(row)
        chosen: dict[str, Any] = {name: getattr(details.item, name) for name in ITEM_DETAILS}
        editor.load_row(row, replace(row.item, **chosen))
        marks.touched.add(f"items.{index}.details")
        extras.set_emergency(details.emergency_name, details.emergency_phone)
        field = editor.current_field() or "description"
        editor.screen.set_focus(editor.input_for(editor.rows.index(row), field))

    editor.app.push_screen(ItemDetailsScreen(index, draft, field, show_all=show_all), done)


def open_templates(editor: ItemsEditor, session: Session) -> None:
    """Insert a saved item at the current row, or save the row as a template."""
    from tui.screens.quote_templates import TemplatesScreen

    index = editor.current_index()
    row_index = index if index is not None else len(editor.rows) - 1
    item = editor.rows[row_index].item
    can_save = not item.is_blank() and not item.errors()

    async def chosen(choice: TemplateChoice | None) -> None:
        from tui.forms.templates import item_from_template, save_template

        if choice is None:
            return
        row = editor.rows[min(row_index, len(editor.rows) - 1)]
        if choice.index is not None:
            item = item_from_template(session.profile.item_templates[choice.index])
            if row.item.is_blank():
                editor.load_row(row, item)
                await editor.complete()
                editor.screen.set_focus(editor.input_for(editor.rows.index(row), "quantity"))
            else:
                await editor.add_row(item, after=editor.rows.index(row))
        elif choice.name is not None:
            editor.app.notify(save_template(session, choice.name, row.item), timeout=4)

    editor.app.push_screen(
        TemplatesScreen(
            session.profile.item_templates,
            row_index if can_save else None,
            item.description.strip()[:30],
        ),
        chosen,
    )


async def say_booked(
    app: App[object], session: Session, keeper: QuoteDraftKeeper, clear: Callable[[], None]
) -> None:
    """The restored draft was booked already: say as what (the store's record of it, read
    off the event loop), and offer a new quote (`clear`) or keeping the values."""
    reference = keeper.booked
    if reference is None:
        return

    def read() -> BookingRecord | None:
        return session.ledger().latest(reference)

    try:
        record = await asyncio.to_thread(read)
    except OSError:
        record = None

    def chosen(new: bool | None) -> None:
        if new:
            clear()
        else:
            keeper.keep_as_new()

    from tui.screens.quote_booked import QuoteBookedScreen  # not for the first frame

    app.push_screen(QuoteBookedScreen(booked_text(reference, record)), chosen)
