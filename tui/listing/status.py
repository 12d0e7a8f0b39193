"""Shipment status shown as a glyph, a word and a colour (never colour alone), and its timeline."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from tui.domain.safe_text import plain

LIFECYCLE = ("pending", "awarded", "confirmed", "picked-up", "delivered")
"""The statuses a shipment passes through, in order; `canceled` stands apart."""

_GLYPHS = {
    "pending": "○",
    "awarded": "◔",
    "confirmed": "◑",
    "picked-up": "◕",
    "delivered": "●",
    "canceled": "✕",
}

ANSI_COLOURS: Mapping[str, str] = {
    "pending": "bright_black",
    "awarded": "magenta",
    "confirmed": "bright_blue",
    "picked-up": "bright_magenta",
    "delivered": "default",
    "canceled": "red",
}
"""Each status's colour on a 16-colour terminal or in an ANSI theme, where the background is
the terminal's own, dark or light: six different looks, each readable at 3:1 on both (yellow,
cyan and green are not, on white), the terminal's own text for delivered."""

_COLOURS: dict[str, str] = dict(ANSI_COLOURS)
"""Rich colour of each status: the terminal's own until the app gives its theme's."""


def use_colours(colours: Mapping[str, str]) -> None:
    """Colour the statuses with ``colours`` from now on (the app calls it on a theme change)."""
    _COLOURS.update(colours)


def status_label(status: str) -> str:
    """`◑ confirmed`; an unknown status keeps its word with a neutral glyph."""
    glyph = _GLYPHS.get(status)
    if glyph is not None:
        return f"{glyph} {status}"
    return f"· {plain(status) or 'unknown'}"


def status_style(status: str) -> str | None:
    """The Rich style of a status word, or None for an unknown status."""
    colour = _COLOURS.get(status)
    return f"bold {colour}" if colour else None


def status_text(status: str) -> Text:
    """The status label as styled Rich text."""
    return Text(status_label(status), style=status_style(status) or "")


def timeline(status: str) -> Text:
    """`pending ── awarded ── [confirmed] ── picked-up ── delivered`, reached steps lit.

    A canceled shipment shows the lifecycle dimmed and `✕ canceled` apart from it.
    """
    canceled = status == "canceled"
    reached = LIFECYCLE.index(status) if status in LIFECYCLE else -1
    line = Text()
    for step, name in enumerate(LIFECYCLE):
        if step:
            line.append(" ── ", style="dim" if canceled or step > reached else "")
        if canceled or step > reached:
            line.append(name, style="dim")
        elif step == reached:
            line.append(f"[{name}]", style=f"reverse {status_style(name)}")
        else:
            line.append(f"✓{name}", style=status_style(name) or "")
    if canceled:
        line.append("   ")
        line.append_text(status_text("canceled"))
    elif reached < 0 and status:
        line.append("   ")
        line.append_text(status_text(status))
    return line
