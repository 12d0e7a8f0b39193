"""Keys from the config's [keymap], the theme and its colours, and the command palette."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.command import CommandPalette
from textual.theme import BUILTIN_THEMES

from tests.ui.screen import screen_text, settle, wait_for
from tui.app import FreightApp, make_app
from tui.config.settings import AppConfig, load_config
from tui.listing.status import status_style
from tui.readable import XTERM_16 as XTERM
from tui.screens.help import HelpScreen
from tui.screens.quote import QuoteScreen
from tui.session import Session
from tui.theming import STATUS_ANSI, contrast, env_style
from tui.widgets.header import FreightHeader
from tui.widgets.items_editor import ItemsEditor

OFFLINE = "http://127.0.0.1:9"
TOKEN = "demo.demo-secret"


def _app(config: AppConfig, environment: str = "DEMO") -> FreightApp:
    session = Session.for_testing(OFFLINE, TOKEN, config=config, environment=environment)  # type: ignore[arg-type]
    return make_app(session)


def _rows(app: FreightApp) -> int:
    return len(app.screen.query_one(ItemsEditor).rows)


async def test_a_remapped_key_works_the_old_one_does_not_and_help_shows_it() -> None:
    app = _app(AppConfig(keymap={"quote.add_item": "ctrl+b"}))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, QuoteScreen)
        before = _rows(app)
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert _rows(app) == before + 1
        await pilot.press("ctrl+n")  # its default key is no longer it
        await settle(pilot)
        assert _rows(app) == before + 1
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        body = app.screen.body  # type: ignore[attr-defined]
        add_line = next(line for line in body.splitlines() if "**Add**" in line)
        assert "`^b`" in add_line
        assert "`quote.add_item`" in add_line
        assert "^n" not in add_line
        assert "[keymap]" in body


async def test_remapped_app_keys_show_in_the_header_and_the_general_help() -> None:
    app = _app(AppConfig(keymap={"app.shipments": "ctrl+g", "app.help": "f11"}))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert (
            "ctrl+g shipments · F12 batch · alt+5 day · alt+6 reports · f11 help"
            in screen_text(app).splitlines()[0]
        )
        await pilot.press("f11")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "^g shipments" in app.screen.body  # type: ignore[attr-defined]
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert commands["Shipments"].endswith("(ctrl+g)")
        assert commands["Help"].endswith("(f11)")


async def test_the_palette_offers_textuals_commands_beside_ours() -> None:
    app = _app(AppConfig())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for title in ("Quote", "Rates", "Shipments", "Help", "Theme", "Keys", "Screenshot"):
            assert title in titles
        assert titles.count("Quit") == 1
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"screensh")
        await wait_for(pilot, lambda: "Screenshot" in screen_text(app), what="Screenshot")
        for _ in "screensh":
            await pilot.press("backspace")
        await pilot.press(*"shipm")
        await wait_for(pilot, lambda: "Find, filter and track" in screen_text(app), what="ours")


async def test_the_configured_theme_colours_statuses_and_the_header() -> None:
    app = _app(AppConfig(theme="nord"), environment="PRODUCTION")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == "nord"
        nord = app.get_css_variables()  # nord's, as tui.readable made them read here
        assert status_style("delivered") == f"bold {nord['text-success'].upper()}"
        assert status_style("canceled") == f"bold {nord['text-error'].upper()}"
        badge = Style.parse(env_style(app, "PRODUCTION"))
        assert badge.bgcolor is not None
        assert badge.bgcolor.name.upper() == nord["error"].upper()
        assert "PRODUCTION" in screen_text(app).splitlines()[0]
        assert app.screen.query_one(FreightHeader).render() is not None


async def test_the_default_theme_gives_six_statuses_six_colours_and_one_loud_badge() -> None:
    app = _app(AppConfig())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        styles = {status_style(name) for name in STATUS_ANSI}
        assert len(styles) == 6  # textual-dark's accent is its warning: one takes foreground
        filled = [env for env in ("DEMO", "SANDBOX", "PRODUCTION") if " on " in env_style(app, env)]
        assert filled == ["PRODUCTION"]


async def test_a_16_colour_terminal_gets_six_distinct_ansi_status_colours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    app = _app(AppConfig())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.console.color_system == "standard"
        assert app.current_theme.ansi  # the default there: the terminal's own colours
        colours = [Style.parse(status_style(name) or "").color for name in STATUS_ANSI]
        assert len({colour.name for colour in colours if colour is not None}) == 6
        for colour in colours:  # on the terminal's own background, dark or light
            assert colour is not None
            if not colour.is_default:
                shown = XTERM[colour.number or 0]
                assert contrast(shown, (0, 0, 0)) >= 3
                assert contrast(shown, (255, 255, 255)) >= 3
        assert env_style(app, "PRODUCTION") == "bold bright_white on red"
        assert " on " not in env_style(app, "SANDBOX")


async def test_a_16_colour_terminal_starts_in_an_ansi_theme_unless_one_is_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("COLORFGBG", raising=False)
    async with _app(AppConfig()).run_test(size=(80, 24)) as pilot:
        assert pilot.app.theme == "ansi-dark"
    monkeypatch.setenv("COLORFGBG", "0;15")  # rxvt, Konsole: black on white
    async with _app(AppConfig()).run_test(size=(80, 24)) as pilot:
        assert pilot.app.theme == "ansi-light"
    async with _app(AppConfig(theme="nord")).run_test(size=(80, 24)) as pilot:
        assert pilot.app.theme == "nord"
    monkeypatch.setenv("COLORTERM", "truecolor")
    async with _app(AppConfig()).run_test(size=(80, 24)) as pilot:
        assert pilot.app.theme == "textual-dark"


async def test_a_theme_picked_in_the_palette_is_used_and_saved_to_the_config() -> None:
    app = _app(AppConfig())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.action_change_theme()
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"gruvbox")
        await wait_for(pilot, lambda: "gruvbox" in screen_text(app), what="gruvbox listed")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.theme == "gruvbox", what="theme applied")
        await settle(pilot)
        assert load_config().theme == "gruvbox"
        gruvbox = BUILTIN_THEMES["gruvbox"].to_color_system().generate()
        assert status_style("delivered") == f"bold {gruvbox['text-success'].upper()}"
