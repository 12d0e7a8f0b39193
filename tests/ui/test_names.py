"""Names and rooms: screen and widget class names are unique; every widgets module holds one."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict
from types import ModuleType

from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget

import tui


def _modules() -> list[ModuleType]:
    names = [
        info.name
        for info in pkgutil.walk_packages(tui.__path__, "tui.")
        if info.name != "tui.__main__" and not info.name.startswith("tui.sandbox")
    ]
    return [importlib.import_module(name) for name in names]


def _defined(module: ModuleType, base: type) -> list[type]:
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, base)
        and value.__module__ == module.__name__
    ]


def test_no_two_screens_or_widgets_share_a_class_name() -> None:
    """Textual scopes DEFAULT_CSS by class name: namesakes wear each other's styles."""
    where: dict[str, set[str]] = defaultdict(set)
    for module in _modules():
        for cls in _defined(module, DOMNode):
            where[cls.__name__].add(f"{module.__name__}.{cls.__qualname__}")
    shared = {name: sorted(places) for name, places in where.items() if len(places) > 1}
    assert shared == {}
    assert "BookAddressesScreen" in where
    assert "QuoteAddressesScreen" in where


def test_every_module_under_widgets_defines_a_widget_and_no_screen() -> None:
    modules = [m for m in _modules() if m.__name__.startswith("tui.widgets.")]
    assert modules
    for module in modules:
        assert _defined(module, Widget), f"{module.__name__} defines no widget"
        assert not _defined(module, Screen), f"{module.__name__} defines a screen"
