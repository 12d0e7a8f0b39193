"""One end of a shipment on the booking form: who, where, PO, instructions, dock hours."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

from tui.domain.validation import validate_email, validate_phone
from tui.forms.book_times import check_window, parse_time_of_day
from tui.widgets import WidgetMessage
from tui.widgets.plain import Label, Static
from tui.widgets.typeahead import TypeaheadFocus

Side = Literal["origin", "dest"]


@dataclass(frozen=True)
class FieldSpec:
    """A field of the form: its name, label, hint, and its check (None when any text will do)."""

    name: str
    label: str
    placeholder: str
    check: Callable[[str], str | None] | None = None
    max_length: int = 120


COMPANY = FieldSpec("company", "Company", "company name")
ADDRESS = FieldSpec("address", "Address", "street address")
CONTACT = FieldSpec("contact", "Contact", "name of the person to call")
PHONE = FieldSpec("phone", "Phone", "with area code", validate_phone, 40)
EMAIL = FieldSpec("email", "Email", "name@example.com", validate_email)
REFERENCE = FieldSpec("reference", "PO/order", "PO / order number", max_length=60)
INSTRUCTIONS = FieldSpec("instructions", "Notes", "instructions for the driver", max_length=200)
REQUIRED = ("company", "address", "contact", "phone")
"""Fields a booking needs at both ends (carriers call the contact; the BOL names the company)."""

DOCK_OPEN = "dock_open"
DOCK_CLOSE = "dock_close"


def check_field(spec: FieldSpec, value: str, *, required: bool) -> str | None:
    """The message for a field's value, or None: blank is fine unless required."""
    if not value.strip():
        return f"{spec.label.lower()} is required" if required else None
    return spec.check(value) if spec.check else None


def check_dock_hours(
    opens: str,
    closes: str,
    *,
    required: bool,
    minimum: timedelta | None,
    names: tuple[str, str] = ("open", "close"),
) -> str | None:
    """The message for the dock hours pair, or None: both or neither, readable, long enough."""
    if not opens.strip() and not closes.strip():
        return (
            f"{names[0]} and {names[1]} times are required to schedule a pickup"
            if required
            else None
        )
    return check_window(opens, closes, minimum=minimum, names=names)


class ContactForm(Vertical, TypeaheadFocus):
    """Company, address, contact and phone (and email, dock hours) of one end of a shipment."""

    HELP = """\
## Booking form

Who ships and who receives. **Company, address, contact and phone** are required at
both ends; **email** (parcel), **PO/order** number and **notes** for the driver are
optional. Times are the dock's local time, typed as `9:00`, `9am`, `0900` or `16:30`:
the pickup's **ready–close** window (at least 90 min; needed when a pickup is scheduled)
and the destination's **receiving** hours. The pickup **date** takes `2026-11-23`,
`11/23`, `today`, `tomorrow`, `+2` or a weekday (`mon`); weekends and past days are refused.
`PgDn`/`PgUp` jump to the next/previous section.

Each field is checked as you type; the reason shows under the field.
"""

    DEFAULT_CSS = """
    ContactForm {
        height: auto;
        width: 1fr;
        padding: 0 1 0 0;
    }
    ContactForm .contact-title {
        text-style: bold;
        color: $accent;
    }
    ContactForm .field-row {
        height: 1;
    }
    ContactForm .field-label {
        width: 9;
    }
    ContactForm .field-row Input {
        width: 1fr;
    }
    ContactForm .field-row.-invalid .field-label {
        color: $error;
        text-style: bold;
    }
    ContactForm .field-row Input.dock-time {
        width: 10;
    }
    ContactForm .dock-dash {
        width: 3;
        content-align: center middle;
    }
    ContactForm .field-error {
        display: none;
        color: $error;
        padding-left: 9;
        height: auto;
    }
    ContactForm .field-error.-shown {
        display: block;
    }
    """

    class Changed(WidgetMessage["ContactForm"]):
        """A field of this form was edited."""

    def __init__(
        self,
        side: Side,
        title: str,
        *,
        email: bool,
        dock_hours: bool,
        hours_label: str = "Dock",
        hours_names: tuple[str, str] = ("open", "close"),
        min_window: timedelta | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.side: Side = side
        self.title = title
        self.specs: list[FieldSpec] = [COMPANY, ADDRESS, CONTACT, PHONE]
        if email:
            self.specs.append(EMAIL)
        self.specs += [REFERENCE, INSTRUCTIONS]
        self.dock_hours = dock_hours
        self.hours_label = hours_label
        self.hours_names = hours_names
        self.min_window = min_window
        self.hours_required = False
        self._touched: set[str] = set()
        self._loading = False

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(self.title, classes="contact-title")
        for spec in self.specs:
            with Horizontal(classes="field-row", id=self._wid(f"{spec.name}-row")):
                yield Label(spec.label, classes="field-label")
                yield Input(
                    placeholder=spec.placeholder,
                    id=self._wid(spec.name),
                    compact=True,
                    max_length=spec.max_length,
                )
            yield Static(
                "", classes="field-error", id=self._wid(f"{spec.name}-error"), markup=False
            )
        if self.dock_hours:
            with Horizontal(classes="field-row", id=self._wid("hours-row")):
                yield Label(self.hours_label, classes="field-label")
                for name, example in ((DOCK_OPEN, "e.g. 8am"), (DOCK_CLOSE, "e.g. 4pm")):
                    if name == DOCK_CLOSE:
                        yield Label("–", classes="dock-dash")
                    yield Input(
                        placeholder=example,
                        id=self._wid(name),
                        compact=True,
                        max_length=9,
                        classes="dock-time",
                    )
            yield Static("", classes="field-error", id=self._wid("hours-error"), markup=False)

    def _wid(self, name: str) -> str:
        return f"{self.side}-{name.replace('_', '-')}"

    def field_names(self) -> list[str]:
        """Names of this form's fields, in order."""
        names = [spec.name for spec in self.specs]
        return [*names, DOCK_OPEN, DOCK_CLOSE] if self.dock_hours else names

    def input(self, name: str) -> Input:
        """The input of a field."""
        return self.query_one(f"#{self._wid(name)}", Input)

    # -- values -------------------------------------------------------------------------

    def values(self) -> dict[str, str]:
        """Every field's text as typed."""
        return {name: self.input(name).value for name in self.field_names()}

    def set_values(self, values: dict[str, str]) -> None:
        """Fill fields by name (unknown names ignored) and re-check what is filled."""
        self._loading = True
        try:
            for name in self.field_names():
                if name in values and isinstance(values[name], str):
                    self.input(name).value = values[name]
        finally:
            self._loading = False
        for name in self.field_names():
            if self.input(name).value:
                self._touched.add(name)
        self.show_errors(self.errors(for_booking=False))

    # -- checks -------------------------------------------------------------------------

    def errors(self, *, for_booking: bool) -> dict[str, str]:
        """Messages by field name (`hours` for the dock hours pair); blanks count when booking."""
        values = self.values()
        found: dict[str, str] = {}
        for spec in self.specs:
            required = for_booking and spec.name in REQUIRED
            message = check_field(spec, values[spec.name], required=required)
            if message:
                found[spec.name] = message
        if self.dock_hours:
            message = check_dock_hours(
                values[DOCK_OPEN],
                values[DOCK_CLOSE],
                required=for_booking and self.hours_required,
                minimum=self.min_window,
                names=self.hours_names,
            )
            if message and (for_booking or self._hours_typed(values)):
                found["hours"] = message
        return found

    def _hours_typed(self, values: dict[str, str]) -> bool:
        """Only nag about a half-typed pair once a field is left or both read as times."""
        if any(name in self._touched for name in (DOCK_OPEN, DOCK_CLOSE)):
            return True
        return all(_reads_as_time(values[name]) for name in (DOCK_OPEN, DOCK_CLOSE))

    def show_errors(self, errors: dict[str, str]) -> None:
        """Show each message under its field; clear the others."""
        for name in [spec.name for spec in self.specs] + (["hours"] if self.dock_hours else []):
            message = errors.get(name, "")
            row = self.query_one(f"#{self._wid(name + '-row')}")
            row.set_class(bool(message), "-invalid")
            error = self.query_one(f"#{self._wid(name + '-error')}", Static)
            error.update(message)
            error.set_class(bool(message), "-shown")

    def first_invalid(self, errors: dict[str, str]) -> Input | None:
        """The input of the first field with a message, in form order."""
        for name in self.field_names():
            key = "hours" if name in (DOCK_OPEN, DOCK_CLOSE) else name
            if key in errors:
                opens = self.input(DOCK_OPEN).value
                if key == "hours" and name == DOCK_OPEN and opens and _reads_as_time(opens):
                    return self.input(DOCK_CLOSE)
                return self.input(name)
        return None

    def field_for_input(self, widget_id: str | None) -> str | None:
        """The field name of one of this form's inputs."""
        for name in self.field_names():
            if widget_id == self._wid(name):
                return name
        return None

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        if self._loading:
            return
        event.stop()
        live = self.errors(for_booking=False)
        self.show_errors(live)
        self.post_message(self.Changed(self))

    @on(Input.Blurred)
    def _left(self, event: Input.Blurred) -> None:
        name = self.field_for_input(event.input.id)
        if name is not None and event.input.value:
            self._touched.add(name)
            self.show_errors(self.errors(for_booking=False))


def _reads_as_time(text: str) -> bool:
    try:
        parse_time_of_day(text)
    except ValueError:
        return False
    return True
