"""The row of the item grid being edited: real inputs, laid over one drawn row at a time."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input

from tui.domain.locations import PACKAGE_TYPES
from tui.domain.quote_form import ItemDraft
from tui.widgets.item_line import PLACEHOLDERS, Column, ItemRow
from tui.widgets.text_cell import TextCell

_PACKAGE_SUGGESTER = SuggestFromList(list(PACKAGE_TYPES), case_sensitive=False)

COLUMNS: tuple[tuple[str, str], ...] = (
    ("quantity", "Qty"),
    ("package", "Pkg"),
    ("weight", "Lb/unit"),
    ("length", "L"),
    ("width", "W"),
    ("height", "H"),
    ("freight_class", "Class"),
    ("description", "Description"),
)
"""(field, header text) in the order the grid shows them."""


class Cell(NamedTuple):
    """One cell of a grid row: what it holds, its header, and where it sits."""

    key: str
    """A field of `COLUMNS`, or num, times, mark, density, lb, cube."""
    header: str
    classes: str
    width: int
    """Columns wide (0: the rest of the row)."""
    wide: int
    """Columns wide in a wide grid (see `ItemsEditor`)."""
    gap: int = 0
    """Blank columns after it."""
    right: bool = False
    """Its header and drawn value end at its right edge."""

    @property
    def wide_only(self) -> bool:
        """Shown only in a wide grid."""
        return "wide-only" in self.classes.split()


def _cells() -> tuple[Cell, ...]:
    layout = {  # width, wide width, gap, right-aligned
        "quantity": (4, 5, 1, True),
        "package": (9, 11, 1, False),
        "weight": (7, 9, 1, True),
        "length": (4, 6, 0, False),
        "width": (4, 6, 0, False),
        "height": (4, 6, 1, False),
        "freight_class": (5, 6, 0, False),
        "description": (0, 0, 0, False),
    }
    cells = [Cell("num", " #", "cell-num", 3, 3)]
    for name, header in COLUMNS:
        cells.append(Cell(name, header, f"cell-{name}", *layout[name]))
        if name in ("length", "width"):
            cells.append(Cell("times", "×", "cell-times", 1, 1))
        if name == "freight_class":
            cells += [
                Cell("mark", "", "cell-mark", 1, 2),
                Cell("density", "pcf", "cell-density", 7, 7, 1, True),
                Cell("lb", "Line lb", "cell-lb wide-only", 8, 8, 1, True),
                Cell("cube", "ft³", "cell-cube wide-only", 7, 7, 1, True),
            ]
    return tuple(cells)


CELLS = _cells()
"""Every cell of a row, left to right, and where it sits: the one table the header, the
drawn rows and the inputs follow (the inputs are sized by `cells_css`)."""


WIDE_CLASS = "-wide"
"""The class of a wide screen (see its HORIZONTAL_BREAKPOINTS), and of the grid on it."""


def grid_columns(width: int, wide: bool) -> tuple[Column, ...]:
    """Where each cell of a row `width` columns wide sits (in the wide grid when `wide`)."""
    columns: list[Column] = []
    x = 0
    for cell in CELLS:
        if cell.wide_only and not wide:
            continue
        cell_width = (cell.wide if wide else cell.width) or max(1, width - x)
        columns.append(Column(cell.key, x, cell_width))
        x += cell_width + cell.gap
    return tuple(columns)


def cells_css(scope: str) -> str:
    """The CSS that sizes the cells of a row as `CELLS` says, within `scope` (a selector);
    `scope.-wide` sizes them for the wide grid."""
    rules: dict[str, str] = {}
    wide_rules: dict[str, str] = {}
    for cell in CELLS:
        name = cell.classes.split()[0]
        width = f"{cell.width}" if cell.width else "1fr"
        gap = f" margin-right: {cell.gap};" if cell.gap else ""
        align = " text-align: right;" if cell.right else ""
        rules[name] = f"{scope} .{name} {{ width: {width};{gap}{align} }}"
        if cell.wide != cell.width:
            wide_rules[name] = f"{scope}.-wide .{name} {{ width: {cell.wide}; }}"
    return "\n".join(
        [
            *rules.values(),
            *wide_rules.values(),
            f"{scope} .wide-only {{ display: none; }}",
            f"{scope}.-wide .wide-only {{ display: block; }}",
        ]
    )


class GridInput(Input):
    """An input of the editing row; its edits and its blur name the row they were made on.

    One set of inputs serves every row in turn, so a change or a blur handled after the
    inputs moved on must still land on the row it was typed in: both are stamped with the
    row when they happen.

    A field not being typed in, or entered with its text selected, shows its text from the
    first character when it fits. The cells are
    narrow (Class is 5 wide): Textual's input keeps the view scrolled to where its cursor
    was, one cell past the end, so `hello` typed into Class and left showed `ello`, as if
    the first key had been lost (issue 28). Every key is in the value either way.
    """

    class Edited(Message):
        """The user changed a field of `row` (loading a row's values is not an edit)."""

        def __init__(self, field: GridInput, row: ItemRow | None, value: str) -> None:
            super().__init__()
            self.field = field
            self.row = row
            self.value = value

    class Left(Message):
        """Focus left this field while it showed `row`."""

        def __init__(self, field: GridInput, row: ItemRow | None) -> None:
            super().__init__()
            self.field = field
            self.row = row

    def __init__(self, strip: ItemStrip, *args: Any, **kwargs: Any) -> None:
        self._strip = strip
        self._quiet = False
        self._blurred_rows: deque[ItemRow | None] = deque()
        self._keys_waiting = 0
        """Keys and pastes handed to this input and not yet handled."""
        super().__init__(*args, **kwargs)

    def show(self, value: str) -> None:
        """Show a row's value without it counting as an edit."""
        self._quiet = True
        try:
            self.value = value
            self.cursor_position = len(value)
        finally:
            self._quiet = False
        if not self.has_focus:
            self.show_start()

    def show_start(self) -> None:
        """Scroll the text back to its first character (queued behind the scroll that follows
        the cursor, which Textual makes after the next refresh)."""
        self.scroll_to(x=0, animate=False, force=True)

    def at_edge(self, step: int) -> bool:
        """True when an arrow the way of `step` leaves the cell: the cursor at the text's end
        (start, for ←) with nothing selected, or the whole text selected as on entry. Not
        while → would take Pkg's suggestion."""
        value = self.value
        start, end = sorted(self.selection)
        if value and (start, end) == (0, len(value)):
            return True
        if start != end:
            return False
        if step < 0:
            return end == 0
        return end == len(value) and not self._offers_completion()

    def _offers_completion(self) -> bool:
        typed = self.value.casefold()
        return (
            self.name == "package"
            and bool(typed)
            and any(
                name.casefold().startswith(typed) and len(name) > len(typed)
                for name in PACKAGE_TYPES
            )
        )

    def idle(self) -> bool:
        """True when no key or paste waits for this input (it may show another row).

        Only typed input counts: the focus, blur and refresh messages a move between rows
        leaves queued carry their row with them (see `post_message`), so a strip they wait
        in may move on at once. Counting them made a burst of ↑ or ↓ build a fresh strip of
        eight inputs for every other key."""
        return self._keys_waiting == 0

    async def on_event(self, event: events.Event) -> None:
        try:
            await super().on_event(event)
        finally:
            if isinstance(event, events.Key | events.Paste) and self._keys_waiting:
                self._keys_waiting -= 1

    def post_message(self, message: Message) -> bool:
        if isinstance(message, events.Key | events.Paste):
            posted = super().post_message(message)
            self._keys_waiting += posted
            return posted
        if isinstance(message, Input.Changed) and message.input is self:
            # The row takes the value now, while the key is handled: a strip laid over this
            # row a moment later (keys typed ahead) starts from what was typed.
            row = self._strip.row
            if self._quiet or row is None or not self.name:
                return False
            if not row.set_field(self.name, message.value):
                return False
            return super().post_message(self.Edited(self, row, message.value))
        if isinstance(message, events.Blur):
            self._blurred_rows.append(self._strip.row)
        return super().post_message(message)

    def on_resize(self, event: events.Resize) -> None:
        # Column widths change with the screen's width class without the strip resizing.
        self.post_message(ItemStrip.Resized())

    def on_focus(self, event: events.Focus) -> None:
        # Runs before Input's own focus handler selects the text: look after it.
        self.call_after_refresh(self._show_whole_if_selected)

    def _show_whole_if_selected(self) -> None:
        """Entered with its text selected (select_on_focus): a text that fits is shown whole,
        rather than scrolled one cell for the cursor past its end."""
        start, end = sorted(self.selection)
        value = self.value
        if (start, end) == (0, len(value)) and cell_len(value) <= self.content_size.width:
            self.show_start()

    def on_blur(self, event: events.Blur) -> None:
        # Posted once the keys typed before the blur are in (and their edits ahead of it).
        row = self._blurred_rows.popleft() if self._blurred_rows else self._strip.row
        self.post_message(self.Left(self, row))
        self.show_start()


class ItemStrip(Horizontal):
    """Inputs for the eight fields of one row, plus the density and class they imply."""

    # The cells' sizes are read with the strip, when the cursor first enters the grid: not
    # parsed for the first frame, which has no strip. Not scoped: the grid's width class is
    # on the ItemsEditor above.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    ItemsEditor .item-row {
        height: 1;
    }
    ItemsEditor .item-row > * {
        height: 1;
    }
    ItemsEditor .cell-num, ItemsEditor .cell-times, ItemsEditor .cell-mark {
        color: $text-muted;
    }
    """ + cells_css("ItemsEditor")

    class Resized(Message):
        """The strip was laid out anew: the drawn rows may need new columns."""

    def __init__(self, row: ItemRow) -> None:
        super().__init__(classes="item-row")
        self.row: ItemRow | None = row
        self.inputs: dict[str, GridInput] = {}
        self._cells: dict[str, TextCell] = {}
        self._columns: list[tuple[str, Widget]] = []

    def compose(self) -> ComposeResult:
        item = self.row.item if self.row is not None else None
        fields = dict(COLUMNS)
        for cell_spec in CELLS:
            key, classes = cell_spec.key, cell_spec.classes
            cell: Widget
            if key in fields:
                cell = self.inputs[key] = GridInput(
                    self,
                    getattr(item, key) if item is not None else "",
                    placeholder=PLACEHOLDERS[key],
                    id=f"f-{key}",
                    name=key,
                    classes=classes,
                    compact=True,
                    select_on_focus=True,
                    suggester=_PACKAGE_SUGGESTER if key == "package" else None,
                )
            elif key == "times":
                cell = TextCell("×", classes=classes)
            else:
                cell = self._cells[key] = TextCell("", classes=classes)
            self._columns.append((key, cell))
            yield cell

    def on_mount(self) -> None:
        if self.row is not None:
            self.set_number(self.row.number)
            self.mark_invalid(self.row.invalid)
            self.refresh_derived()

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized())

    def idle(self) -> bool:
        """True when no input holds keys still on their way (the strip may move on)."""
        return all(field.idle() for field in self.inputs.values())

    def columns(self) -> tuple[Column, ...]:
        """Where each cell sits, from the last layout; empty before the first."""
        origin = self.region
        if not origin.width or not self.inputs:
            return ()
        found = []
        for key, widget in self._columns:
            region = widget.region
            if widget.display and region.width:
                found.append(Column(key, region.x - origin.x, region.width))
        return tuple(found)

    def bind(self, row: ItemRow) -> None:
        """Show `row` in the inputs (no edit is reported)."""
        if row is not self.row:  # else the inputs are already as fresh as the row
            self.row = row
            self.reload()
        self.mark_invalid(row.invalid)
        self.set_number(row.number)
        self.refresh_derived()

    def reload(self) -> None:
        """Show the row's values again (after a template or a completion changed them)."""
        if self.row is None:
            return
        item = self.row.item
        for name, field in self.inputs.items():
            if field.value != getattr(item, name):
                field.show(getattr(item, name))

    def set_number(self, number: int) -> None:
        if "num" in self._cells:
            self._cells["num"].update(f"{number:>2}")

    def mark_invalid(self, names: frozenset[str]) -> None:
        """Show these fields red (each class toggled only when it changes)."""
        for name, field in self.inputs.items():
            invalid = name in names
            if field.has_class("-invalid") != invalid:
                field.set_class(invalid, "-invalid")

    def refresh_derived(self) -> None:
        """Show the density, the class it implies and whether the user overrode it."""
        if self.row is None or not self.inputs:
            return
        derived = self.row.derived
        self.inputs["freight_class"].placeholder = derived.class_placeholder
        self._cells["mark"].update(derived.mark)
        self._cells["density"].update(derived.density)
        self._cells["lb"].update(derived.line_weight)
        self._cells["cube"].update(derived.line_cube)

    def field(self, name: str) -> GridInput:
        return self.inputs[name]


# -- which row the inputs show -----------------------------------------------------------
# Which row of the items grid the inputs show: the strip of inputs laid over the row being
# edited, moved (or a fresh one made) as the user goes from row to row, while keys typed
# ahead into a row left still land in that row.


class RowInputs:
    """The strips of inputs of one grid (`owner`) whose rows are in `container`."""

    def __init__(self, owner: Widget, container: VerticalScroll, entry: Widget) -> None:
        self.owner = owner
        self.container = container
        self.entry = entry
        """What takes focus in the grid before the inputs are built (see `build`)."""
        self.strips: list[ItemStrip] = []
        self.shown: ItemStrip | None = None
        self._columns: tuple[Column, ...] = ()

    @property
    def built(self) -> bool:
        """True once the inputs are mounted (see `build`)."""
        return self.active.is_mounted

    def columns(self) -> Sequence[Column]:
        """Where the drawn rows put each cell: where the shown strip has them, and before it
        is laid out (the first frame), where the grid's table puts them."""
        if not self._columns:
            self._columns = self.active.columns()
        owner = self.owner
        return self._columns or grid_columns(owner.content_size.width, owner.has_class(WIDE_CLASS))

    def relaid(self) -> bool:
        """The shown strip was laid out again: True when its cells moved (redraw the rows)."""
        columns = self.active.columns()
        if columns and columns != self._columns:
            self._columns = columns
            return True
        return False

    def current(self) -> ItemRow | None:
        """The row whose input holds focus, if any."""
        focused = self.owner.screen.focused
        strip = self.active
        if isinstance(focused, GridInput) and focused.parent is strip and self.has(strip.row):
            return strip.row
        return None

    def field(self, row: ItemRow, name: str) -> GridInput:
        """Lay the inputs over `row` (focus follows if it was in them) and return its input
        `name`; the inputs are built first (`build`)."""
        if not self.built:
            raise RuntimeError("the grid's inputs are not built yet: await complete() first")
        return self.switch(row, name, self.free(row) or self.active, focus=False)

    def start(self, row: ItemRow) -> ItemStrip:
        """The first strip, over `row` (mounted later: see ItemsEditor.complete)."""
        self.shown = ItemStrip(row)
        self.strips = [self.shown]
        return self.shown

    async def build(self) -> None:
        """Mount the first strip over its row (once: the grid starts with every row drawn and
        no input, and builds them when the cursor first enters it)."""
        strip = self.active
        if strip.parent is not None:
            return
        self.entry.can_focus = False  # the inputs take Tab from here on
        row = self.bound(strip) or next(
            child for child in self.container.children if isinstance(child, ItemRow)
        )
        strip.row = row
        with self.owner.app.batch_update():
            await self.container.mount(strip, after=row)
            row.display = False

    async def enter(self, name: str, release: Callable[[], None]) -> None:
        """Focus landed on the grid's `entry`, before its inputs were built: build them, focus
        field `name` of the row, then `release` the keys typed meanwhile."""
        try:
            await self.build()
            screen = self.owner.screen
            if screen.focused is self.entry:
                screen.set_focus(self.active.field(name))
        finally:
            release()

    @property
    def active(self) -> ItemStrip:
        """The strip of inputs shown (over the row being edited)."""
        assert self.shown is not None, "RowInputs.start comes first"
        return self.shown

    def has(self, row: ItemRow | None) -> bool:
        """True for a row still in the grid."""
        return row is not None and row.parent is self.container

    def bound(self, strip: ItemStrip) -> ItemRow | None:
        """The row `strip` is on, if it is still in the grid."""
        return strip.row if self.has(strip.row) else None

    def set_item(self, row: ItemRow, item: ItemDraft) -> None:
        """Put `item` in `row`; the inputs on it show it."""
        row.item = item
        for strip in self.strips:
            if strip.row is row:
                strip.reload()
                strip.refresh_derived()

    def free(self, row: ItemRow) -> ItemStrip | None:
        """The strip for `row`: one already on it (keys on their way to it are the row's),
        else one no typed key is still on its way to (the shown one first), else None."""
        active = self.active
        for strip in (active, *self.strips):
            if strip.row is row:
                return strip
        if active.idle():
            return active
        return next((s for s in self.strips if s is not active and s.idle()), None)

    async def edit(self, row: ItemRow, name: str) -> GridInput:
        """Focus field `name` of `row`; keys typed ahead into the row left still land there.
        Builds the inputs first if need be."""
        await self.build()
        strip = self.free(row)
        if strip is None:
            # The shown inputs still hold keys for their row: a fresh strip takes this one.
            strip = ItemStrip(row)
            strip.display = False
            self.strips.append(strip)
            await self.container.mount(strip, after=row)
        return self.switch(row, name, strip, focus=True)

    def switch(self, row: ItemRow, name: str, strip: ItemStrip, *, focus: bool) -> GridInput:
        """Lay `strip` over `row` and return its input `name` (focused when `focus`, or when
        focus was in the grid's inputs)."""
        old = self.active
        screen = self.owner.screen
        focused = screen.focused
        inside = isinstance(focused, GridInput) and focused.parent in self.strips
        target = strip.field(name)
        if strip is old and strip.row is row:
            if focus and focused is not target:
                screen.set_focus(target, scroll_visible=False)
                self.reveal(strip)
            return target
        if inside and strip is old:
            # Blur first: the blur (package completion, touched marks) names the row left,
            # and the field focused again selects the new row's text.
            screen.set_focus(None)
        left = old.row if old.row is not row and self.has(old.row) else None
        with self.owner.app.batch_update():
            if left is not None:
                left.display = True
            strip.bind(row)
            container = self.container
            children = container.children
            position = children.index(row)
            if position + 1 >= len(children) or children[position + 1] is not strip:
                container.move_child(strip, after=row)
            row.display = False
            if strip is not old:
                strip.display = True
            if focus or inside:
                screen.set_focus(target, scroll_visible=False)
            if strip is not old:
                old.display = False
            self.shown = strip
            self.reveal(strip)
        return target

    def reveal(self, strip: ItemStrip) -> None:
        """Scroll the rows so `strip` is in view, in the same frame as the change (every row
        is one line high, so where it lands is known before the layout)."""
        container = self.container
        line = 0
        for child in container.children:
            if child is strip:
                break
            if child.display:
                line += 1
        height = container.scrollable_content_region.height
        top = round(container.scroll_y)
        if height and line < top:
            container.scroll_to(y=line, animate=False, immediate=True)
        elif height and line >= top + height:
            container.scroll_to(y=line - height + 1, animate=False, immediate=True)
        strip.scroll_visible(animate=False)  # a last row beyond the old end waits for layout

    def rest(self, rows: Sequence[ItemRow]) -> None:
        """Once focus is elsewhere on the screen, the inputs go back to row 1 (Tab into the
        grid starts there, as it would with every row made of inputs)."""
        focused = self.owner.screen.focused
        if focused is None or self._holds(focused) or not rows:
            return
        strip = self.active
        if strip.row is not rows[0] and strip.idle():
            self.switch(rows[0], "quantity", strip, focus=False)

    def _holds(self, widget: Widget) -> bool:
        node: Widget | None = widget
        while node is not None:
            if node is self.owner:
                return True
            parent = node.parent
            node = parent if isinstance(parent, Widget) else None
        return False
