"""Freight's modules are compiled once, by a child the app starts, when no install did."""

from __future__ import annotations

import importlib.util
import os
import py_compile
import time
from pathlib import Path

import pytest

from tui import bytecode


def _package(root: Path) -> Path:
    package = root / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "app.py").write_text("VALUE = 1\n")
    (package / "screens.py").write_text("OTHER = 2\n")
    return package


def _cached(source: Path) -> Path:
    return Path(importlib.util.cache_from_source(str(source)))


def test_an_uncompiled_package_is_compiled_even_where_python_writes_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("FREIGHT_NO_COMPILE", raising=False)
    package = _package(tmp_path)
    assert bytecode.missing(package)
    process = bytecode.compile_package(package)
    assert process is not None
    assert process.wait(timeout=60) == 0  # (the shell: the compiler goes on without it)
    deadline = time.monotonic() + 60
    written = [_cached(package / name) for name in ("app.py", "screens.py")]
    while not all(p.is_file() for p in written) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not bytecode.missing(package)
    assert _cached(package / "app.py").is_file()
    assert _cached(package / "screens.py").is_file()
    assert bytecode.compile_package(package) is None  # once is enough


def test_a_source_newer_than_its_cache_counts_as_missing(tmp_path: Path) -> None:
    package = _package(tmp_path)
    py_compile.compile(str(package / "app.py"), cfile=str(_cached(package / "app.py")))
    assert not bytecode.missing(package)
    cached = _cached(package / "app.py")
    source_time = (package / "app.py").stat().st_mtime
    os.utime(cached, (source_time - 60, source_time - 60))
    assert bytecode.missing(package)


def test_freight_no_compile_leaves_the_package_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FREIGHT_NO_COMPILE", "1")
    package = _package(tmp_path)
    assert bytecode.compile_package(package) is None
    assert not (package / "__pycache__").exists()
