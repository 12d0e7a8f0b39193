"""Freight's one way to load a module late: a package's lazy exports (PEP 562).

Imports go at the top of the module that uses them. Where that would load something heavy on
a path that must stay light (the first frame, ``freight --help``, the scripting commands'
start), the module imports the *package* at its top and names what it needs through it when
it runs::

    from tui import screens          # cheap: the package's __init__ imports nothing heavy

    def open_detail(self) -> None:
        self.push_screen(screens.ShipmentDetailScreen(...))   # the screen's module loads here

The package declares each export twice: under ``if TYPE_CHECKING:`` (so the type checker and
a reader see what it is) and in a table of where it lives, which :func:`exports` turns into
the package's ``__getattr__`` and ``__dir__``. ``tests/test_late_loading.py`` checks that the
two agree, that every export loads, and how many imports are left inside functions;
``tests/ui/test_first_frame.py`` names what the first frame must not load.

An import inside a function remains only where a package export cannot serve: an optional
dependency tried at run time, a module whose import has effects (the moved clock, a driver),
the sandbox (which imports nothing of the rest of Freight) and the Textual internals' fence.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def exports(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: ``where`` maps each exported name
    to ``"module"`` (the name is that module's attribute of the same name, or the module
    itself when it is the module's own last part: ``"run": "tui.commands.run"``) or
    ``"module:attribute"``. A name is imported on its first use and kept in the package."""

    def __getattr__(name: str) -> Any:
        target = where.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(module_name)
        if not attribute and module_name.rpartition(".")[2] == name:
            value: Any = module
        else:
            value = getattr(module, attribute or name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__


__all__ = ["exports"]
