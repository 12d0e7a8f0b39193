"""Freight's own modules compiled to bytecode once, the way an installer compiles them.

An editable install (the README's) leaves Freight's modules uncompiled, and where
``PYTHONDONTWRITEBYTECODE`` is set (managed machines, containers) Python never writes the cache
itself: every start then compiles again what the first frame imports, a fifth of the time to
it. So after the first frame, when the package's cache is missing, a child process compiles the
package (``python -m compileall``, as pip does for a regular install) and the next start reads
it. The app never waits for it; a folder it cannot write, or ``FREIGHT_NO_COMPILE=1``, leaves
things as they are.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
DELAY_SECONDS = 1.5
"""After the first frame: the demo's sandbox and the first keys come first."""


def missing(package: Path = PACKAGE) -> bool:
    """True when the package's main module has no bytecode cache for this Python."""
    if sys.implementation.cache_tag is None:  # an interpreter that keeps no cache
        return False
    source = package / "app.py"
    cached = Path(importlib.util.cache_from_source(str(source)))
    try:
        return cached.stat().st_mtime < source.stat().st_mtime
    except OSError:
        return True


def compile_package(package: Path = PACKAGE) -> subprocess.Popen[bytes] | None:
    """Start compiling ``package`` in a child process of its own session (it outlives a quick
    quit and a closed terminal); None when there is nothing to do or it cannot be done."""
    if os.environ.get("FREIGHT_NO_COMPILE") or not missing(package):
        return None
    if not os.access(package, os.W_OK):
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "compileall", "-q", str(package)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return None


def compile_later(package: Path = PACKAGE) -> None:
    """Compile ``package`` after :data:`DELAY_SECONDS`, from a daemon timer thread."""
    if not missing(package):
        return
    timer = threading.Timer(DELAY_SECONDS, compile_package, args=(package,))
    timer.daemon = True
    timer.start()
