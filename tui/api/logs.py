"""The ``tui.api`` logger, with a filter that keeps tokens and bearer values out of log lines."""

from __future__ import annotations

import logging
import threading

from tui.api.secret import REDACTED, Secret
from tui.domain.safe_text import lazy_pattern

__all__ = ["LOG", "RedactingFilter", "redact", "register_secret", "unregister_secret"]

LOG = logging.getLogger("tui.api")

_BEARER = lazy_pattern(r"(?i)(bearer\s+)[^\s'\",;]+")
_secrets: dict[Secret, int] = {}
_lock = threading.Lock()


def register_secret(secret: Secret) -> None:
    """Redact this secret's value from every line the filter sees (counted, per client)."""
    if not secret:
        return
    with _lock:
        _secrets[secret] = _secrets.get(secret, 0) + 1


def unregister_secret(secret: Secret) -> None:
    """Undo one ``register_secret``."""
    with _lock:
        left = _secrets.get(secret, 0) - 1
        if left > 0:
            _secrets[secret] = left
        else:
            _secrets.pop(secret, None)


def redact(text: str) -> str:
    """``text`` with registered secrets and any ``Bearer …`` value replaced by ``***``."""
    with _lock:
        values = [s.reveal() for s in _secrets]
    for value in values:
        if value in text:
            text = text.replace(value, REDACTED)
    return _BEARER().sub(lambda m: m.group(1) + REDACTED, text)


class RedactingFilter(logging.Filter):
    """Rewrites a record's message (and exception text) with secrets redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message or record.args:
            record.msg = cleaned
            record.args = None
        return True


def _install() -> None:
    if not any(isinstance(f, RedactingFilter) for f in LOG.filters):
        LOG.addFilter(RedactingFilter())


_install()
