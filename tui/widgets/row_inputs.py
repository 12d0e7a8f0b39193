"""Which row of the items grid the inputs show: the strip of inputs laid over the row being
edited, moved (or a fresh one made) as the user goes from row to row, while keys typed
ahead into a row left still land in that row."""

from __future__ import annotations

from collections.abc import Sequence

from textual.containers import VerticalScroll
from textual.widget import Widget

from tui.domain.quote_form import ItemDraft
from tui.textual_internals import hand_on_refresh
from tui.widgets.item_line import ItemRow
from tui.widgets.item_strip import GridInput, ItemStrip


class RowInputs:
    """The strips of inputs of one grid (`owner`) whose rows are in `container`."""

    def __init__(self, owner: Widget, container: VerticalScroll) -> None:
        self.owner = owner
        self.container = container
        self.strips: list[ItemStrip] = []
        self.shown: ItemStrip | None = None

    def start(self, row: ItemRow) -> ItemStrip:
        """The first strip, over `row` (mounted later: see ItemsEditor.complete)."""
        self.shown = ItemStrip(row)
        self.strips = [self.shown]
        return self.shown

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
        """Focus field `name` of `row`; keys typed ahead into the row left still land there."""
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
            settle(row, strip, old, left, screen)
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


def settle(*widgets: Widget | None) -> None:
    """Hand the screen now the layouts these widgets asked for, rather than when each gets
    round to it: a row that asks only after the frame costs a second layout of the screen."""
    for widget in widgets:
        if widget is not None and widget.is_mounted:
            hand_on_refresh(widget)
