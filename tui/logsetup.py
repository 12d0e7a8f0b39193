"""Logging for the app and the commands: a rotating file, a level, secrets scrubbed first."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from logging.handlers import RotatingFileHandler

from tui.config.paths import log_file
from tui.credentials import redact

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LEVEL_VARIABLE = "FREIGHT_LOG_LEVEL"


_installed: list[logging.Handler] = []
"""Handlers added by the last ``setup`` (replaced by the next one, e.g. in tests)."""


class LogLevelError(ValueError):
    """FREIGHT_LOG_LEVEL names no level."""


def level_from(debug: bool, env: Mapping[str, str]) -> int:
    """DEBUG with ``--debug``; else ``FREIGHT_LOG_LEVEL`` (a name or number); else INFO."""
    if debug:
        return logging.DEBUG
    text = env.get(LEVEL_VARIABLE, "").strip()
    if not text:
        return logging.INFO
    if text.isdigit():
        return int(text)
    if text.upper() in LEVELS:
        return int(getattr(logging, text.upper()))
    raise LogLevelError(f"{LEVEL_VARIABLE}={text!r}: must be one of {', '.join(LEVELS)}")


def remove() -> None:
    """Take away (and close) the handlers the last ``setup`` added."""
    root = logging.getLogger()
    while _installed:
        old = _installed.pop()
        root.removeHandler(old)
        old.close()


def setup(level: int, *, stderr: bool = False) -> None:
    """Log at ``level`` to the rotating log file (and to stderr when asked), redacted."""

    redact.install()
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    root = logging.getLogger()
    remove()
    path = log_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler: logging.Handler = RotatingFileHandler(
            path, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
        )
        handler.setFormatter(formatter)
        _installed.append(handler)
    except OSError:
        if not stderr:
            raise
    if stderr:
        console = logging.StreamHandler()
        console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        console.addFilter(redact.RedactingFilter())
        _installed.append(console)
    for added in _installed:
        root.addHandler(added)
    root.setLevel(level)
