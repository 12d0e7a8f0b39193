"""Textual's own words never reach the user: the quit hint, the screen keys, the help title."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.containers import VerticalScroll
from textual.screen import Screen

import tui.screens
from tests.ui.screen import Notices, screen_text, settle, wait_for
from tests.ui.test_keymap_theme import _app
from tui.batch.rules import Rules
from tui.config.settings import AppConfig
from tui.screens.batch_rules import BatchRulesScreen
from tui.screens.help import HelpScreen
from tui.screens.modal import FreightDialog, FreightModal, FreightScreen, PathDialog
from tui.screens.yes_no import YesNoDialog
from tui.textual_internals import merged_bindings

TEXTUALS_SCREEN_WORDS = {"Focus Next", "Focus Previous", "Copy selected text"}
"""The descriptions Textual's `Screen` gives its own keys."""


def _screen_classes() -> list[type[Screen[object]]]:
    classes: dict[str, type[Screen[object]]] = {}
    for module_info in pkgutil.iter_modules(tui.screens.__path__, "tui.screens."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            own = inspect.isclass(value) and value.__module__ == module.__name__
            if own and issubclass(value, Screen):
                classes[name] = value
    return list(classes.values())


async def test_ctrl_c_says_how_to_quit_in_freights_words_as_plain_text() -> None:
    app = _app(AppConfig())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        notices = Notices(app)
        app.set_focus(None)  # nothing that copies has focus: Textual's hint would show
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: bool(notices.said), what="the quit hint")
        (title, message) = notices.said[-1]
        assert message.startswith("To quit Freight, press ctrl+q.")
        assert "[b]" not in message
        assert "Do you want to quit" not in title


def test_every_screen_describes_its_keys_in_freights_words() -> None:
    classes = _screen_classes()
    assert len(classes) > 20
    for cls in classes:
        descriptions = {binding.description for _, binding in merged_bindings(cls)}
        assert not descriptions & TEXTUALS_SCREEN_WORDS, cls.__name__


def test_every_screen_has_a_title_of_its_own() -> None:
    for cls in _screen_classes():
        if cls in (FreightScreen, FreightModal, FreightDialog, PathDialog, YesNoDialog):
            continue  # the bases
        assert "TITLE" in vars(cls), cls.__name__
        assert cls.TITLE, cls.__name__


async def test_help_is_titled_with_the_screens_name_and_lists_no_textual_words() -> None:
    app = _app(AppConfig())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await app.push_screen(BatchRulesScreen(Rules()))
        await settle(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert help_screen.query_one(VerticalScroll).border_title == "Help · Batch rules"
        assert "Help · Batch rules" in screen_text(app)
        for words in TEXTUALS_SCREEN_WORDS:
            assert words not in help_screen.body
        assert "**Next** — Next field" in help_screen.body
