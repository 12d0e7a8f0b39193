"""Rooms of a readable size: no file in `tui/` (the sandbox aside) over 700 lines and no class
with more than 35 methods (a `def` or `async def` directly in its body). A file or class that
grows past either is split by what its parts do, not by line count."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parent.parent / "tui"
MAX_LINES = 700
MAX_METHODS = 35


def _sources() -> list[Path]:
    return sorted(path for path in TUI.rglob("*.py") if path.relative_to(TUI).parts[0] != "sandbox")


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _wide_classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    wide = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods = sum(
                isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body
            )
            if methods > MAX_METHODS:
                wide.append(f"{path.relative_to(TUI)}: {node.name} has {methods} methods")
    return wide


def test_the_sources_are_found() -> None:
    names = {path.relative_to(TUI).as_posix() for path in _sources()}
    assert "screens/quote.py" in names
    assert not any(name.startswith("sandbox/") for name in names)


def test_no_file_is_over_700_lines() -> None:
    long = [
        f"{path.relative_to(TUI)}: {lines} lines"
        for path in _sources()
        if (lines := _line_count(path)) > MAX_LINES
    ]
    assert long == []


def test_no_class_has_more_than_35_methods() -> None:
    wide = [entry for path in _sources() for entry in _wide_classes(path)]
    assert wide == []
