"""The quote's shipment line under the grid: your reference, PO and the pickup day.

What a shipper rarely changes is one line and one Tab stop: until the cursor first lands on
it the line is drawn by one widget (`ShipmentSummary`), and its three inputs are built as it
gets focus, the first (Ref) focused, keys typed meanwhile held for them. The first frame
composes one widget here instead of seven.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import set_cell_size
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Input

from tui.domain.quote_form import SHIPMENT_FIELDS, QuoteDraft
from tui.domain.safe_text import plain
from tui.host import host_of
from tui.theme_colours import field_palette
from tui.widgets import WidgetMessage
from tui.widgets.text_cell import TextCell

INPUT_WIDTH = 12
DAY_WIDTH = 11

# (field, label, placeholder), left to right: the reference first, the one most often typed.
_INPUTS: tuple[tuple[str, str, str], ...] = (
    ("shipper_reference", "Ref", "your ref"),
    ("po_number", "PO", "PO / order"),
    ("pickup_date", "Pickup", ""),
)


class ShipmentSummary(Widget):
    """The shipment line drawn as the inputs would show it, in one widget that takes focus
    in their place (see `ShipmentFields`)."""

    can_focus = True

    DEFAULT_CSS = """
    ShipmentSummary {
        height: 1;
        width: 1fr;
    }
    """
    """The fields' colours are the theme's (`field_palette`), not component classes."""

    def __init__(self, fields: ShipmentFields) -> None:
        super().__init__(id="quote-shipment-line")
        self._fields = fields

    def render(self) -> Text:
        fields = self._fields
        palette = field_palette(self)
        line = Text(no_wrap=True, overflow="crop")
        for name, label, placeholder in _INPUTS:
            line.append(label, palette.muted)
            line.append(" ")
            value = fields.value(name)
            if name == "pickup_date" and not value:
                placeholder = fields.pickup_default
            if name in fields.invalid:
                cell = palette.invalid
            else:
                cell = palette.value if value else palette.placeholder
            shown = plain(value or placeholder)
            line.append(set_cell_size(shown, INPUT_WIDTH), cell)
            line.append(" ")
        line.append(set_cell_size(fields.day, DAY_WIDTH), palette.muted)
        return line


class ShipmentFields(Horizontal):
    """Three fields named by their draft field, and the pickup day the date stands for."""

    class Changed(WidgetMessage["ShipmentFields"]):
        """The text of field `name` changed; `typed` when the user typed it (not loaded)."""

        def __init__(self, fields: ShipmentFields, name: str, typed: bool) -> None:
            super().__init__(fields)
            self.name = name
            self.typed = typed

    class Left(WidgetMessage["ShipmentFields"]):
        """Focus left field `name` (its error may now show)."""

        def __init__(self, fields: ShipmentFields, name: str) -> None:
            super().__init__(fields)
            self.name = name

    def __init__(self, draft: QuoteDraft, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._values = {name: str(getattr(draft, name)) for name in SHIPMENT_FIELDS}
        self.invalid: set[str] = set()
        """The fields shown red."""
        self.day = ""
        """The weekday the pickup date stands for."""
        self.pickup_default = ""
        """The date a blank pickup means (the pickup's placeholder)."""
        self.summary = ShipmentSummary(self)
        self._inputs: dict[str, Input] = {}

    def compose(self) -> ComposeResult:
        yield self.summary

    def on_mount(self) -> None:
        self.watch(self.screen, "focused", self._focus_moved, init=False)

    @property
    def built(self) -> bool:
        """True once the inputs are mounted (see `complete`)."""
        return bool(self._inputs)

    def _focus_moved(self, old: Widget | None, new: Widget | None) -> None:
        """Focus landed on the drawn line: build the inputs, then focus the first (the last,
        coming back with shift+tab). Keys typed meanwhile wait for them: the hold starts
        here, while the key that moved focus is still being handled."""
        if new is not self.summary or self.built:
            return
        chain = self.screen.focus_chain
        backwards = old in chain and chain.index(old) > chain.index(new)
        name = _INPUTS[-1][0] if backwards else _INPUTS[0][0]
        self.call_next(self._enter, name, host_of(self).hold_input())

    async def _enter(self, name: str, release: Callable[[], None]) -> None:
        try:
            await self.complete(focus=name)
        finally:
            release()

    async def complete(self, *, focus: str | None = None) -> None:
        """Mount the three inputs in place of the drawn line (once); focus field `focus` if
        the line had focus."""
        if self.built:
            return
        widgets: list[Widget] = []
        for name, label, placeholder in _INPUTS:
            widgets.append(TextCell(label, classes="-label"))
            field = Input(
                self._values[name],
                placeholder=self.pickup_default if name == "pickup_date" else placeholder,
                id=f"quote-{name}",
                name=name,
                compact=True,
                max_length=60,
                classes="-invalid" if name in self.invalid else None,
            )
            field.styles.width = INPUT_WIDTH
            field.styles.margin = (0, 1, 0, 0)
            self._inputs[name] = field
            widgets.append(field)
        day = TextCell(self.day, id="quote-pickup-day", classes="-label")
        day.styles.width = DAY_WIDTH
        widgets.append(day)
        screen = self.screen
        had_focus = screen.focused is self.summary
        with self.app.batch_update():
            await self.mount_all(widgets, before=self.summary)
            if had_focus:
                screen.set_focus(self._inputs[focus or _INPUTS[0][0]])
            await self.summary.remove()

    def field(self, name: str) -> Input:
        """The input of `pickup_date`, `po_number` or `shipper_reference` (built: see
        `complete`)."""
        if not self.built:
            raise RuntimeError("the shipment line's inputs are not built: await complete()")
        return self._inputs[name]

    def widget_for(self, name: str) -> Widget:
        """What shows field `name`: its input once built, the drawn line before."""
        return self._inputs[name] if self.built else self.summary

    def value(self, name: str) -> str:
        """The text of field `name` as typed."""
        return self._inputs[name].value if self.built else self._values[name]

    def name_of(self, widget: Widget | None) -> str | None:
        """The field `widget` is the input of; None when it is none of them."""
        if isinstance(widget, Input) and widget.parent is self and widget.name in SHIPMENT_FIELDS:
            return widget.name
        return None

    def load(self, draft: QuoteDraft) -> None:
        """Show the draft's values."""
        for name in SHIPMENT_FIELDS:
            self._values[name] = str(getattr(draft, name))
            if self.built:
                self._inputs[name].value = self._values[name]
        if not self.built:
            self.summary.refresh()

    def mark_invalid(self, name: str, invalid: bool) -> None:
        """Show field `name` red, or not (restyled only when that changes: the input's own
        validation takes the class off as it is typed in, so its class is what counts)."""
        changed = (name in self.invalid) != invalid
        if invalid:
            self.invalid.add(name)
        else:
            self.invalid.discard(name)
        if self.built:
            field = self._inputs[name]
            if field.has_class("-invalid") != invalid:
                field.set_class(invalid, "-invalid")
        elif changed:
            self.summary.refresh()

    def show_day(self, day: str, placeholder: str | None) -> None:
        """The weekday the pickup date stands for; the date a blank field means."""
        if placeholder is not None:
            self.pickup_default = placeholder
        self.day = day
        if not self.built:
            self.summary.refresh()
            return
        if placeholder is not None:
            self._inputs["pickup_date"].placeholder = placeholder
        self.query_one("#quote-pickup-day", TextCell).update(day)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        name = self.name_of(event.input)
        if name is not None:
            self.post_message(self.Changed(self, name, event.input.has_focus))

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        name = self.name_of(event.widget)
        if name is not None:
            self.post_message(self.Left(self, name))
