"""F1 help: what the focused field is for and every key that works there now."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Markdown

from tui.screens.modal import FreightModal
from tui.widgets.plain import Static

GENERAL_KEYS = (
    ("app.quote", "quote"),
    ("app.rates", "rates"),
    ("app.shipments", "shipments"),
    ("app.day", "day"),
    ("app.reports", "reports"),
    ("app.help", "help (again: close)"),
    ("app.quit", "quit"),
)
"""The app-wide keys the general help names (with the keys in force)."""


def _keys_in_force(screen: Screen[Any]) -> dict[str, list[str]]:
    """The keys each binding id answers to on ``screen`` now (the config's [keymap] applied)."""
    keys: dict[str, list[str]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if binding.id:
            keys.setdefault(binding.id, []).append(screen.app.get_key_display(binding) or key)
    return keys


def _general_help(screen: Screen[Any]) -> str:
    keys = _keys_in_force(screen)
    parts = [
        f"{' / '.join(keys[binding_id])} {word}"
        for binding_id, word in GENERAL_KEYS
        if binding_id in keys
    ]
    return (
        "**Freight** is driven from the keyboard. "
        + " · ".join([*parts, "ctrl+p commands", "Esc back"])
        + ". The alt keys stand in where F-keys don't reach (tmux, screen, a plain xterm or"
        " vt100). A barcode scanner's code + Enter opens that shipment on the shipments list,"
        " a shipment or the booking result, unless a text field other than the empty search"
        " has focus (there it is typed)."
        + "\n\nEvery key can be changed in the `[keymap]` table of the config file by the id "
        'after it, e.g. `"quote.add_item" = "ctrl+n,f5"`.'
    )


def _key_table(screen: Screen[Any]) -> str:
    """The keys that work here now, one line per action with every key it answers to and its
    binding id (Textual's stock scrolling keys left out)."""
    entries: dict[tuple[str, str], tuple[Binding, list[str]]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description or not active.enabled:
            continue
        if binding.id is None and type(active.node).__module__.startswith("textual."):
            continue  # Textual's own scrolling keys: the same everywhere
        label = screen.app.get_key_display(binding) or key
        _, labels = entries.setdefault((binding.action, binding.description), (binding, []))
        if label not in labels:
            labels.append(label)
    rows = []
    for binding, labels in entries.values():
        keys = " / ".join(f"`{label}`" for label in labels)
        tip = f" — {binding.tooltip}" if binding.tooltip else ""
        remap = f" · `{binding.id}`" if binding.id else ""
        rows.append(f"- {keys} **{binding.description}**{tip}{remap}")
    return "**Keys here**\n\n" + "\n".join(rows) if rows else ""


class HelpScreen(FreightModal[None]):
    """Help for the focused widget, with the live bindings."""

    TITLE = "Help"

    DEFAULT_CSS = """
    HelpScreen > VerticalScroll {
        width: 90%;
        max-width: 100;
        height: 90%;
        border: round $accent;
        padding: 0 1;
    }
    """
    BINDINGS = [
        Binding("escape,f1,q", "dismiss", "Close", id="help.close", tooltip="Close help"),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.help_title = title
        self.body = body

    @classmethod
    def for_focus(cls, screen: Screen[Any]) -> HelpScreen:
        """Build the help for whatever has focus on `screen`."""
        parts: list[str] = []
        title = screen.title or "Freight"  # each screen's TITLE, never its class's name
        node = screen.focused
        while node is not None:
            text = getattr(node, "HELP", None)
            if text:
                parts.append(str(text))
                break
            node = node.parent  # type: ignore[assignment]
        screen_help = getattr(screen, "HELP", None)
        if screen_help and str(screen_help) not in parts:
            parts.append(str(screen_help))
        parts.append(_key_table(screen))
        parts.append(_general_help(screen))
        return cls(title, "\n\n".join(part for part in parts if part))

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = f"Help · {self.help_title}"
            scroll.border_subtitle = "Esc close"
            yield Markdown(self.body)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class ConfirmQuitScreen(FreightModal[bool]):
    """Asked only when a booking is in flight: quitting now leaves its outcome unknown."""

    TITLE = "Quit"

    DEFAULT_CSS = """
    ConfirmQuitScreen > VerticalScroll {
        width: 60;
        height: auto;
        border: thick $error;
        padding: 0 1;
    }
    ConfirmQuitScreen Horizontal {
        height: auto;
    }
    """
    BINDINGS = [
        Binding("escape,n", "stay", "Stay", id="quit.stay", tooltip="Keep waiting"),
        Binding("y", "leave", "Quit", id="quit.leave", tooltip="Quit anyway"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(
                "A booking is being sent. If you quit now you will not see whether it went "
                "through: check Shipments before booking again.\n\nQuit anyway? (y/n)"
            )
            with Horizontal():
                yield Button("Stay (n)", id="stay", variant="primary")
                yield Button("Quit (y)", id="leave", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_stay(self) -> None:
        self.dismiss(False)

    def action_leave(self) -> None:
        self.dismiss(True)
