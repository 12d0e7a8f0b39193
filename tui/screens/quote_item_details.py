"""One item row's second-level fields (NMFC, stackable, hazmat) and the emergency contact."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Checkbox, Input

from tui.domain.quote_form import DETAIL_FIELDS, ItemDraft, QuoteDraft
from tui.screens.modal import FreightModal
from tui.widgets.plain import Label, Static
from tui.widgets.tick_box import TickBox
from tui.widgets.typeahead import TYPEAHEAD_BINDINGS

# (field, label, placeholder)
_INPUTS: tuple[tuple[str, str, str], ...] = (
    ("nmfc", "NMFC item", "156600-03"),
    ("hazmat_id", "UN number", "UN1203"),
    ("hazard_class", "Hazard class", "3, 2.1, 6.1…"),
    ("packing_group", "Packing group", "I, II, III"),
    ("emergency_name", "Emergency name", "24-hour contact"),
    ("emergency_phone", "Emergency phone", "800-555-0100"),
)


@dataclass(frozen=True, slots=True)
class ItemDetails:
    """What the dialog hands back: the row with its details, and the shipment's contact."""

    item: ItemDraft
    emergency_name: str
    emergency_phone: str


class ItemDetailsScreen(FreightModal[ItemDetails]):
    """NMFC, stackable, hazardous with UN number, class and packing group; emergency contact.

    Enter or esc closes and keeps everything typed (wrong values stay, marked on the row).
    """

    TITLE = "Item details"

    HELP = """\
### Item details

**NMFC item**: the commodity's item number (e.g. `156600`, or with its sub `156600-03`).
**Stackable**: clear it when nothing may go on top (the carrier bills the space above).
**Hazardous**: UN number (`UN` and 4 digits), hazard class 1-9 or a division such as `2.1`,
and the packing group (I, II or III; none for class 2 and 7). Hazardous freight needs a
24-hour emergency contact: one per shipment, shared by every row.
"""

    DEFAULT_CSS = """
    ItemDetailsScreen > Vertical {
        width: 62;
        height: auto;
        border: round $accent;
        padding: 0 1;
    }
    ItemDetailsScreen Horizontal {
        height: 1;
    }
    ItemDetailsScreen Label {
        width: 16;
        color: $text-muted;
    }
    ItemDetailsScreen Input {
        width: 1fr;
    }
    ItemDetailsScreen Input.-invalid {
        background: $error 35%;
    }
    ItemDetailsScreen Checkbox {
        border: none;
        padding: 0;
        height: 1;
    }
    ItemDetailsScreen .heading {
        color: $text-muted;
        text-style: bold;
        margin-top: 1;
    }
    ItemDetailsScreen #details-hint {
        color: $text-muted;
    }
    ItemDetailsScreen #details-message {
        height: 1;
        color: $text-muted;
    }
    ItemDetailsScreen #details-message.-error {
        color: $error;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *TYPEAHEAD_BINDINGS,  # Tab moves focus as it arrives (over Screen's own Tab)
        Binding("escape", "close", "Done", id="item_details.close", tooltip="Close (kept)"),
    ]

    def __init__(
        self, index: int, draft: QuoteDraft, focus_field: str | None = None, show_all: bool = False
    ) -> None:
        super().__init__()
        self.index = index
        self.draft = draft
        self.focus_field = focus_field
        self._touched: set[str] = set()
        self._show_all = show_all

    @property
    def item(self) -> ItemDraft:
        """The row as the dialog opened with it."""
        return self.draft.items[self.index]

    def compose(self) -> ComposeResult:
        item = self.item
        values = {
            **{name: getattr(item, name) for name in DETAIL_FIELDS},
            "emergency_name": self.draft.emergency_name,
            "emergency_phone": self.draft.emergency_phone,
        }
        with Vertical() as box:
            box.border_title = f"Row {self.index + 1} details"
            description = item.description.strip() or "(no description)"
            yield Static(description, id="details-description")
            for name, label, placeholder in _INPUTS:
                if name == "hazmat_id":
                    yield TickBox("Stackable", item.stackable, id="details-stackable", compact=True)
                    yield TickBox(
                        "Hazardous material", item.hazardous, id="details-hazardous", compact=True
                    )
                if name == "emergency_name":
                    yield Static(
                        "Emergency contact: 24 h, for hazmat, whole shipment",
                        classes="heading",
                    )
                with Horizontal():
                    yield Label(label)
                    yield Input(
                        values[name],
                        placeholder=placeholder,
                        id=f"details-{name}",
                        name=name,
                        compact=True,
                        max_length=60,
                        select_on_focus=False,
                    )
            yield Static("", id="details-message")
            yield Static("enter next · esc done (kept) · space toggles", id="details-hint")

    def on_mount(self) -> None:
        name = self.focus_field if self.focus_field else "nmfc"
        widget: Widget = self.query_one(f"#details-{name}")
        widget.focus()
        self._revalidate()

    def field(self, name: str) -> Input:
        """The input of one field (`nmfc`, `hazmat_id`, … `emergency_phone`)."""
        return self.query_one(f"#details-{name}", Input)

    def result(self) -> ItemDetails:
        """The row and contact as typed now."""
        item = replace(
            self.item,
            **{name: self.field(name).value for name in DETAIL_FIELDS},
            stackable=self.query_one("#details-stackable", Checkbox).value,
            hazardous=self.query_one("#details-hazardous", Checkbox).value,
        )
        return ItemDetails(
            item, self.field("emergency_name").value, self.field("emergency_phone").value
        )

    def _errors(self) -> dict[str, str]:
        details = self.result()
        items = list(self.draft.items)
        items[self.index] = details.item
        draft = replace(
            self.draft,
            items=tuple(items),
            emergency_name=details.emergency_name,
            emergency_phone=details.emergency_phone,
        )
        found = {
            name: message
            for name, message in details.item.errors().items()
            if name in DETAIL_FIELDS
        }
        found.update({error.field: error.message for error in draft.emergency_errors()})
        return found

    def _revalidate(self) -> None:
        errors = self._errors()
        shown = {name for name in errors if self._show_all or name in self._touched}
        for name, _label, _placeholder in _INPUTS:
            field = self.field(name)
            if field.has_class("-invalid") != (name in shown):
                field.set_class(name in shown, "-invalid")
        message = self.query_one("#details-message", Static)
        focused = self.focused.name if isinstance(self.focused, Input) else None
        order = [key for key, _label, _placeholder in _INPUTS if key in shown]
        chosen = focused if focused in shown else (order[0] if order else None)
        if chosen is None:
            message.remove_class("-error")
            message.update(self.result().item.details_line())
            return
        message.add_class("-error")
        message.update(errors[chosen])

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        if event.input.name and event.input.has_focus:
            self._touched.add(event.input.name)
        self._revalidate()

    @on(Checkbox.Changed)
    def _flipped(self, event: Checkbox.Changed) -> None:
        self._revalidate()

    def on_descendant_blur(self, event: object) -> None:
        widget = getattr(event, "widget", None)
        if isinstance(widget, Input) and widget.name:
            self._touched.add(widget.name)
        if self.is_mounted:
            self._revalidate()

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        """Enter in a field: the next field; in the last one, close (kept).

        Handled as the field's own Enter, after the keys typed before it, so a fast typist's
        last characters are in the field before the dialog closes.
        """
        event.stop()
        if event.input.name == "emergency_phone":
            self.action_close()
        else:
            self.focus_next()

    def action_close(self) -> None:
        self.dismiss(self.result())
