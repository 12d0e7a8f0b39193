"""The quote's shipment line under the grid: pickup day, PO and your reference."""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Input

from tui.domain.quote_form import SHIPMENT_FIELDS, QuoteDraft
from tui.widgets import WidgetMessage
from tui.widgets.plain import Label
from tui.widgets.text_cell import TextCell

# (field, label, input width, placeholder)
_INPUTS: tuple[tuple[str, str, int, str], ...] = (
    ("pickup_date", "Pickup", 12, ""),
    ("po_number", "PO", 12, "PO / order"),
    ("shipper_reference", "Ref", 12, "your ref"),
)


class ShipmentFields(Horizontal):
    """Three inputs named by their draft field, and the pickup day the date stands for."""

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
        self._draft = draft

    def compose(self) -> ComposeResult:
        for name, label, width, placeholder in _INPUTS:
            yield Label(label)
            field = Input(
                getattr(self._draft, name),
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

    def field(self, name: str) -> Input:
        """The input of `pickup_date`, `po_number` or `shipper_reference`."""
        return self.query_one(f"#quote-{name}", Input)

    def name_of(self, widget: Widget | None) -> str | None:
        """The field `widget` is the input of; None when it is none of them."""
        if isinstance(widget, Input) and widget.parent is self and widget.name in SHIPMENT_FIELDS:
            return widget.name
        return None

    def load(self, draft: QuoteDraft) -> None:
        """Show the draft's values."""
        for name in SHIPMENT_FIELDS:
            self.field(name).value = getattr(draft, name)

    def show_day(self, day: str, placeholder: str | None) -> None:
        """The weekday the pickup date stands for; the date a blank field means."""
        if placeholder is not None:
            self.field("pickup_date").placeholder = placeholder
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
