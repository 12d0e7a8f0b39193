"""The items grid: one compact line per freight line, with live density and implied class."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input, Static

from tui.domain.density import LineTotals
from tui.domain.freight_class import format_class
from tui.domain.locations import PACKAGE_TYPES
from tui.domain.quote_form import (
    IMPLIED_MARK,
    ITEM_FIELDS,
    MAX_ITEMS,
    OVERRIDE_MARK,
    ItemDraft,
    complete_package,
)

_PACKAGE_SUGGESTER = SuggestFromList(list(PACKAGE_TYPES), case_sensitive=False)

# (field, header text, placeholder)
_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("quantity", "Qty", "1"),
    ("package", "Pkg", "pallet"),
    ("weight", "Lb/unit", "lb"),
    ("length", "L", "L"),
    ("width", "W", "W"),
    ("height", "H", "H"),
    ("freight_class", "Class", ""),
    ("description", "Description", "what it is"),
)


class TextCell(Widget):
    """One line of text that repaints without a layout pass (cheap to update per keystroke)."""

    DEFAULT_CSS = """
    TextCell {
        height: 1;
    }
    """

    text: reactive[str | Text] = reactive("", layout=False)

    def __init__(self, text: str = "", *, classes: str | None = None, id: str | None = None):
        super().__init__(classes=classes, id=id)
        self.set_reactive(TextCell.text, text)

    def update(self, text: str | Text) -> None:
        self.text = text

    def render(self) -> RenderResult:
        return self.text


class GridInput(Input):
    """An input of the grid that skips re-measuring itself when a layout left it as it was.

    Textual's Input updates its scroll state on every layout of the screen, changed or not;
    with eight per row that was a third of each layout at 40 rows.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._measured: tuple[Size, Size, Size, Size, bool] | None = None

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        key = (size, virtual_size, container_size, self.virtual_size)
        if self._measured is not None and self._measured[:4] == key:
            return self._measured[4]
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        self._measured = (*key, resized)
        return resized


class ItemRow(Horizontal):
    """One freight line: inputs as typed, plus the density and class they imply."""

    def __init__(self, item: ItemDraft) -> None:
        super().__init__(classes="item-row")
        self._initial = item
        self.fields: dict[str, Input] = {}
        self._cells: dict[str, TextCell] = {}

    def compose(self) -> ComposeResult:
        yield TextCell("", classes="cell-num")
        for name, _header, placeholder in _COLUMNS:
            yield GridInput(
                getattr(self._initial, name),
                placeholder=placeholder,
                id=f"f-{name}",
                name=name,
                classes=f"cell-{name}",
                compact=True,
                select_on_focus=True,
                suggester=_PACKAGE_SUGGESTER if name == "package" else None,
            )
            if name in ("length", "width"):
                yield TextCell("×", classes="cell-times")
            if name == "freight_class":
                yield TextCell("", classes="cell-mark")
                yield TextCell("", classes="cell-density")
                yield TextCell("", classes="cell-lb wide-only")
                yield TextCell("", classes="cell-cube wide-only")

    def on_mount(self) -> None:
        self.fields = {name: self.query_one(f"#f-{name}", Input) for name in ITEM_FIELDS}
        self._cells = {
            name: self.query_one(f".cell-{name}", TextCell)
            for name in ("num", "mark", "density", "lb", "cube")
        }
        self.refresh_derived()

    def field(self, name: str) -> Input:
        """The input of one field of this row."""
        return self.fields[name] if self.fields else self.query_one(f"#f-{name}", Input)

    @property
    def item(self) -> ItemDraft:
        """The row as typed: its inputs over the fields without a column (see `load`)."""
        if not self.fields:
            return self._initial
        typed: dict[str, Any] = {name: field.value for name, field in self.fields.items()}
        return replace(self._initial, **typed)

    def load(self, item: ItemDraft) -> None:
        """Replace what the row holds (e.g. with a template, or its details from the dialog)."""
        self._initial = item  # keeps the fields without a column: stackable, hazmat, NMFC
        for name, field in self.fields.items():
            field.value = getattr(item, name)
        self.refresh_derived()

    def set_number(self, number: int) -> None:
        self._cells["num"].update(f"{number:>2}")

    def refresh_derived(self) -> None:
        """Show the density, the class it implies and whether the user overrode it."""
        item = self.item
        density = item.density_pcf()
        implied = item.implied_class()
        override = item.class_override()
        class_input = self.field("freight_class")
        class_input.placeholder = format_class(implied) if implied is not None else ""
        mark = self._cells["mark"]
        if override is not None:
            mark.update(OVERRIDE_MARK)
        elif implied is not None and not item.freight_class.strip():
            mark.update(IMPLIED_MARK)
        else:
            mark.update("")
        self._cells["density"].update(f"{density:.2f}" if density is not None else "–")
        line = item.line()
        self._cells["lb"].update(f"{line.line_weight:,.0f}" if line else "–")
        self._cells["cube"].update(f"{line.line_cube_ft3:,.1f}" if line else "–")


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
bale, cylinder, tube, loose, gaylord, envelope — type the first letters (→ accepts).

Tab / Enter move field by field; Enter in Description adds a row; ↑/↓ move between rows;
ctrl+↑/↓ (or alt+↑/↓) move the row itself. Here ctrl+d duplicates and ctrl+x deletes the
*row* (use Delete for the character to the right).
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
    ]

    DEFAULT_CSS = """
    ItemsEditor {
        height: 1fr;
        border: round $border-blurred;
        border-title-color: $text;
        border-subtitle-color: $text;
        padding: 0;
    }
    ItemsEditor #items-head {
        height: 1;
        color: $text-muted;
        text-style: bold;
    }
    ItemsEditor #items-rows {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    ItemsEditor .item-row {
        height: 1;
    }
    ItemsEditor .item-row > *, ItemsEditor #items-head > * {
        height: 1;
    }
    ItemsEditor .cell-quantity, ItemsEditor .cell-package, ItemsEditor .cell-weight,
    ItemsEditor .cell-height {
        margin-right: 1;
    }
    ItemsEditor .item-row Input.-invalid {
        background: $error 35%;
    }
    ItemsEditor .cell-num { width: 3; color: $text-muted; }
    ItemsEditor .cell-quantity { width: 4; text-align: right; }
    ItemsEditor .cell-package { width: 9; }
    ItemsEditor .cell-weight { width: 7; text-align: right; }
    ItemsEditor .cell-length, ItemsEditor .cell-width, ItemsEditor .cell-height { width: 4; }
    ItemsEditor .cell-times { width: 1; color: $text-muted; }
    ItemsEditor .cell-freight_class { width: 5; }
    ItemsEditor .cell-mark { width: 1; color: $text-muted; }
    ItemsEditor .cell-density { width: 7; text-align: right; margin-right: 1; }
    ItemsEditor .cell-lb { width: 8; text-align: right; margin-right: 1; }
    ItemsEditor .cell-cube { width: 7; text-align: right; margin-right: 1; }
    ItemsEditor .cell-description { width: 1fr; }
    ItemsEditor .wide-only { display: none; }
    """

    class Changed(Message):
        """Rows were edited; `rows_changed` when rows were added, removed or moved."""

        def __init__(self, editor: ItemsEditor, rows_changed: bool = False) -> None:
            super().__init__()
            self.editor = editor
            self.rows_changed = rows_changed

        @property
        def control(self) -> ItemsEditor:
            return self.editor

    class FieldTouched(Message):
        """The user typed in, or left, one field (it may now show its error)."""

        def __init__(self, editor: ItemsEditor, index: int, name: str) -> None:
            super().__init__()
            self.editor = editor
            self.index = index
            self.name = name

        @property
        def control(self) -> ItemsEditor:
            return self.editor

    def __init__(self, items: Sequence[ItemDraft], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial_items = list(items) or [ItemDraft()]
        self.border_title = "Items"
        self._focus_shown = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="items-head"):
            yield Static(" #", classes="cell-num")
            for name, header, _placeholder in _COLUMNS:
                yield Static(header, classes=f"cell-{name}")
                if name in ("length", "width"):
                    yield Static("×", classes="cell-times")
                if name == "freight_class":
                    yield Static("", classes="cell-mark")
                    yield Static("pcf", classes="cell-density")
                    yield Static("Line lb", classes="cell-lb wide-only")
                    yield Static("ft³", classes="cell-cube wide-only")
        with VerticalScroll(id="items-rows", can_focus=False):
            for item in self._initial_items:
                yield ItemRow(item)

    def on_mount(self) -> None:
        self._renumber()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show_focus(force=True))

    def _show_focus(self, *, force: bool = False) -> None:
        """Brighten the border while focus is inside (a `:focus-within` rule would restyle
        every cell of every row on each focus move, which grows with the rows)."""
        inside = self.has_focus_within
        if inside == self._focus_shown and not force:
            return
        self._focus_shown = inside
        color = self.app.get_css_variables()["border" if inside else "border-blurred"]
        self.styles.border = ("round", Color.parse(color))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_focus()

    # -- reading ---------------------------------------------------------------------------

    @property
    def rows(self) -> list[ItemRow]:
        """The rows, top to bottom."""
        return list(self.query_one("#items-rows").query_children(ItemRow))

    def values(self) -> tuple[ItemDraft, ...]:
        """Every row as typed."""
        return tuple(row.item for row in self.rows)

    def input_for(self, index: int, name: str) -> Input:
        """The input of field `name` in row `index`."""
        return self.rows[index].field(name)

    def current_row(self) -> ItemRow | None:
        """The row holding focus, if any."""
        node = self.screen.focused
        while node is not None and node is not self:
            if isinstance(node, ItemRow):
                return node
            node = node.parent  # type: ignore[assignment]
        return None

    def current_index(self) -> int | None:
        row = self.current_row()
        return None if row is None else self.rows.index(row)

    def current_field(self) -> str | None:
        focused = self.screen.focused
        if isinstance(focused, Input) and self.current_row() is not None:
            return focused.name
        return None

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

    def _renumber(self) -> None:
        rows = self.rows
        for number, row in enumerate(rows, start=1):
            row.set_number(number)
        self.border_title = f"Items ({len(rows)})" if len(rows) > 1 else "Items"

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
        row = ItemRow(item or ItemDraft())
        container = self.query_one("#items-rows", VerticalScroll)
        # One layout and one frame for the whole change, however many rows there are.
        with self.app.batch_update():
            if after is not None and after < len(rows) - 1:
                await container.mount(row, after=rows[after])
            else:
                await container.mount(row)
            self._renumber()
            self._focus(row, field)
        self.post_message(self.Changed(self, rows_changed=True))
        return row

    def _focus(self, row: ItemRow, field: str) -> None:
        """Focus one field of `row` and bring the row into view at once (no animation)."""
        self.screen.set_focus(row.field(field), scroll_visible=False)
        row.scroll_visible(animate=False)

    async def action_duplicate_row(self) -> None:
        index = self.current_index()
        if index is None:
            raise SkipAction
        field = self.current_field() or "quantity"
        await self.add_row(self.rows[index].item, after=index, field=field)

    async def action_delete_row(self) -> None:
        index = self.current_index()
        if index is None:
            raise SkipAction
        rows = self.rows
        field = self.current_field() or "quantity"
        if len(rows) == 1:
            await rows[0].remove()
            await self.add_row(ItemDraft(), field=field)
            return
        target = rows[index + 1] if index + 1 < len(rows) else rows[index - 1]
        with self.app.batch_update():
            # Focus moves first, so removing the row does not send focus looking elsewhere.
            self._focus(target, field)
            await rows[index].remove()
            self._renumber()
        self.post_message(self.Changed(self, rows_changed=True))

    def action_move_row(self, delta: int) -> None:
        index = self.current_index()
        if index is None:
            return
        rows = self.rows
        new_index = index + delta
        if not 0 <= new_index < len(rows):
            return
        container = self.query_one("#items-rows", VerticalScroll)
        with self.app.batch_update():
            if delta < 0:
                container.move_child(rows[index], before=rows[new_index])
            else:
                container.move_child(rows[index], after=rows[new_index])
            self._renumber()
            rows[index].scroll_visible(animate=False)
        self.post_message(self.Changed(self, rows_changed=True))

    def action_row_focus(self, delta: int) -> None:
        index = self.current_index()
        field = self.current_field()
        if index is None or field is None:
            raise SkipAction
        rows = self.rows
        new_index = index + delta
        if 0 <= new_index < len(rows):
            self.screen.set_focus(rows[new_index].field(field))
            rows[new_index].scroll_visible()

    # -- events ----------------------------------------------------------------------------

    @on(Input.Changed, ".item-row Input")
    def _field_changed(self, event: Input.Changed) -> None:
        event.stop()
        row = event.input.parent
        if isinstance(row, ItemRow):
            row.refresh_derived()
            if event.input.has_focus and event.input.name:
                self.post_message(self.FieldTouched(self, self.rows.index(row), event.input.name))
        self.post_message(self.Changed(self))

    async def action_enter(self) -> None:
        """Enter moves to the next field; in Description it goes on to the next row or adds one."""
        row = self.current_row()
        name = self.current_field()
        if row is None or name is None:
            raise SkipAction
        if name != "description":
            self.screen.focus_next()
            return
        rows = self.rows
        index = rows.index(row)
        if index + 1 < len(rows):
            self.screen.set_focus(rows[index + 1].field("quantity"))
            rows[index + 1].scroll_visible()
        elif len(rows) == 1 or not replace(row.item, description="").is_blank():
            # Keys typed just before Enter may still be on their way to the row's inputs, so
            # only an empty trailing row (below others) stops Enter from adding one.
            await self.add_row()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._show_focus()
        widget = event.widget
        if not isinstance(widget, Input) or not isinstance(widget.parent, ItemRow):
            return
        row = widget.parent
        if widget.name == "package":
            completed = complete_package(widget.value)
            if completed is not None and completed != widget.value:
                widget.value = completed
        if widget.name and row in self.rows:
            self.post_message(self.FieldTouched(self, self.rows.index(row), widget.name))
