"""Readable themes as the app starts: the nudges of Textual's own themes, worked out ahead.

Checking a theme's text colours (``tui.readable``) took a third of the app's own work before
its event loop started (343,000 Python opcodes for textual-dark in true colour, 2026-12-07).
The nudges it makes to each theme Textual ships, on each colour system with and without
``NO_COLOR``, are in ``readable_known.txt`` beside this module: a theme is looked up there
when it is the very theme they were worked out from (its ``fingerprint``), and checked by
``tui.readable`` otherwise (a theme of the user's, or one changed by a Textual upgrade).
``tests/ui/test_contrast.py`` fails when the table and the check disagree;
``python -m tests.ui.readable_table`` writes it anew.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import replace
from functools import lru_cache

from textual.theme import Theme

KNOWN_FILE = os.path.join(os.path.dirname(__file__), "readable_known.txt")

SYSTEMS = ("truecolor", "256", "standard")
"""The colour systems (as Rich's console names them) the table has; any other is checked as
``standard`` (``tui.readable.terminal_of``)."""


def fingerprint(theme: Theme) -> str:
    """A theme's every field (its name, colours, variables, ``ansi``…) as eight hex digits:
    a theme with the same ones gives the same variables, hence the same nudges."""
    return f"{zlib.crc32(repr(theme).encode()):08x}"


def terminal_key(color_system: str | None, no_color: bool) -> str:
    """The table's name of a terminal: ``TRUECOLOR``, ``EIGHT_BIT`` or ``STANDARD``, with
    ``+NO_COLOR`` when it has it."""
    system = {"truecolor": "TRUECOLOR", "256": "EIGHT_BIT"}.get(color_system or "", "STANDARD")
    return system + ("+NO_COLOR" if no_color else "")


@lru_cache(maxsize=1)
def _known() -> str:
    with open(KNOWN_FILE, encoding="utf-8") as file:
        return "\n" + file.read()


def known_changes(theme: Theme, color_system: str | None, no_color: bool) -> dict[str, str] | None:
    """The nudges worked out ahead for ``theme`` on the terminal (empty when it reads as it
    is); None when ``theme`` is not one they were worked out for.

    ``readable_known.txt`` has a line ``theme NAME FINGERPRINT`` per theme, then a line
    ``NAME TERMINAL VARIABLE=VALUE;…`` per theme and terminal with nudges."""
    text = _known()
    if f"\ntheme {theme.name} {fingerprint(theme)}\n" not in text:
        return None
    start = text.find(f"\n{theme.name} {terminal_key(color_system, no_color)} ")
    if start < 0:
        return {}
    line = text[start + 1 : text.index("\n", start + 1)]
    return dict(change.split("=", 1) for change in line.split(" ", 2)[2].split(";"))


def readable_on(theme: Theme, color_system: str | None, no_color: bool) -> Theme:
    """``theme`` made readable on a terminal of Rich's ``color_system`` (with ``NO_COLOR``
    or not), as ``tui.readable.readable_theme`` makes it: from the table when it has the
    theme, else by the check."""
    changes = known_changes(theme, color_system, no_color)
    if changes is None:
        # The check loads here, for a theme the table does not have: its module (and the
        # check) cost the first frame about 7 M instructions.
        from tui import readable

        return readable.readable_theme(theme, readable.terminal_of(color_system, no_color))
    if theme.ansi and no_color:
        theme = replace(theme, ansi=False)  # as the check draws an ANSI theme in greys
    if not changes:
        return theme
    return replace(theme, variables={**theme.variables, **changes})
