"""A screen's width class set as it is composed, before its children are styled."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen


def add_width_class(screen: Screen[Any]) -> None:
    """Add the class of `screen`'s HORIZONTAL_BREAKPOINTS that the app's width falls in now:
    set by the first resize instead, it would restyle the whole screen (a sixth of the
    quote form's first frame)."""
    width = screen.app.size.width
    for minimum, name in sorted(screen.HORIZONTAL_BREAKPOINTS or (), reverse=True):
        if width >= minimum:
            screen.add_class(name, update=False)
            break
