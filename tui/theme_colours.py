"""Colours read from the theme for what widgets draw themselves: the fields drawn as text
(the items grid's rows, the shipment line) and the drop-down's arrow.

A drawn field looks like the compact input it stands for: the value on `$surface`, a
placeholder in `$text-disabled`, a wrong value on `$error`. These were component classes,
each a rule set parsed from CSS and a node styled for every widget before the first frame;
here they are worked out from the theme's variables as Textual would, once per theme and
background.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from rich.style import Style
from textual.color import Color
from textual.widget import Widget

INVALID_ALPHA = 0.35
"""How much of `$error` a wrong value's background takes (as `$error 35%` would)."""
INVALID_TINT = 0.20
"""And the tint over it (as `background-tint: $error 20%` would)."""


class FieldPalette(NamedTuple):
    """Rich styles of a drawn field's parts, over the background it is drawn on."""

    value: Style
    placeholder: Style
    invalid: Style
    invalid_placeholder: Style
    muted: Style
    """Labels and marks beside the fields."""


def field_palette(widget: Widget) -> FieldPalette:
    """The palette for `widget`, from its app's theme and the background under it."""
    app = widget.app
    variables = app.theme_variables
    return _palette(
        widget.background_colors[1],
        app.native_ansi_color,
        variables["surface"],
        variables["foreground"],
        variables["text-disabled"],
        variables["text-muted"],
        variables["error"],
    )


def theme_colour(widget: Widget, name: str) -> Color:
    """Theme variable `name`'s colour as text drawn on `widget`'s background."""
    under = widget.background_colors[1]
    return under + colour_of(widget.app.theme_variables[name], under)


def _style(under: Color, background: Color | None, colour: str, *, dim: bool = False) -> Style:
    """A part's style as Textual composes one: its background over `under`, its colour (a
    theme variable's text) over that."""
    if background is not None:
        under = under + background
    color = colour_of(colour, under)
    return Style(
        color=(under + color).rich_color if (under.a or color.a) else None,
        bgcolor=under.rich_color if under.a else None,
        dim=True if dim else None,
    )


def colour_of(text: str, over: Color) -> Color:
    """A theme variable's colour, optionally followed by its alpha (`#fff 50%`); `auto` is
    the text colour that reads on `over`."""
    name, _, percent = text.partition(" ")
    alpha = float(percent.rstrip("%")) / 100 if percent else 1.0
    if name == "auto":
        return over.get_contrast_text(alpha)
    parsed = Color.parse(name)
    return parsed.multiply_alpha(alpha) if percent else parsed


@lru_cache(maxsize=16)
def _palette(
    under: Color,
    ansi: bool,
    surface: str,
    foreground: str,
    text_disabled: str,
    text_muted: str,
    error: str,
) -> FieldPalette:
    muted = _style(under, None, text_muted)
    if ansi:
        # At 16 colours the terminal's own text on its own background, dim for a hint, red
        # behind a wrong value.
        default = Color.parse("ansi_default")
        red = Color.parse("ansi_red")
        return FieldPalette(
            value=_style(under, default, "ansi_default"),
            placeholder=_style(under, default, "ansi_default", dim=True),
            invalid=_style(under, red, "ansi_default"),
            invalid_placeholder=_style(under, red, "ansi_default", dim=True),
            muted=muted,
        )
    field = colour_of(surface, under)
    wrong_colour = colour_of(error, under)
    wrong = wrong_colour.multiply_alpha(INVALID_ALPHA).tint(
        wrong_colour.multiply_alpha(INVALID_TINT)
    )
    return FieldPalette(
        value=_style(under, field, foreground),
        placeholder=_style(under, field, text_disabled),
        invalid=_style(under, wrong, foreground),
        invalid_placeholder=_style(under, wrong, text_disabled),
        muted=muted,
    )
