"""Colours from the Textual theme: status and environment styles, and theme-name checks.

Statuses and the header's environment badge take the current theme's variables (as
`tui.readable` made them readable on this terminal), each kept at 4.5:1 or more against the
theme's background where it can. An ANSI theme (the terminal's own background, dark or light)
gets ANSI colours that read on both instead, each status a different one, and PRODUCTION is
the one filled, loud badge. At 16 colours the default theme is an ANSI one (``ansi_theme``).
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
ENV_ANSI: Mapping[str, str] = {"DEMO": "bright_blue", "SANDBOX": "magenta"}
"""The quiet badges in ANSI colours that read on a dark and a light terminal alike."""

READABLE = 4.5
"""Contrast a status or badge word keeps against the theme's background."""


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


def ansi_theme(environ: Mapping[str, str]) -> str:
    """The ANSI theme for this terminal: ``ansi-light`` when ``COLORFGBG`` (set by rxvt,
    Konsole and others) says the background is light, else ``ansi-dark``."""
    background = environ.get("COLORFGBG", "").rsplit(";", 1)[-1].strip()
    return "ansi-light" if background in ("7", "15") else "ansi-dark"


def _ansi_colours(app: App[Any]) -> bool:
    """True when the statuses take ANSI colours: an ANSI theme (the terminal's own colours on
    its own background). Other themes are drawn in their own colours, rounded at 16 colours."""
    return app.current_theme.ansi


def _theme_variables(app: App[Any]) -> Mapping[str, str]:
    """The current theme's variables, its own overrides on top (those that keep it readable
    on this terminal among them: `tui.readable`)."""
    return app.get_css_variables()


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


def _readable(colour: Color | None, background: Color | None) -> bool:
    if colour is None or background is None or colour.ansi is not None:
        return colour is not None
    return _contrast(colour, background) >= READABLE


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _contrast(a: Color, b: Color) -> float:
    return contrast(a.rgb, b.rgb)


def _text_on(variables: Mapping[str, str], background: Color | None) -> str:
    """The theme's foreground where it reads on its background, else black or white."""
    foreground = _colour(variables, "foreground")
    if _readable(foreground, background) and foreground is not None:
        return _hex(foreground)
    if background is None:
        return "default"
    return _hex(background.get_contrast_text(1.0))


def status_colours(app: App[Any]) -> dict[str, str]:
    """The colour of each status in ``app``'s theme on its terminal (Rich colour names).

    A status whose variable gives a colour another status already has (textual-dark's accent
    is its warning), or one that does not read at 4.5:1 on the background, takes the theme's
    foreground, so no two statuses look alike and each can be read.
    """
    if _ansi_colours(app):
        return dict(STATUS_ANSI)
    variables = _theme_variables(app)
    background = _colour(variables, "background")
    colours: dict[str, str] = {}
    for status, name in STATUS_VARIABLES.items():
        colour = _colour(variables, name)
        if colour is None:
            text = STATUS_ANSI[status]
        elif _readable(colour, background):
            text = _hex(colour)
        else:
            text = _text_on(variables, background)
        if text in colours.values():
            text = _text_on(variables, background)
        colours[status] = text
    return colours


def env_style(app: App[Any], env: str) -> str:
    """The Rich style of the environment word in the header."""
    ansi = _ansi_colours(app)
    variables = _theme_variables(app)
    if env == "PRODUCTION":
        error = _colour(variables, "error")
        if ansi or error is None or error.ansi is not None:
            return "bold bright_white on red"
        return f"bold {_hex(error.get_contrast_text())} on {_hex(error)}"
    if ansi:
        return f"bold {ENV_ANSI.get(env, 'default')}"
    background = _colour(variables, "background")
    colour = _colour(variables, ENV_VARIABLES.get(env, "foreground"))
    if not _readable(colour, background):
        return f"bold {_text_on(variables, background)}"
    return f"bold {_hex(colour)}" if colour is not None else "bold"
