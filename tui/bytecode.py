"""Freight's own modules compiled to bytecode once, the way an installer compiles them.

An editable install (the README's) leaves Freight's modules uncompiled, and where
``PYTHONDONTWRITEBYTECODE`` is set (managed machines, containers) Python never writes the cache
itself: every start then compiles again what the first frame imports, about a fifth of the
time to it. So a start that finds the package's cache missing starts a child process that
compiles the package (``python -m compileall``, as pip does for a regular install), in a
session of its own so that it finishes even when the app is closed at once; the next start
reads the cache. The app never waits for it; a folder it cannot write, or
``FREIGHT_NO_COMPILE=1``, leaves things as they are.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

PACKAGE = Path(__file__).resolve().parent
_SHELL = "/bin/sh"


def missing(package: Path = PACKAGE) -> bool:
    """True when the package's main module has no up-to-date bytecode for this Python."""
    if sys.implementation.cache_tag is None:  # an interpreter that keeps no cache
        return False
    from importlib.util import cache_from_source

    source = package / "app.py"
    cached = Path(cache_from_source(str(source)))
    try:
        return cached.stat().st_mtime < source.stat().st_mtime
    except OSError:
        return True


def compile_package(package: Path = PACKAGE) -> subprocess.Popen[bytes] | None:
    """Start compiling ``package`` in a process of its own session (it outlives a quick quit,
    a closed terminal, the app's process tree killed); the process started (on POSIX a shell
    that has left the compiler running), or None when there is nothing to do or it cannot be
    done."""
    if os.environ.get("FREIGHT_NO_COMPILE") or not missing(package):
        return None
    if not os.access(package, os.W_OK):
        return None
    import subprocess

    command = [sys.executable, "-m", "compileall", "-q", str(package)]
    if os.name == "posix" and os.path.exists(_SHELL):
        # Through a shell that leaves it running in the background and exits at once: the
        # compiler is then nobody's child, so whatever closes the app with its children (a
        # terminal's kill of the process tree) leaves it to finish.
        command = [_SHELL, "-c", '"$@" </dev/null >/dev/null 2>&1 &', "compile", *command]
    try:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None
