"""The quote's accessorials as toggles, by the end they happen at; a letter flips each."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Checkbox

from tui.domain.accessorials import Accessorial, End
from tui.screens.modal import FreightModal
from tui.widgets.plain import Static
from tui.widgets.tick_box import TickBox

_HEADINGS: dict[End, str] = {
    "pickup": "At pickup",
    "delivery": "At delivery",
    "shipment": "Whole shipment",
}


class AccessorialsScreen(FreightModal[tuple[Accessorial, ...]]):
    """Seven toggles; enter or esc closes and keeps them (each carrier prices them apart)."""

    TITLE = "Accessorials"

    HELP = """\
### Accessorials

Services beyond dock-to-dock that carriers charge for, each its own line in the rates.
The letter in brackets flips one; space flips the focused one; enter or esc closes.
Residential and limited-access pickup or delivery come from the location type.
"""

    DEFAULT_CSS = """
    AccessorialsScreen > Vertical {
        width: 46;
        height: auto;
        border: round $accent;
        padding: 0 1;
    }
    AccessorialsScreen .heading {
        color: $text-muted;
        text-style: bold;
    }
    AccessorialsScreen Checkbox {
        border: none;
        padding: 0;
        height: 1;
    }
    AccessorialsScreen #accessorials-hint {
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,enter",
            "close",
            "Done",
            id="accessorials.close",
            tooltip="Close (kept)",
            priority=True,
        ),
        *[
            Binding(
                accessorial.key,
                f"flip('{accessorial.name}')",
                accessorial.short,
                id=f"accessorials.{accessorial.name.lower()}",
                show=False,
                priority=True,  # in the order typed: `l a Enter` flips both, then closes
            )
            for accessorial in Accessorial
        ],
    ]

    def __init__(self, chosen: Iterable[Accessorial]) -> None:
        super().__init__()
        self.chosen = frozenset(chosen)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Accessorials"
            end: End | None = None
            for accessorial in Accessorial:
                if accessorial.end != end:
                    end = accessorial.end
                    yield Static(_HEADINGS[end], classes="heading")
                yield TickBox(
                    Content(f"({accessorial.key}) {accessorial.label}"),
                    accessorial in self.chosen,
                    id=f"acc-{accessorial.name.lower()}",
                    compact=True,
                )
            yield Static("letter or space flips · enter/esc done", id="accessorials-hint")

    def box(self, accessorial: Accessorial) -> Checkbox:
        """The toggle of one accessorial."""
        return self.query_one(f"#acc-{accessorial.name.lower()}", Checkbox)

    def selected(self) -> tuple[Accessorial, ...]:
        """What is on, in menu order."""
        return tuple(a for a in Accessorial if self.box(a).value)

    def action_flip(self, name: str) -> None:
        box = self.box(Accessorial[name])
        box.toggle()
        box.focus()

    def action_close(self) -> None:
        self.dismiss(self.selected())
