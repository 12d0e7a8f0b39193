"""One end of a shipment for rating: ZIP code and location type, on one line."""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Input

from tui.domain.locations import DEFAULT_LOCATION_TYPE, LOCATION_TYPES, LOCATION_TYPES_SHORT
from tui.textual_internals import SETTLED_INPUT_CLASSES
from tui.widgets import WidgetMessage
from tui.widgets.drop_down import DropDown
from tui.widgets.text_cell import TextCell


class LocationPicker(Horizontal):
    """`From [60601] [Dock ▾]`: posts Changed when either part changes."""

    HELP = """\
### Origin and destination

A US ZIP code (`60601`, or ZIP+4 `60601-1234`) or a Canadian postal code (`M5V 2T6`,
any case, space or not) and what kind of place it is. The location
type decides accessorials: **No dock** adds a liftgate, **Residential** a residential fee,
**Limited access** (schools, farms, construction sites…), **Trade show** and **DC**
(distribution center, appointment) their own fees.

ctrl+a (or F10) picks a saved address from the address book.
"""

    DEFAULT_CSS = """
    LocationPicker {
        width: auto;
        height: 1;
        margin-right: 1;
    }
    LocationPicker > Input {
        width: 11;
        margin-right: 1;
    }
    LocationPicker > DropDown {
        width: 14;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "zip_enter",
            "Next",
            id="quote.zip_enter",
            tooltip="Next field",
            show=False,
            priority=True,
        ),
    ]

    OPTIONS: ClassVar[list[tuple[str, str]]] = [
        (LOCATION_TYPES_SHORT[key], key) for key in LOCATION_TYPES
    ]

    class _FromPicker(WidgetMessage["LocationPicker"]):
        @property
        def picker(self) -> LocationPicker:
            return self.control

    class Changed(_FromPicker):
        """The ZIP or the location type changed."""

    class Touched(_FromPicker):
        """The user typed in, or left, the ZIP field."""

    def __init__(
        self,
        label: str,
        postal_code: str = "",
        location_type: str = DEFAULT_LOCATION_TYPE,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self._label = label
        self._postal_code = postal_code
        self._location_type = (
            location_type if location_type in LOCATION_TYPES else DEFAULT_LOCATION_TYPE
        )

    def compose(self) -> ComposeResult:
        yield TextCell(self._label, classes="-label")
        yield Input(
            self._postal_code,
            placeholder="ZIP",
            max_length=10,
            compact=True,
            select_on_focus=False,
            classes=f"zip {SETTLED_INPUT_CLASSES}",
        )
        yield DropDown(self.OPTIONS, self._location_type, classes="location-type")

    @property
    def zip_input(self) -> Input:
        return self.query_one(Input)

    @property
    def type_select(self) -> DropDown:
        return self.query_one(DropDown)

    @property
    def postal_code(self) -> str:
        return self.zip_input.value if self.is_mounted else self._postal_code

    @property
    def location_type(self) -> str:
        if not self.is_mounted:
            return self._location_type
        return self.type_select.value

    def set_location(self, postal_code: str, location_type: str) -> None:
        """Fill both parts (from the address book)."""
        self.zip_input.value = postal_code
        if location_type in LOCATION_TYPES:
            self.type_select.value = location_type
        if postal_code:
            self.post_message(self.Touched(self))

    @on(Input.Changed)
    def _zip_changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.input.has_focus:
            self.post_message(self.Touched(self))
        self.post_message(self.Changed(self))

    def action_zip_enter(self) -> None:
        """Enter in the ZIP moves on at once (before the next key is routed), past the
        drop-downs a shipper rarely changes (location type, mode filter): from the origin to
        the destination ZIP, from there to the items. Tab still stops on each."""
        zip_input = self.zip_input
        if not zip_input.has_focus:
            raise SkipAction
        screen = self.screen
        chain = screen.focus_chain
        after = chain[chain.index(zip_input) + 1 :] if zip_input in chain else []
        target = next((widget for widget in after if not isinstance(widget, DropDown)), None)
        if target is None:
            screen.focus_next()
        else:
            screen.set_focus(target)

    @on(DropDown.Changed)
    def _type_changed(self, event: DropDown.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self))

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, Input):
            self.post_message(self.Touched(self))
