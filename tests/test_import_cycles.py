"""No import circles among Freight's modules, counting the imports inside functions.

import-linter's layers see a circle between rooms; a circle inside a room hidden in function
bodies (``engine`` importing ``report`` in a method, ``report`` importing ``engine`` back in a
helper) it does not. This reads every module's syntax tree, builds the graph of which module
imports which (at the top, in functions, and under ``if TYPE_CHECKING:`` too, as the
import-linter contracts count them: a circle only the type checker walks is still a circle a
reader walks), and fails on every strongly connected group of more than one module, named.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import tui

ROOT = Path(tui.__file__).parent


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module under ``root`` (the package ``package``) by its dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(tree: ast.Module, name: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """The modules of ``known`` a module's imports import, wherever they are in it:
    ``from a.b import c`` imports the module ``a.b.c`` when there is one, else ``a.b``."""
    here = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield submodule if submodule in known else base


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Which of ``modules`` each one imports (the module itself, not its parent packages)."""
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = _imported(tree, name, path.name == "__init__.py", known)
        graph[name] = {n for n in names if n in known and n != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def test_no_module_of_freight_imports_itself_back() -> None:
    found = circles(import_graph(module_files(ROOT, "tui")))
    assert found == [], "import circles (imports in functions count): " + "; ".join(
        " <-> ".join(group) for group in found
    )


def test_a_circle_through_a_function_body_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "engine.py").write_text("def records():\n    from pkg.sub import report\n")
    (package / "sub" / "report.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..engine import records\n"
    )
    (package / "alone.py").write_text("import pkg.engine\n")
    graph = import_graph(module_files(package, "pkg"))
    assert graph["pkg.engine"] == {"pkg.sub.report"}
    assert circles(graph) == [["pkg.engine", "pkg.sub.report"]]
