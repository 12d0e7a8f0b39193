"""Keep live secrets out of log records: a logging filter and a text scrubber."""

from __future__ import annotations

import logging
import re
import threading

from tui.api.secret import REDACTED, Secret

_BEARER = re.compile(r"(?i)\b(bearer)\s+[^\s'\",]+")
_lock = threading.Lock()
_live: set[str] = set()

MIN_LENGTH = 4
"""Shorter values are not redacted (they would blank ordinary words)."""


def register(*values: str | Secret) -> None:
    """Remember secret values (secret, token) so redact() removes them wherever they appear."""
    with _lock:
        for value in values:
            text = value.reveal() if isinstance(value, Secret) else value
            if len(text) >= MIN_LENGTH:
                _live.add(text)


def redact(text: str) -> str:
    """``text`` with every registered secret and any ``Bearer …`` value replaced by ``***``."""
    with _lock:
        live = sorted(_live, key=len, reverse=True)
    for value in live:
        if value in text:
            text = text.replace(value, REDACTED)
    return _BEARER.sub(rf"\1 {REDACTED}", text)


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
