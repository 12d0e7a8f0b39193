"""Markup comes only from the code's own literals (issue 28): the text widgets the product
builds are `tui.widgets.plain`'s (plain unless ``markup=True``), and ``markup=True``,
``Text.from_markup`` and ``Content.from_markup`` take a string literal, never data."""

from __future__ import annotations

import ast
from pathlib import Path

from textual.widgets import Label as TextualLabel
from textual.widgets import OptionList as TextualOptionList
from textual.widgets import Static as TextualStatic

from tui.widgets.plain import Label, OptionList, Static

ROOT = Path(__file__).resolve().parent.parent / "tui"
FENCE = ROOT / "widgets" / "plain.py"
TEXT_WIDGETS = {"Static", "Label"}
LISTS = {"OptionList"}
"""Imported from Textual to recognise one (isinstance, messages), never built from it."""
PARSERS = {"from_markup"}


def _sources() -> list[tuple[Path, ast.Module]]:
    return [
        (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
        for path in sorted(ROOT.rglob("*.py"))
        if path != FENCE
    ]


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT.parent)}:{getattr(node, 'lineno', 0)}"


def _literal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def markup_from_data(path: Path, tree: ast.Module) -> list[str]:
    """Where ``path`` lets text that is not a literal of the code be read as markup."""
    found = []
    textuals = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "textual.widgets"
        for alias in node.names
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef | ast.Call):
            used = node.bases if isinstance(node, ast.ClassDef) else [node.func]
            for name in used:
                if isinstance(name, ast.Name) and name.id in textuals & LISTS:
                    found.append(f"{_where(path, node)} builds Textual's {name.id}")
        if isinstance(node, ast.ImportFrom) and node.module == "textual.widgets":
            for alias in node.names:
                if alias.name in TEXT_WIDGETS:
                    found.append(f"{_where(path, node)} imports Textual's {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr in TEXT_WIDGETS:
            if isinstance(node.value, ast.Name) and node.value.id == "widgets":
                found.append(f"{_where(path, node)} uses textual.widgets.{node.attr}")
        elif isinstance(node, ast.Call):
            first = node.args[0] if node.args else None
            asks = any(
                k.arg == "markup" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                for k in node.keywords
            )
            if asks and not _literal(first):
                found.append(f"{_where(path, node)} parses markup in text that is not a literal")
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in PARSERS and not _literal(first):
                found.append(f"{_where(path, node)} {func.attr}() of text that is not a literal")
    return found


def test_text_widgets_are_plain_unless_asked() -> None:
    assert issubclass(Static, TextualStatic)
    assert issubclass(Label, TextualLabel)
    assert issubclass(OptionList, TextualOptionList)
    for widget in (Static("[/] [bold"), Label("[@click=app.quit]x[/]")):
        assert str(widget.render()) in ("[/] [bold", "[@click=app.quit]x[/]")
    assert str(Static("[b]on[/b]", markup=True).render()) == "on"  # a literal of the code


def test_no_markup_from_data_anywhere_in_the_product() -> None:
    found = [line for path, tree in _sources() for line in markup_from_data(path, tree)]
    assert found == []


def test_the_guard_sees_what_it_guards_against() -> None:
    """Each way back to markup from data, written as it would be, is caught."""
    cases = [
        "from textual.widgets import Input, Static\n",
        "from textual import widgets\nwidgets.Label(x)\n",
        "Static(server_text, markup=True)\n",
        "self.notify(reason, markup=True)\n",
        "OptionList(*options, markup=True)\n",
        "from textual.widgets import OptionList\nOptionList(*prompts)\n",
        "from textual.widgets import OptionList\nclass Names(OptionList): ...\n",
        "Text.from_markup(f'[b]{name}[/b]')\n",
        "Content.from_markup(header)\n",
    ]
    for source in cases:
        assert markup_from_data(ROOT / "x.py", ast.parse(source)), source
    fine = "Static(text)\nStatic('[b]Title[/b]', markup=True)\nStatic(x, markup=False)\n"
    assert markup_from_data(ROOT / "x.py", ast.parse(fine)) == []
