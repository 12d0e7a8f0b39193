"""A widget's border, brightened while focus is inside it, without a `:focus-within` rule."""

from __future__ import annotations

from textual.color import Color
from textual.widget import Widget


class FocusBorder:
    """Keeps `widget`'s round border in the theme's `border` colour while focus is inside it,
    `border-blurred` otherwise. A `:focus-within` rule would restyle every descendant on each
    focus move, which grows with what the widget holds."""

    def __init__(self, widget: Widget) -> None:
        self._widget = widget
        self._shown = False

    def follow_theme(self) -> None:
        """Repaint the border in each new theme's colours (call once the widget is mounted)."""
        widget = self._widget
        widget.app.theme_changed_signal.subscribe(widget, lambda _theme: self.show(force=True))

    def show(self, *, force: bool = False) -> None:
        """Paint the border for where focus is now (`force`: even if that did not change)."""
        widget = self._widget
        inside = widget.has_focus_within
        if inside == self._shown and not force:
            return
        self._shown = inside
        color = widget.app.get_css_variables()["border" if inside else "border-blurred"]
        widget.styles.border = ("round", Color.parse(color))
