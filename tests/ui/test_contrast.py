"""Every text reads at 3:1 or more: every theme, every colour system.

The themes are checked by computation (``tui.readable``): each pair of theme variables the CSS
draws text with, as each terminal shows it, for every theme Textual ships. A short tour of
rendered screens under a few themes checks that what is drawn is only those pairs: each text
cell's contrast worked out from the segments the terminal gets (xterm's palette; a dark and a
light default background).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.color import Color
from textual.theme import BUILTIN_THEMES

from tests.ui.contrast_tour import STOPS, Worst, fix_clock, measure
from tests.ui.readable_table import table_text
from tui import readable
from tui.readable import (
    ENOUGH,
    TERMINALS,
    pairs,
    readable_theme,
    readable_variables,
    theme_variables,
    worst_pair,
)
from tui.readable_known import KNOWN_FILE, known_changes, readable_on

THEMES = sorted(BUILTIN_THEMES)


@pytest.mark.parametrize("system", list(TERMINALS))
def test_every_pair_the_css_draws_reads_in_every_theme(system: str) -> None:
    terminal = TERMINALS[system]
    unreadable = [
        f"{name}: {pair.describe()}"
        for name in THEMES
        for pair in pairs(theme_variables(readable_theme(BUILTIN_THEMES[name], terminal)), terminal)
        if pair.ratio < ENOUGH
    ]
    assert not unreadable


def test_a_true_colour_theme_that_reads_stays_as_its_author_made_it() -> None:
    truecolor = TERMINALS["truecolor"]
    kept = {
        name
        for name in THEMES
        if readable_theme(BUILTIN_THEMES[name], truecolor) is BUILTIN_THEMES[name]
    }
    assert kept == {"rose-pine", "rose-pine-moon"}
    # textual-dark: only its error red, too dark on its panel, changes; its muted tiers stay.
    changes = readable_variables(theme_variables(BUILTIN_THEMES["textual-dark"]), truecolor)
    assert set(changes) == {"error"}


def test_a_changed_colour_keeps_its_hue_and_the_muted_tiers_stay_apart() -> None:
    """textual-light's orange warning (1.3:1 on its panel) darkens to an orange that reads;
    its disabled text, a lighter tier than its muted text, stays lighter."""
    truecolor = TERMINALS["truecolor"]
    before = theme_variables(BUILTIN_THEMES["textual-light"])
    after = theme_variables(readable_theme(BUILTIN_THEMES["textual-light"], truecolor))
    was, now = Color.parse(before["warning"]), Color.parse(after["warning"])
    assert abs(was.hsl.h - now.hsl.h) < 0.03
    assert now.brightness < was.brightness
    panel = Color.parse(after["panel"])
    muted = panel + panel.get_contrast_text(_alpha(after["text-muted"]))
    disabled = panel + panel.get_contrast_text(_alpha(after["text-disabled"]))
    assert disabled.brightness > muted.brightness


@pytest.mark.slow
def test_the_nudges_worked_out_ahead_are_what_the_check_gives() -> None:
    """``readable_known.txt`` holds, for every theme Textual ships and every terminal of
    ``KNOWN_ON``, the nudges the check makes (about 15 s of checking)."""
    with open(KNOWN_FILE, encoding="utf-8") as file:
        known = file.read()
    assert known == table_text(), "run: python -m tests.ui.readable_table"


def test_a_known_theme_is_looked_up_and_any_other_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    truecolor = TERMINALS["truecolor"]
    shipped = BUILTIN_THEMES["textual-dark"]
    mine = replace(shipped, error="#400000")  # a theme of the same name, changed
    checked = readable_variables(theme_variables(mine), truecolor)
    assert known_changes(mine, "truecolor", False) is None
    assert known_changes(shipped, "truecolor", False) == {"error": "#CA4C69"}
    assert known_changes(BUILTIN_THEMES["rose-pine"], "truecolor", False) == {}
    ansi = BUILTIN_THEMES["ansi-dark"]
    assert readable_on(ansi, "standard", True) == readable_theme(ansi, TERMINALS["NO_COLOR"])

    def no_check(*_args: object) -> dict[str, str]:
        raise AssertionError("a known theme was checked")

    monkeypatch.setattr(readable, "readable_variables", no_check)
    assert readable_on(shipped, "truecolor", False).variables == {"error": "#CA4C69"}
    assert (
        readable_on(BUILTIN_THEMES["rose-pine"], "truecolor", False) is BUILTIN_THEMES["rose-pine"]
    )
    monkeypatch.undo()
    assert readable_on(mine, "truecolor", False).variables == checked


def _alpha(value: str) -> float:
    assert value.startswith("auto ")
    return float(value.split()[1].rstrip("%")) / 100


@pytest.mark.parametrize("system", ["16", "NO_COLOR"])
def test_a_pair_the_palette_rounds_into_one_colour_is_told_apart(system: str) -> None:
    """textual-dark on a terminal with fewer colours: two shades that read in true colour
    round into one (its disabled grey on its panel at 16 colours); the theme for that terminal
    tells them apart."""
    terminal = TERMINALS[system]
    theme = BUILTIN_THEMES["textual-dark"]
    assert worst_pair(theme_variables(theme), terminal).ratio < ENOUGH
    after = pairs(theme_variables(readable_theme(theme, terminal)), terminal)
    assert all(p.ratio >= ENOUGH for p in after)


def test_an_ansi_theme_reads_on_a_dark_and_a_light_terminal() -> None:
    """ansi-dark's yellow warning is white on a light terminal's white; it takes the ANSI
    colour nearest yellow that reads on both."""
    sixteen = TERMINALS["16"]
    theme = readable_theme(BUILTIN_THEMES["ansi-dark"], sixteen)
    warning = theme_variables(theme)["warning"]
    assert warning.startswith("ansi_")
    assert warning != "ansi_yellow"
    assert all(p.ratio >= ENOUGH for p in pairs(theme_variables(theme), sixteen))


TOURED: dict[str, tuple[list[str], str]] = {
    "truecolor": (["textual-light", "gruvbox"], "command palette"),
    "16": (["ansi-dark", "rose-pine-dawn"], "command palette"),
    "256": (["nord"], "rates"),
    "NO_COLOR": (["tokyo-night"], "rates"),
}
"""A few themes per colour system for the rendered check, and the stop the tour ends at: the
widgets' pairs are the same in every colour system, so true colour and 16 colours (where
Textual draws ANSI themes with rules of their own) go furthest. ``python -m
tests.ui.contrast_tour`` measures every theme at every stop."""


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("system", list(TOURED))
async def test_rendered_screens_draw_only_checked_pairs(
    system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    fix_clock(monkeypatch.setattr)
    themes, until = TOURED[system]
    found: Worst = await measure(system, themes, until=until)
    assert {stop for _, stop in found} == set(STOPS[: STOPS.index(until) + 1])
    unreadable = sorted(
        (cell.ratio, f"{theme} · {stop}: {cell.describe()}")
        for (theme, stop), cell in found.items()
        if cell is not None and cell.ratio < ENOUGH
    )
    assert not unreadable, "\n".join(text for _, text in unreadable[:20])
