"""Colours from the Textual theme: status and environment styles, and theme-name checks.

Statuses and the header's environment badge take the current theme's variables. A terminal
with 16 colours gets its own ANSI colours instead (a theme's pastel shades all round to grey
there), each status a different one, and PRODUCTION is the one filled, loud badge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.app import App
from textual.color import Color, ColorParseError
from textual.theme import BUILTIN_THEMES

from tui.listing.status import ANSI_COLOURS

STATUS_VARIABLES: Mapping[str, str] = {
    "pending": "text-warning",
    "awarded": "text-secondary",
    "confirmed": "text-primary",
    "picked-up": "text-accent",
    "delivered": "text-success",
    "canceled": "text-error",
}
"""The theme variable that colours each status."""

STATUS_ANSI = ANSI_COLOURS
"""Each status's colour on a 16-colour terminal: six different ANSI colours."""

ENV_VARIABLES: Mapping[str, str] = {"DEMO": "text-success", "SANDBOX": "text-warning"}
"""Quiet badges: coloured words on the header; only PRODUCTION is filled."""
ENV_ANSI: Mapping[str, str] = {"DEMO": "green", "SANDBOX": "yellow"}


def builtin_theme_names() -> list[str]:
    """Every theme Textual ships, sorted."""
    return sorted(BUILTIN_THEMES)


def theme_problem(name: str) -> str | None:
    """Why ``name`` is not a theme the app can use, or None when it is."""
    if name in BUILTIN_THEMES:
        return None
    return f"unknown theme {name!r}; the themes are: {', '.join(builtin_theme_names())}"


def has_16_colours(app: App[Any]) -> bool:
    """True on a terminal with only the 16 ANSI colours (TERM=xterm, the Linux console)."""
    return app.console.color_system in ("standard", "windows")


_VARIABLES: dict[str, dict[str, str]] = {}


def _theme_variables(app: App[Any]) -> Mapping[str, str]:
    """The current theme's variables (worked out once per theme name)."""
    name = app.theme
    if name not in _VARIABLES:
        _VARIABLES[name] = app.current_theme.to_color_system().generate()
    return _VARIABLES[name]


def _colour(variables: Mapping[str, str], name: str) -> Color | None:
    value = variables.get(name)
    if value is None:
        return None
    try:
        colour = Color.parse(value)
    except ColorParseError:
        return None
    return colour


def _hex(colour: Color) -> str:
    """A Rich colour name: ``#RRGGBB`` (alpha dropped), or ``color(N)`` for an ANSI colour."""
    if colour.ansi is not None:
        return colour.rich_color.name
    return f"#{colour.r:02X}{colour.g:02X}{colour.b:02X}"


def status_colours(app: App[Any]) -> dict[str, str]:
    """The colour of each status in ``app``'s theme on its terminal (Rich colour names).

    A status whose variable gives a colour another status already has (textual-dark's accent
    is its warning) takes the theme's foreground, so no two statuses look alike.
    """
    if has_16_colours(app):
        return dict(STATUS_ANSI)
    variables = _theme_variables(app)
    colours: dict[str, str] = {}
    for status, name in STATUS_VARIABLES.items():
        colour = _colour(variables, name)
        text = _hex(colour) if colour is not None else STATUS_ANSI[status]
        if text in colours.values():
            fallback = _colour(variables, "foreground")
            text = _hex(fallback) if fallback is not None else STATUS_ANSI[status]
        colours[status] = text
    return colours


def env_style(app: App[Any], env: str) -> str:
    """The Rich style of the environment word in the header."""
    sixteen = has_16_colours(app)
    variables = _theme_variables(app)
    if env == "PRODUCTION":
        error = _colour(variables, "error")
        if sixteen or error is None or error.ansi is not None:
            return "bold bright_white on red"
        return f"bold {_hex(error.get_contrast_text())} on {_hex(error)}"
    if sixteen:
        return f"bold {ENV_ANSI.get(env, 'default')}"
    colour = _colour(variables, ENV_VARIABLES.get(env, "foreground"))
    return f"bold {_hex(colour)}" if colour is not None else "bold"
