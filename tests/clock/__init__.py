"""The moved-clock runs of the suite (run.py, sitecustomize.py); `pythonpath` for subprocesses."""

from __future__ import annotations

import os
from pathlib import Path


def pythonpath(checkout: Path | str) -> str:
    """PYTHONPATH for a subprocess of this checkout's code: the checkout first, then what the
    suite's own PYTHONPATH holds (in a moved-clock run, tests/clock's sitecustomize)."""
    return os.pathsep.join(p for p in (str(checkout), os.environ.get("PYTHONPATH", "")) if p)
