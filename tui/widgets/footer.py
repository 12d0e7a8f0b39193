"""The footer: the keys of the screen at hand on one line, drawn by one widget."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.style import Style
from textual.widget import Widget

from tui.theme_colours import colour_of
from tui.workspace import BROWSER_KEYS, served

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.screen import Screen

SEPARATOR_ALPHA = 0.2
"""The separator is the foreground at this strength."""
_DIM = Style(dim=True)
"""A key whose action is not available now."""


class FooterKey(NamedTuple):
    """One key as the footer shows it."""

    key: str
    """The key to simulate when it is clicked."""
    display: str
    description: str
    enabled: bool
    tooltip: str


class FooterStyles(NamedTuple):
    """The footer's parts as the theme colours them (`$footer-key-foreground`…)."""

    key: Style
    description: Style
    hover: Style
    """Added to a key under the pointer."""
    separator: Style
    """The bar before the palette's key."""

    @classmethod
    def of(cls, footer: Widget) -> FooterStyles:
        """The styles over `footer`'s background, from its app's theme."""
        variables = footer.app.theme_variables
        under = footer.background_colors[1]

        def part(colour: str, background: str, *, bold: bool = False) -> Style:
            behind = under + colour_of(variables[background], under)
            return Style(
                background=behind,
                foreground=colour_of(variables[colour], behind),
                bold=True if bold else None,
            )

        faint = colour_of(variables["foreground"], under).multiply_alpha(SEPARATOR_ALPHA)
        return cls(
            key=part("footer-key-foreground", "footer-key-background", bold=True),
            description=part("footer-description-foreground", "footer-description-background"),
            hover=Style(background=under + colour_of(variables["block-hover-background"], under)),
            separator=Style(background=under, foreground=faint),
        )


class FreightFooter(Widget, can_focus=False):
    """The keys of the focused widget and its screen, as Textual's `Footer` shows them (the
    command palette's key on the right), drawn as one line of one widget.

    Textual's footer is a container with a widget per key, built once the screen's bindings
    are known (after its first frame) and rebuilt whenever they change. This one draws the
    keys in the screen's first frame and repaints one line when they change. A click on a key
    presses it; the pointer over one shows its tooltip.
    """

    DEFAULT_CSS = """
    FreightFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        pointer: pointer;
    }
    """
    """The parts' colours are the theme's footer colours (`FooterStyles`), read as drawn."""
    ALLOW_SELECT = False

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.compact = compact
        self._hover_x: int | None = None
        self._spans: list[tuple[int, int, FooterKey]] = []
        """Where each key was drawn last: start and end column, the key."""

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: Screen[object]) -> None:
        self.refresh()

    def keys(self) -> tuple[list[FooterKey], FooterKey | None]:
        """The keys to show, left to right (one per action), and the palette's key."""
        app = self.app
        palette = app.COMMAND_PALETTE_BINDING
        shown: list[FooterKey] = []
        places: dict[str, int] = {}
        palette_key: FooterKey | None = None
        # In a browser, a key it keeps for itself (ctrl+n, ctrl+t…) never reaches the app:
        # the action's other key is shown instead, in the same place.
        kept = BROWSER_KEYS if served() else frozenset()
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.key == palette and app.ENABLE_COMMAND_PALETTE:
                palette_key = self._key(binding, enabled, binding.tooltip or binding.description)
            elif binding.show and binding.action not in places:
                places[binding.action] = len(shown)
                shown.append(self._key(binding, enabled, tooltip))
            elif binding.show and shown[places[binding.action]].key in kept:
                shown[places[binding.action]] = self._key(binding, enabled, tooltip)
        return shown, palette_key

    def _key(self, binding: Binding, enabled: bool, tooltip: str) -> FooterKey:
        display = self.app.get_key_display(binding)
        return FooterKey(binding.key, display, binding.description, enabled, tooltip)

    def _parts(self, key: FooterKey) -> tuple[str, str]:
        """The key's two parts as drawn: the key, then its description."""
        if not key.description:
            return key.display, ""
        if self.compact:
            return key.display, f" {key.description}"
        return f" {key.display} ", f"{key.description} "

    def _styles(
        self, styles: FooterStyles, key: FooterKey, start: int, width: int
    ) -> tuple[Style, Style]:
        """The styles of the key's two parts, drawn from column `start`, `width` wide."""
        key_style, description_style = styles.key, styles.description
        hover = self._hover_x
        if hover is not None and start <= hover < start + width:
            hovered = styles.hover
            key_style, description_style = key_style + hovered, description_style + hovered
        if not key.enabled:
            key_style, description_style = key_style + _DIM, description_style + _DIM
        return key_style, description_style

    def render(self) -> Content:
        styles = FooterStyles.of(self)
        width = self.size.width
        shown, palette = self.keys()
        palette_width = 0
        if palette is not None:  # "▏^p palette "
            palette_width = 1 + cell_len(palette.display) + 1 + cell_len(palette.description) + 1
        room = width - palette_width
        parts: list[tuple[str, Style] | str] = []
        spans: list[tuple[int, int, FooterKey]] = []
        x = 0
        for key in shown:
            shown_key, description = self._parts(key)
            key_width = cell_len(shown_key) + cell_len(description)
            if x + key_width > room:
                break
            key_style, description_style = self._styles(styles, key, x, key_width)
            parts += [(shown_key, key_style), (description, description_style)]
            spans.append((x, x + key_width, key))
            x += key_width
            if self.compact and x < room:
                parts.append(" ")
                x += 1
        if palette is not None and palette_width <= width:
            start = width - palette_width
            key_style, description_style = self._styles(
                styles, palette, start + 1, palette_width - 1
            )
            parts += [
                " " * (start - x),
                ("▏", styles.separator),
                (palette.display, key_style),
                (f" {palette.description}", description_style),
                " ",
            ]
            spans.append((start + 1, width, palette))
        self._spans = spans
        return Content.assemble(*parts)

    def key_at(self, x: int) -> FooterKey | None:
        """The key drawn at column `x`, if any."""
        return next((key for start, end, key in self._spans if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        key = self.key_at(event.x)
        self.tooltip = key.tooltip if key is not None and key.tooltip else None
        if self._hover_x != event.x:
            self._hover_x = event.x
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        self._hover_x = None
        self.tooltip = None
        self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self.key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
