"""At 16 colours, on a dark or a light terminal: notices read, open drop-downs stand out."""

from __future__ import annotations

from typing import Any

import pytest
from rich.color import Color as RichColor
from textual.app import App
from textual.widget import Widget

from tests.textual_probes import ansi_to_rgb, watch_frames
from tests.ui.screen import settle, wait_for
from tests.ui.test_keymap_theme import _app
from tui.config.settings import AppConfig
from tui.readable import XTERM_16 as XTERM
from tui.theming import contrast
from tui.widgets.drop_down import DropDown, DropDownList
from tui.widgets.items_editor import ItemsEditor

RGB = tuple[int, int, int]

TERMINALS: dict[str, tuple[RGB, RGB]] = {
    "dark": ((0xE5, 0xE5, 0xE5), (0, 0, 0)),
    "light": ((0, 0, 0), (0xFF, 0xFF, 0xFF)),
}
"""Each terminal's own (default) text and background colours."""


def _shown(colour: RichColor | None, default: RGB) -> RGB:
    """What a 16-colour terminal draws for `colour`: its own default, or its ANSI colour."""
    if colour is None or colour.is_default:
        return default
    assert colour.number is not None, colour
    assert colour.number < 16, colour
    return XTERM[colour.number]


def _reads(widget: Widget) -> dict[str, float]:
    """The contrast of `widget`'s text on its background on a dark and a light terminal."""
    style = widget.rich_style
    ratios = {}
    for name, (text, background) in TERMINALS.items():
        shown_text = _shown(style.color, text)
        shown_background = _shown(style.bgcolor, background)
        ratios[name] = contrast(shown_text, shown_background)
    return ratios


@pytest.fixture
def sixteen_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", "xterm")


@pytest.mark.usefixtures("sixteen_colours")
@pytest.mark.parametrize("colorfgbg", ["", "0;15", "15;0"])
async def test_a_notice_reads_on_a_dark_and_a_light_terminal(
    monkeypatch: pytest.MonkeyPatch, colorfgbg: str
) -> None:
    # Many light terminals do not set COLORFGBG: the app then takes ansi-dark on them.
    monkeypatch.setenv("COLORFGBG", colorfgbg)
    app = _app(AppConfig())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        assert app.console.color_system == "standard"
        app.notify("Saved the quote as a template.")
        await wait_for(pilot, lambda: bool(app.screen.query("Toast")), what="the toast")
        toast = app.screen.query_one("Toast")  # Textual's Toast is not public: its CSS type
        for terminal, ratio in _reads(toast).items():
            assert ratio >= 4.5, (app.theme, terminal, ratio)


LINE_BORDERS = {"round", "solid", "heavy", "double", "ascii"}
"""Borders drawn in line characters alone: seen whatever is beneath (`tall`'s half blocks take
the colours of what is under them)."""


@pytest.mark.usefixtures("sixteen_colours")
@pytest.mark.parametrize("colorfgbg", ["", "0;15"])
async def test_an_open_drop_down_keeps_a_border_and_a_background_over_the_items_table(
    monkeypatch: pytest.MonkeyPatch, colorfgbg: str
) -> None:
    monkeypatch.setenv("COLORFGBG", colorfgbg)
    app = _app(AppConfig())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.current_theme.ansi
        app.screen.query(DropDown).first().focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(app.screen.query(DropDownList)), what="the list")
        listed = app.screen.query_one(DropDownList)
        await wait_for(pilot, lambda: listed.display and listed.region.height > 2)
        assert listed.region.overlaps(app.screen.query_one(ItemsEditor).region)
        assert listed.styles.background.a == 1  # opaque: no table row shows through
        for edge, colour in (listed.styles.border_top, listed.styles.border_left):
            assert edge in LINE_BORDERS
            assert colour.ansi is not None
            assert colour.ansi >= 0  # an ANSI colour of its own, not the terminal's text


@pytest.mark.parametrize(
    ("term", "colorfgbg", "config", "theme"),
    [
        ("xterm", "", AppConfig(), "ansi-dark"),
        ("xterm", "0;15", AppConfig(), "ansi-light"),
        ("xterm-256color", "", AppConfig(theme="textual-light"), "textual-light"),
    ],
)
async def test_the_theme_is_taken_before_the_style_sheets_are_read(
    monkeypatch: pytest.MonkeyPatch, term: str, colorfgbg: str, config: AppConfig, theme: str
) -> None:
    """The app takes its theme (at 16 colours an ANSI one; else the config's) before any style
    sheet is read: none is parsed a second time before the first frame (Textual's theme
    watcher would), and the theme's dark or light classes and ANSI colours' filter follow."""
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", term)
    monkeypatch.setenv("COLORFGBG", colorfgbg)
    refreshes: list[App[Any]] = []
    refresh_css = App.refresh_css

    def counted(app: App[Any], animate: bool = True) -> None:
        refreshes.append(app)
        refresh_css(app, animate)

    monkeypatch.setattr(App, "refresh_css", counted)
    app = _app(config)
    at_first_frame: list[int] = []
    watch_frames(app, lambda _screen: at_first_frame.append(len(refreshes)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(at_first_frame), what="the first frame")
        assert app.theme == theme
        assert at_first_frame[0] == 0, "the style sheets were parsed again"
        dark = app.current_theme.dark
        assert (app.has_class("-dark-mode"), app.has_class("-light-mode")) == (dark, not dark)
        assert ansi_to_rgb(app) == (
            not app.current_theme.ansi,
            app.ansi_theme_dark if dark else app.ansi_theme_light,
        )
        app.theme = "nord"  # a theme changed later is Textual's as before: sheets restyled
        await wait_for(pilot, lambda: bool(refreshes), what="the style sheets restyled")
        assert ansi_to_rgb(app) == (True, app.ansi_theme_dark)
