"""Every text cell reads at 3:1 or more: every screen, every theme, every colour system.

The tour (tests.ui.contrast_tour) visits each screen and dialog; at each stop the app takes
every theme it offers in turn, and each text cell's WCAG contrast against its background is
worked out from the segments the terminal would get, their colours as a terminal of that
colour system shows them (xterm's palette; a dark and a light default background).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.color import Color, ColorSystem
from rich.style import Style
from textual.theme import BUILTIN_THEMES

from tests.ui.contrast import DARK, LIGHT, cell_colours, ratio
from tests.ui.contrast_tour import (
    COLOUR_SYSTEMS,
    STOPS,
    Worst,
    fix_clock,
    measure,
    worst_per_theme,
)
from tui.readable import Palette, ReadableColours

MINIMUM = 3.0


@pytest.mark.slow
@pytest.mark.timeout(1500)
@pytest.mark.parametrize("system", list(COLOUR_SYSTEMS))
async def test_every_screen_reads_in_every_theme(
    system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    fix_clock(monkeypatch.setattr)
    themes = sorted(BUILTIN_THEMES)
    found = await measure(system, themes)
    if report := os.environ.get("FREIGHT_CONTRAST_REPORT"):  # the worst cell of each theme
        _report(Path(report), system, found)
    assert {stop for _, stop in found} == set(STOPS)
    assert {theme for theme, _ in found} == set(themes)
    unreadable = sorted(
        (cell.ratio, f"{theme} · {stop}: {cell.describe()}")
        for (theme, stop), cell in found.items()
        if cell is not None and cell.ratio < MINIMUM
    )
    assert not unreadable, "\n".join(text for _, text in unreadable[:20])


def _report(path: Path, system: str, found: Worst) -> None:
    lines = [
        f"{system:9} {theme:20} {stop:18} {cell.describe() if cell else '-'}\n"
        for theme, (stop, cell) in sorted(worst_per_theme(found).items())
    ]
    with path.open("a", encoding="utf-8") as out:
        out.writelines(lines)


def _shown(style: Style, system: ColorSystem) -> float:
    """The worst contrast of ``style`` on a dark and a light terminal of ``system``."""
    return min(ratio(*cell_colours(style, system, terminal)) for terminal in (DARK, LIGHT))


@pytest.mark.parametrize(
    ("style", "system"),
    [
        # NO_COLOR over tmux: a typed value was black on black (ESC[30;40m).
        (Style(color="#1A1A1A", bgcolor="#121212"), ColorSystem.STANDARD),
        # 16 colours: the DEMO word bright red on bright black, about 1:1.
        (Style(color="#E06060", bgcolor="#6A6A6A"), ColorSystem.STANDARD),
        # An ANSI theme: yellow text on the terminal's own background (white on a light one).
        (Style(color="yellow"), ColorSystem.STANDARD),
        # The terminal's own text on a blue the theme paints (black on blue, light terminal).
        (Style(bgcolor="blue"), ColorSystem.STANDARD),
        # 256 colours: two greys a step apart round to one.
        (Style(color="#3A3A3A", bgcolor="#363636"), ColorSystem.EIGHT_BIT),
        # True colour: a pale accent word on a pale panel (textual-light's border titles).
        (Style(color="#FEA62B", bgcolor="#D8D8D8"), ColorSystem.TRUECOLOR),
        # Dim text that would fade into its background.
        (Style(color="#808080", bgcolor="#606060", dim=True), ColorSystem.TRUECOLOR),
        # Reversed: the background colour is the text's.
        (Style(color="#202020", bgcolor="#262626", reverse=True), ColorSystem.EIGHT_BIT),
    ],
)
def test_the_filter_makes_an_unreadable_pair_readable(style: Style, system: ColorSystem) -> None:
    assert _shown(style, system) < MINIMUM
    readable = ReadableColours(Palette(system)).readable(style)
    assert _shown(readable, system) >= MINIMUM


def test_a_readable_pair_keeps_its_colours_and_rounds_by_eye() -> None:
    pale = Style(color="#586E75", bgcolor="#EEE8D5")  # solarized-light's text on its panel
    rounded = ReadableColours(Palette(ColorSystem.EIGHT_BIT)).readable(pale)
    assert rounded.bgcolor is not None
    assert rounded.bgcolor.number is not None
    red, green, blue = rounded.bgcolor.get_truecolor()
    assert (red, green) != (255, 215)  # Rich's own rounding: pink (colour 224)
    assert abs(red - green) < 16  # pale, not a hue of its own
    assert abs(green - blue) < 48
    assert _shown(rounded, ColorSystem.EIGHT_BIT) >= MINIMUM
    kept = Style(color="#E0E0E0", bgcolor="#121212")
    assert ReadableColours(Palette(ColorSystem.TRUECOLOR)).readable(kept) == kept + Style(
        color=Color.parse("#E0E0E0"), bgcolor=Color.parse("#121212")
    )


def test_no_color_keeps_to_greys() -> None:
    style = Style(color="#404040", bgcolor="#3A3A3A")
    readable = ReadableColours(Palette(ColorSystem.STANDARD, greys_only=True)).readable(style)
    assert readable.color is not None
    assert readable.color.is_default or len(set(readable.color.get_truecolor())) == 1
    assert _shown(readable, ColorSystem.STANDARD) >= MINIMUM
