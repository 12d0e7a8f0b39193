"""The booking form's pickup section: pickup date, schedule pickup, the shipper's reference."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Input

from tui.domain.pickup_dates import US
from tui.forms.book_times import day_note, parse_pickup_day
from tui.widgets import WidgetMessage
from tui.widgets.plain import Label, Static
from tui.widgets.tick_box import TickBox
from tui.widgets.typeahead import TypeaheadFocus

DATE = "date"
REFERENCE = "reference"


class PickupForm(Vertical, TypeaheadFocus):
    """Pickup date (blank: the next business day), schedule pickup, and the shipper's reference."""

    DEFAULT_CSS = """
    PickupForm {
        height: auto;
        margin-top: 1;
    }
    PickupForm .contact-title {
        text-style: bold;
        color: $accent;
    }
    PickupForm .field-row {
        height: 1;
    }
    PickupForm .field-label {
        width: 9;
    }
    PickupForm #pickup-date {
        width: 20;
    }
    PickupForm #pickup-reference {
        width: 1fr;
    }
    PickupForm #book-pickup {
        border: none;
        padding: 0;
        height: 1;
        margin-left: 2;
    }
    PickupForm .field-row.-invalid .field-label {
        color: $error;
        text-style: bold;
    }
    PickupForm .field-error {
        display: none;
        color: $error;
        padding-left: 9;
        height: auto;
    }
    PickupForm .field-error.-shown {
        display: block;
    }
    PickupForm #pickup-date-note {
        color: $text-muted;
        padding-left: 9;
        height: auto;
    }
    """

    class Changed(WidgetMessage["PickupForm"]):
        """A field of the pickup section was edited."""

    def __init__(
        self,
        today: Callable[[], date],
        *,
        quoted: date | None,
        schedule: bool,
        region: str = US,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._today = today
        self.holiday_region = region
        """Whose holidays the day is checked against (`pickup_dates.region_of` the origin)."""
        self.quoted = quoted
        self.schedule = schedule
        self._loading = False
        self._touched = False

    def compose(self) -> ComposeResult:
        yield Static("Pickup", classes="contact-title")
        with Horizontal(classes="field-row", id="pickup-date-row"):
            yield Label("Date", classes="field-label")
            yield Input(
                placeholder="next business day", id="pickup-date", compact=True, max_length=20
            )
            if self.schedule:
                yield TickBox("Schedule pickup", value=True, id="book-pickup", compact=True)
        yield Static("", classes="field-error", id="pickup-date-error", markup=False)
        yield Static("", id="pickup-date-note", markup=False)
        with Horizontal(classes="field-row", id="pickup-reference-row"):
            yield Label("Your ref", classes="field-label")
            yield Input(
                placeholder="shipper reference (goes on the BOL)",
                id="pickup-reference",
                compact=True,
                max_length=60,
            )
        yield Static("", classes="field-error", id="pickup-reference-error", markup=False)

    def on_mount(self) -> None:
        self.show_errors({})

    def input(self, name: str) -> Input:
        """The input of a field (`date` or `reference`)."""
        return self.query_one(f"#pickup-{name}", Input)

    # -- values -------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """The typed text of each field, and whether a pickup is to be scheduled."""
        values: dict[str, Any] = {
            DATE: self.input(DATE).value,
            REFERENCE: self.input(REFERENCE).value,
        }
        if self.schedule:
            values["schedule"] = self.query_one("#book-pickup", Checkbox).value
        return values

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Fill fields by name (unknown names and wrong types ignored), then re-check."""
        self._loading = True
        try:
            for name in (DATE, REFERENCE):
                if isinstance(values.get(name), str):
                    self.input(name).value = values[name]
            if self.schedule and isinstance(values.get("schedule"), bool):
                self.query_one("#book-pickup", Checkbox).value = values["schedule"]
        finally:
            self._loading = False
        self._touched = bool(self.input(DATE).value.strip())
        self.show_errors(self.errors())

    def pickup_date(self) -> date | None:
        """The day typed (None: blank, the carrier's next business day); ValueError if bad."""
        text = self.input(DATE).value
        return parse_pickup_day(text, self._today(), self.holiday_region) if text.strip() else None

    # -- checks -------------------------------------------------------------------------

    def errors(self) -> dict[str, str]:
        """Messages by field name."""
        try:
            self.pickup_date()
        except ValueError as error:
            return {DATE: str(error)}
        return {}

    def show_errors(self, errors: Mapping[str, str]) -> None:
        """Show each message under its field; the day read back (and the quoted day) otherwise."""
        for name in (DATE, REFERENCE):
            message = errors.get(name, "")
            self.query_one(f"#pickup-{name}-row").set_class(bool(message), "-invalid")
            error = self.query_one(f"#pickup-{name}-error", Static)
            error.update(message)
            error.set_class(bool(message), "-shown")
        note = "" if DATE in errors else self._date_note()
        shown = self.query_one("#pickup-date-note", Static)
        shown.update(note)
        shown.display = bool(note)

    def _date_note(self) -> str:
        try:
            day = self.pickup_date()
        except ValueError:
            return ""
        if day is None:
            return ""
        return day_note(day, self._today(), self.quoted, self.holiday_region)

    def first_invalid(self, errors: Mapping[str, str]) -> Input | None:
        """The input of the first field with a message."""
        for name in (DATE, REFERENCE):
            if name in errors:
                return self.input(name)
        return None

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        if self._loading:
            return
        event.stop()
        errors = self.errors()
        if not self._touched and event.input.id == "pickup-date":
            errors = {}  # a day half typed is no mistake yet: checked once the field is left
        self.show_errors(errors)
        self.post_message(self.Changed(self))

    @on(Input.Blurred, "#pickup-date")
    def _left(self, event: Input.Blurred) -> None:
        if event.input.value.strip():
            self._touched = True
            self.show_errors(self.errors())
