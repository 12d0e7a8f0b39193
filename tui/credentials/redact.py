"""Keep live secrets out of log records: a logging filter and a text scrubber."""

from __future__ import annotations

import logging
import threading

from tui.api.logs import redact, register_secret
from tui.api.secret import Secret

__all__ = ["MIN_LENGTH", "RedactingFilter", "install", "redact", "register", "scrub"]

_lock = threading.Lock()

MIN_LENGTH = 4
"""Shorter values are not redacted (they would blank ordinary words)."""


def register(*values: str | Secret) -> None:
    """Remember secret values (secret, token) so redact() removes them wherever they appear."""
    for value in values:
        secret = value if isinstance(value, Secret) else Secret(value)
        if len(secret.reveal()) >= MIN_LENGTH:
            register_secret(secret)


class RedactingFilter(logging.Filter):
    """Rewrites each record's message and traceback text with secrets redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        scrub(record)
        return True


def scrub(record: logging.LogRecord) -> logging.LogRecord:
    """Format the record's message and exception now, redacted, and drop the raw arguments."""
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: keep what we have, redacted
        message = str(record.msg)
    record.msg = redact(message)
    record.args = None
    if record.exc_info and not record.exc_text:
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = redact(record.exc_text)
    if record.stack_info:
        record.stack_info = redact(record.stack_info)
    return record


_installed = False


def install() -> None:
    """Redact every log record as it is created, whichever logger or handler it goes to."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: object, **kwargs: object) -> logging.LogRecord:
        return scrub(previous(*args, **kwargs))

    logging.setLogRecordFactory(factory)
