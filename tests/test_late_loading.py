"""One way to load late (``tui.late``): imports at the top of their module, and where a path
must stay light, a package's lazy exports. Imports inside functions are the exception, and
few; every lazy export is declared for the type checker and loads."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tui

ROOT = Path(tui.__file__).parent
MOST_INSIDE_FUNCTIONS = 150


def _inside_functions(tree: ast.Module) -> int:
    found = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += sum(
                isinstance(inner, (ast.Import, ast.ImportFrom))
                for statement in node.body
                for inner in ast.walk(statement)
                if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
            )
    return found


def test_few_imports_are_left_inside_functions() -> None:
    counts = {
        path.relative_to(ROOT).as_posix(): _inside_functions(ast.parse(path.read_text("utf-8")))
        for path in sorted(ROOT.rglob("*.py"))
    }
    total = sum(counts.values())
    most = sorted(counts.items(), key=lambda item: -item[1])[:8]
    assert total <= MOST_INSIDE_FUNCTIONS, f"{total} imports inside functions; most in {most}"


def _lazy_packages() -> list[str]:
    """The packages whose ``__init__`` builds its ``__getattr__`` with ``tui.late.exports``."""
    found = []
    for path in sorted(ROOT.rglob("__init__.py")):
        if "exports(__name__" in path.read_text("utf-8"):
            parts = ["tui", *path.parent.relative_to(ROOT).parts]
            found.append(".".join(parts))
    return found


def _type_checking_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.If) and "TYPE_CHECKING" in ast.unparse(statement.test):
            for inner in statement.body:
                if isinstance(inner, ast.ImportFrom):
                    names.update(alias.asname or alias.name for alias in inner.names)
    return names


def test_the_lazy_packages_are_found() -> None:
    assert {"tui.api", "tui.screens"} <= set(_lazy_packages())


@pytest.mark.parametrize("package", _lazy_packages())
def test_every_lazy_export_is_declared_for_the_type_checker_and_loads(package: str) -> None:
    module = importlib.import_module(package)
    where: dict[str, str] = module._WHERE
    path = Path(module.__file__ or "")
    assert set(where) <= _type_checking_names(path), "declare each export under TYPE_CHECKING"
    assert set(where) <= set(module.__all__)
    for name in where:
        assert getattr(module, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        module.nothing_here  # noqa: B018
