"""A footer that rebuilds its keys only when the keys it would show have changed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class FreightFooter(Footer):
    """Textual's footer, minus the rebuilds that would show the same keys again.

    The stock footer recomposes (unmounts and mounts every key, with a style pass for each)
    on every bindings signal: a focus change, a screen resume, each `refresh_bindings()`.
    Pushing a screen sends several of those in a row. This one coalesces the signals that
    arrive before its next turn into one check, recomposes only when the keys shown or their
    labels differ, and otherwise just dims or undims the keys whose action became unavailable
    or available again. The first check waits for the screen's first frame (as the stock
    footer does: the screen and its request come first); later ones are made at once, so the
    keys change in the same frame as what changed them.
    """

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(compact=compact, id=id)
        self._layout: object = None
        self._enabled: dict[tuple[str, str], bool] = {}
        self._check_pending = False

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # Born with the footer's compact value, so the data binding changes nothing
                # (the stock key starts compact, then restyles itself when it is bound).
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._check_pending:
            self._check_pending = True
            if self._layout is None:  # nothing shown yet
                self.call_after_refresh(self._update_keys)
            else:
                self.call_next(self._update_keys)

    async def _update_keys(self) -> None:
        self._check_pending = False
        if not self.is_attached:
            return
        shown = self._shown_bindings()
        layout = (
            self.compact,
            self.show_command_palette,
            self.combine_groups,
            tuple(
                (binding.key, binding.action, binding.description, binding.group, tooltip)
                for binding, _enabled, tooltip in shown
            ),
        )
        enabled = {(binding.key, binding.action): on for binding, on, _tooltip in shown}
        if layout != self._layout:
            self._layout, self._enabled = layout, enabled
            await self.recompose()
            return
        if enabled == self._enabled:
            return
        self._enabled = enabled
        for key in self.query(FooterKey):
            on = enabled.get((key.key, key.action))
            if on is not None:
                key._disabled = not on
                key.set_class(not on, "-disabled")

    def _shown_bindings(self) -> list[tuple[Binding, bool, str]]:
        """The bindings compose would show, each with its enabled state and tooltip."""
        palette = self.app.COMMAND_PALETTE_BINDING
        return [
            (binding, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show or binding.key == palette
        ]
