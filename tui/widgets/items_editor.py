"""The items grid: one compact line per freight line, with live density and implied class.

Only the row being edited is made of inputs (an `ItemStrip` laid over that row); every
other row is one drawn line (`ItemRow`), so adding, deleting or moving rows lays out a
widget per row instead of fourteen, and a new row builds no inputs. Until the cursor first
enters the grid there are no inputs at all: the grid's header line takes focus in their
place, and the grid builds them as it gets it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget

from tui.domain.density import LineTotals
from tui.domain.locations import PACKAGE_TYPES
from tui.domain.quote_form import ITEM_FIELDS, MAX_ITEMS, ItemDraft, complete_package
from tui.host import host_of
from tui.widgets import WidgetMessage
from tui.widgets.item_line import ItemRow
from tui.widgets.item_strip import (
    CELLS,
    WIDE_CLASS,
    GridInput,
    ItemStrip,
    RowInputs,
    grid_columns,
)
from tui.widgets.text_cell import TextCell as TextCell


class FocusBorder:
    """Keeps `widget`'s round border in the theme's `border` colour while focus is inside it,
    `border-blurred` otherwise. A `:focus-within` rule would restyle every descendant on each
    focus move, which grows with what the widget holds."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._shown = False

    def follow_theme(self) -> None:
        """Repaint the border in each new theme's colours (call once the widget is mounted)."""
        widget = self._widget
        widget.app.theme_changed_signal.subscribe(widget, lambda _theme: self.show(force=True))

    def show(self, *, force: bool = False) -> None:
        """Paint the border for where focus is now (`force`: even if that did not change)."""
        widget = self._widget
        inside = widget.has_focus_within
        if inside == self._shown and not force:
            return
        self._shown = inside
        color = widget.app.get_css_variables()["border" if inside else "border-blurred"]
        widget.styles.border = ("round", Color.parse(color))


ENTER_SKIPS = frozenset({"freight_class"})
"""Fields Enter goes past (Tab and the arrows stop there): what the grid works out itself."""


class ItemsHead(Widget):
    """The grid's header line, one widget: each column's name where `CELLS` puts it."""

    DEFAULT_CSS = """
    ItemsHead {
        height: 1;
        color: $text-muted;
        text-style: bold;
    }
    """

    def __init__(self, wide: Callable[[], bool], *, id: str | None = None) -> None:
        """`wide` says whether the grid shows its wide columns now."""
        super().__init__(id=id)
        self._wide = wide

    def render(self) -> Content:
        headers = {cell.key: cell for cell in CELLS}
        line = ""
        for column in grid_columns(self.size.width, self._wide()):
            cell = headers[column.key]
            text = cell.header[: column.width]
            text = text.rjust(column.width) if cell.right else text.ljust(column.width)
            line = line.ljust(column.x) + text
        return Content(line[: self.size.width])


class ItemsEditor(Vertical):
    """Add, duplicate, delete and reorder item rows; Enter in the last field adds a row."""

    HELP = """\
### Items

One line per kind of handling unit. **Qty** is the number of units; **Lb/unit** is the weight
of *one* unit (the line weighs qty × lb); **L×W×H** in inches, rounded up to whole inches.

**Class** is the NMFC freight class. Leave it empty to use the class implied by density
(shown dim, marked ◂); type one of 50 55 60 65 70 77.5 85 92.5 100 110 125 150 175 200 250
300 400 500 to override it (marked ✎). Density is lb per ft³ of one unit.

**Pkg**: pallet, skid, crate, box, carton, drum, pail, bundle, roll, reel, coil, tote, bag,
bale, cylinder, tube, loose, gaylord, envelope — type the first letters (→ or Enter
accepts the one shown).

Tab / Enter move field by field (Enter goes past Class); Enter in Description adds a row;
←/→ at a field's start or end (or on a field just entered) go to the field beside it; ↑/↓
move between rows; ctrl+↑/↓ (or alt+↑/↓) move the row itself. Here ctrl+d duplicates and
ctrl+x deletes the *row* (use Delete for the character to the right).
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+d,f6",
            "duplicate_row",
            "Dup",
            id="quote.duplicate_item",
            tooltip="Duplicate this row below it (F6)",
            priority=True,
        ),
        Binding(
            "ctrl+x,f7",
            "delete_row",
            "Del",
            id="quote.delete_item",
            tooltip="Delete this row (F7)",
            priority=True,
        ),
        Binding(
            "ctrl+up,alt+up",
            "move_row(-1)",
            "Move up",
            id="quote.move_item_up",
            tooltip="Move this row up (alt+up)",
            show=False,
        ),
        Binding(
            "ctrl+down,alt+down",
            "move_row(1)",
            "Move down",
            id="quote.move_item_down",
            tooltip="Move this row down (alt+down)",
            show=False,
        ),
        # Handled on arrival (priority), so keys typed right after land in the new field.
        Binding(
            "up",
            "row_focus(-1)",
            "Row up",
            id="quote.row_up",
            tooltip="Same field, row above",
            show=False,
            priority=True,
        ),
        Binding(
            "down",
            "row_focus(1)",
            "Row down",
            id="quote.row_down",
            tooltip="Same field, row below",
            show=False,
            priority=True,
        ),
        Binding(
            "enter",
            "enter",
            "Next",
            id="quote.enter",
            tooltip="Next field; in Description, the next row (a new one at the end)",
            show=False,
            priority=True,
        ),
        Binding(
            "right",
            "step_field(1, True)",
            "Next cell",
            id="quote.next_cell",
            tooltip="Next field, from the end of this one",
            show=False,
            priority=True,
        ),
        Binding(
            "left",
            "step_field(-1, True)",
            "Previous cell",
            id="quote.previous_cell",
            tooltip="Previous field, from the start of this one",
            show=False,
            priority=True,
        ),
        # The grid takes Tab from the screen (see check_consume_key): from the last field it
        # goes on to the next row, which only exists as inputs while it is edited.
        Binding(
            "tab",
            "step_field(1)",
            "Next",
            id="quote.next_field",
            tooltip="Next field; after Description, the next row",
            show=False,
            priority=True,
        ),
        Binding(
            "shift+tab",
            "step_field(-1)",
            "Previous",
            id="quote.previous_field",
            tooltip="Previous field; before Qty, the row above",
            show=False,
            priority=True,
        ),
    ]

    DEFAULT_CSS = """
    ItemsEditor {
        height: 1fr;
        border: round $border-blurred;
        border-title-color: $text;
        border-subtitle-color: $text;
        padding: 0;
    }
    ItemsEditor #items-rows {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    """

    class Changed(WidgetMessage["ItemsEditor"]):
        """Rows were edited; `rows_changed` when rows were added, removed or moved."""

        def __init__(self, editor: ItemsEditor, rows_changed: bool = False) -> None:
            super().__init__(editor)
            self.rows_changed = rows_changed

    class FieldTouched(WidgetMessage["ItemsEditor"]):
        """The user typed in, or left, field `name` of row `index` (its error may now show)."""

        def __init__(self, editor: ItemsEditor, index: int, name: str) -> None:
            super().__init__(editor)
            self.index = index
            self.name = name

    def __init__(self, items: Sequence[ItemDraft], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial_items = list(items) or [ItemDraft()]
        self.border_title = "Items"
        self._border = FocusBorder(self)
        self._container = VerticalScroll(id="items-rows", can_focus=False)
        # Until the inputs are built (see `complete`), the header line takes focus in their
        # place: Tab, shift+tab or the form's first focus lands on it, and the grid builds
        # them and hands focus on to the first field (the last one coming back from below).
        # A line, not the grid: focus on the grid would restyle every row, twice.
        self.entry = ItemsHead(lambda: self.has_class(WIDE_CLASS), id="items-head")
        self.entry.can_focus = True
        self._inputs = RowInputs(self, self._container, self.entry)

    def compose(self) -> ComposeResult:
        # Before anything is styled: the wide grid from the start spares a restyle.
        self.set_class(self.screen.has_class(WIDE_CLASS), WIDE_CLASS, update=False)
        yield self.entry
        rows = [ItemRow(item, self._inputs.columns) for item in self._initial_items]
        for number, row in enumerate(rows, start=1):
            row.set_number(number)
        # The inputs come in `complete`, when the cursor first enters the grid: until then
        # every row is drawn, row 1 too.
        self._inputs.start(rows[0])
        with self._container:
            yield from rows

    async def complete(self) -> None:
        """Mount the inputs of the row being edited, over row 1 (once: when the cursor first
        enters the grid, or a row is added or picked; until then every row is drawn)."""
        await self._inputs.build()

    @property
    def completed(self) -> bool:
        """True once the inputs are mounted (see `complete`)."""
        return self._inputs.built

    def on_mount(self) -> None:
        self._renumber()
        self._border.follow_theme()
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    def _focus_moved(self, old: Widget | None, new: Widget | None) -> None:
        """Focus landed on the grid before its inputs were built: build them, then focus the
        first field (the last one from a field below). Keys typed meanwhile wait for them:
        the hold starts here, while the key that moved focus is still being handled."""
        if new is not self.entry or self.completed:
            return
        chain = self.screen.focus_chain
        backwards = old in chain and chain.index(old) > chain.index(new)
        field = ITEM_FIELDS[-1] if backwards else ITEM_FIELDS[0]
        self.call_next(self._inputs.enter, field, host_of(self).hold_input())

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Tab and shift+tab are the grid's while focus is in it (rows are not all inputs)."""
        return key in ("tab", "shift+tab")

    @on(events.DescendantFocus)
    @on(events.DescendantBlur)
    def _focus_within_changed(self, event: events.DescendantFocus | events.DescendantBlur) -> None:
        self._border.show()

    # -- reading ---------------------------------------------------------------------------

    @property
    def rows(self) -> list[ItemRow]:
        """The rows, top to bottom."""
        return [child for child in self._container.children if isinstance(child, ItemRow)]

    def values(self) -> tuple[ItemDraft, ...]:
        """Every row as typed."""
        return tuple(row.item for row in self.rows)

    def input_for(self, index: int, name: str) -> GridInput:
        """The input of field `name` in row `index` (that row becomes the one edited)."""
        return self._inputs.field(self.rows[index], name)

    def current_index(self) -> int | None:
        """The number (from 0) of the row holding focus, if any."""
        row = self._inputs.current()
        return None if row is None else self.rows.index(row)

    def current_field(self) -> str | None:
        """The field holding focus, if it is one of a row's."""
        focused = self.screen.focused
        if isinstance(focused, GridInput) and self._inputs.current() is not None:
            return focused.name
        return None

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(self.screen.has_class(WIDE_CLASS), WIDE_CLASS)

    # -- showing ---------------------------------------------------------------------------

    def show_totals(self, totals: LineTotals, incomplete: int = 0) -> None:
        """Put units, weight, cube and average density on the bottom border."""
        average = totals.average_density_pcf
        parts = [
            f"{totals.handling_units} unit{'s' if totals.handling_units != 1 else ''}",
            f"{totals.total_weight:,.0f} lb",
            f"{totals.total_cube_ft3:,.1f} ft³",
        ]
        if average is not None:
            parts.append(f"avg {average:.1f} pcf")
        if incomplete:
            parts.append(f"{incomplete} row{'s' if incomplete != 1 else ''} not counted")
        self.border_subtitle = Text(" · ".join(parts))

    def show_invalid(self, fields: Iterable[str]) -> None:
        """Show red the item fields named `items.N.name` among `fields`; the rest normal."""
        marks: dict[int, set[str]] = {}
        for field in fields:
            parts = field.split(".", 2)
            if len(parts) == 3 and parts[0] == "items" and parts[1].isdigit():
                marks.setdefault(int(parts[1]), set()).add(parts[2])
        for index, row in enumerate(self.rows):
            row.set_invalid(frozenset(marks.get(index, ())))
        for strip in self._inputs.strips:
            bound = strip.row if self._inputs.has(strip.row) else None
            strip.mark_invalid(bound.invalid if bound is not None else frozenset())

    @on(ItemStrip.Resized)
    def _strip_resized(self, event: ItemStrip.Resized) -> None:
        event.stop()
        if self._inputs.relaid():
            for row in self.rows:
                row.refresh()

    def _renumber(self) -> None:
        rows = self.rows
        for number, row in enumerate(rows, start=1):
            row.set_number(number)
        for strip in self._inputs.strips:
            if strip.row is not None and self._inputs.has(strip.row):
                strip.set_number(strip.row.number)
        self.border_title = f"Items ({len(rows)})" if len(rows) > 1 else "Items"

    # -- which row the inputs show -----------------------------------------------------------

    def load_row(self, row: ItemRow, item: ItemDraft) -> None:
        """Replace what `row` holds (e.g. with a template)."""
        self._inputs.set_item(row, item)
        self.post_message(self.Changed(self))

    @on(ItemRow.Clicked)
    def _clicked(self, event: ItemRow.Clicked) -> None:
        """A click on a drawn row edits the field under it."""
        event.stop()
        self.call_later(self._inputs.edit, event.control, event.name)

    # -- editing ---------------------------------------------------------------------------

    async def add_row(
        self, item: ItemDraft | None = None, *, after: int | None = None, field: str = "quantity"
    ) -> ItemRow | None:
        """Insert a row (below row `after`, else at the end) and focus it; None when full."""
        rows = self.rows
        if len(rows) >= MAX_ITEMS:
            self.app.bell()
            self.notify(f"A quote holds at most {MAX_ITEMS} rows.", severity="warning")
            return None
        row = ItemRow(item or ItemDraft(), self._inputs.columns)
        # One layout and one frame for the whole change, however many rows there are.
        with self.app.batch_update():
            if after is not None and after < len(rows) - 1:
                await self._container.mount(row, after=rows[after])
            else:
                await self._container.mount(row)
            self._renumber()
            await self._inputs.edit(row, field)
        self.post_message(self.Changed(self, rows_changed=True))
        return row

    async def action_duplicate_row(self) -> None:
        row = self._inputs.current()
        index = self.current_index()
        if row is None or index is None:
            raise SkipAction
        field = self.current_field() or "quantity"
        await self.add_row(row.item, after=index, field=field)

    async def action_delete_row(self) -> None:
        index = self.current_index()
        if index is None:
            raise SkipAction
        rows = self.rows
        field = self.current_field() or "quantity"
        if len(rows) == 1:  # the last row is never removed: it is emptied
            self._inputs.set_item(rows[0], ItemDraft())
            await self._inputs.edit(rows[0], field)
            self.post_message(self.Changed(self, rows_changed=True))
            return
        target = rows[index + 1] if index + 1 < len(rows) else rows[index - 1]
        with self.app.batch_update():
            # Focus moves first, so removing the row does not send focus looking elsewhere.
            await self._inputs.edit(target, field)
            await rows[index].remove()
            self._renumber()
        self.post_message(self.Changed(self, rows_changed=True))

    def action_move_row(self, delta: int) -> None:
        row = self._inputs.current()
        index = self.current_index()
        if row is None or index is None:
            return
        rows = self.rows
        new_index = index + delta
        if not 0 <= new_index < len(rows):
            return
        strip = self._inputs.active
        container = self._container
        with self.app.batch_update():
            if delta < 0:
                container.move_child(row, before=rows[new_index])
            else:
                container.move_child(row, after=rows[new_index])
            container.move_child(strip, after=row)
            self._renumber()
            self._inputs.reveal(strip)
        self.post_message(self.Changed(self, rows_changed=True))

    async def action_row_focus(self, delta: int) -> None:
        index = self.current_index()
        field = self.current_field()
        if index is None or field is None:
            raise SkipAction
        rows = self.rows
        new_index = index + delta
        if 0 <= new_index < len(rows):
            await self._inputs.edit(rows[new_index], field)

    async def action_step_field(self, step: int, at_edge: bool = False) -> None:
        """Tab: the next field, after the last one the next row; shift+tab the other way.
        `at_edge` (← / →): only once the cursor is at the text's start or end, or the field
        was just entered (its text selected); otherwise the cursor moves in the text."""
        focused = self.screen.focused
        if at_edge and (not isinstance(focused, GridInput) or not focused.at_edge(step)):
            raise SkipAction
        index = self.current_index()
        name = self.current_field()
        if index is not None and name is not None:
            position = ITEM_FIELDS.index(name) + step
            if 0 <= position < len(ITEM_FIELDS):
                self.screen.set_focus(self._inputs.active.field(ITEM_FIELDS[position]))
                return
            rows = self.rows
            if 0 <= index + step < len(rows):
                await self._inputs.edit(rows[index + step], ITEM_FIELDS[0 if step > 0 else -1])
                return
        # Out of the grid: before it, or past its last field.
        if step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    async def action_enter(self) -> None:
        """Enter moves to the next field (past Class); in Description it goes on to the next
        row or adds one."""
        row = self._inputs.current()
        name = self.current_field()
        if row is None or name is None:
            raise SkipAction
        if name != "description":
            if name == "package":
                _accept_suggestion(self._inputs.active.field(name))
            # Class is left to the density (Tab stops there): Enter goes past it.
            following = ITEM_FIELDS.index(name) + 1
            if ITEM_FIELDS[following] in ENTER_SKIPS:
                following += 1
            self.screen.set_focus(self._inputs.active.field(ITEM_FIELDS[following]))
            return
        rows = self.rows
        index = rows.index(row)
        if index + 1 < len(rows):
            await self._inputs.edit(rows[index + 1], "quantity")
        elif len(rows) == 1 or not replace(row.item, description="").is_blank():
            # Keys typed just before Enter may still be on their way to the row's inputs, so
            # only an empty trailing row (below others) stops Enter from adding one.
            await self.add_row()

    # -- events ----------------------------------------------------------------------------

    @on(GridInput.Edited)
    def _field_edited(self, event: GridInput.Edited) -> None:
        event.stop()
        row, name = event.row, event.field.name
        if row is None or not name or not self._inputs.has(row):
            return
        for strip in self._inputs.strips:
            if strip.row is row:
                if strip is not event.field.parent:
                    strip.reload()
                strip.refresh_derived()
        self.post_message(self.FieldTouched(self, self.rows.index(row), name))
        self.post_message(self.Changed(self))

    @on(GridInput.Left)
    def _field_left(self, event: GridInput.Left) -> None:
        """Leaving Pkg completes it; leaving any field may show its error."""
        event.stop()
        row, name = event.row, event.field.name
        if row is not None and name and self._inputs.has(row):
            if name == "package":
                completed = complete_package(row.item.package)
                if completed is not None and completed != row.item.package:
                    self._inputs.set_item(row, replace(row.item, package=completed))
                    self.post_message(self.Changed(self))
            self.post_message(self.FieldTouched(self, self.rows.index(row), name))
        self._inputs.rest(self.rows)


def _accept_suggestion(field: GridInput) -> None:
    """Enter in Pkg takes the package its suggestion shows (`c` shows crate, the first of the
    list it begins), as a spreadsheet's autocomplete does: what is shown is what is kept."""
    typed = field.value.strip().casefold()
    if not typed or typed in PACKAGE_TYPES:
        return
    shown = next((name for name in PACKAGE_TYPES if name.startswith(typed)), None)
    if shown is not None:
        field.value = shown
