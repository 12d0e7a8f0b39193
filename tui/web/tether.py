"""An app that `freight serve` started ends with the server, even one killed with kill -9.

The server gives each app its process id (`PARENT_ENV`); the app, first thing, asks the
kernel (Linux) for SIGTERM when that process ends, and ends at once if it has already. The
app does this itself, after it started: the server starts it with no code of its own between
fork and exec (``preexec_fn`` is unsafe in a process that runs threads, as the server does).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Final

PARENT_ENV: Final = "FREIGHT_SERVE_PARENT"
"""The server's process id, in each app it starts."""
PR_SET_PDEATHSIG: Final = 1


def tie_to_server(environ: Mapping[str, str] = os.environ) -> None:
    """When started by `freight serve`, end with it (else do nothing)."""
    given = environ.get(PARENT_ENV, "")
    if not given.isdigit():
        return
    if sys.platform.startswith("linux"):
        import contextlib
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != int(given):  # the server ended before the signal was asked for
        os._exit(1)
