"""Exit statuses of the commands, and the one place that turns an error into a status."""

from __future__ import annotations

import logging
from typing import TextIO

from tui.api import errors as api
from tui.credentials import redact
from tui.domain.safe_text import plain, plain_lines
from tui.store.engine import StoreError

OK = 0
FAILED = 1
"""Something asked for did not happen (a document could not be saved)."""
USAGE = 2
"""Bad flags or input: argparse's own status, a request that fails validation."""
NOT_FOUND = 3
"""No such shipment, or nothing matches the PRO, BOL or tracking number."""
AUTH = 4
"""Not signed in, credentials refused (401), no subscription (402), not permitted (403)."""
SERVICE = 5
"""The service failed or could not be reached: 5xx, 429 after retries, timeout, bad answer."""
STORE = 6
"""The store cannot be used (its disk full, its file damaged or missing, its database down):
the message names it, what happened and what to do."""
BUG = 70
"""An error Freight did not expect (a bug): one line on stderr, the traceback in the log file."""
INTERRUPTED = 130

HELP = (
    "exit status:\n"
    "  0 done; 1 partly done (e.g. a document not saved)\n"
    "  2 usage error or invalid request; 3 not found\n"
    "  4 not signed in or not allowed (401, 402, 403)\n"
    "  5 the service failed or could not be reached; 6 the store cannot be used (disk\n"
    "  full, damaged, unreachable); 70 an unexpected error (a bug: the log file has the\n"
    "  details); 130 interrupted"
)


class UsageError(Exception):
    """What the user typed cannot be used; the message names the flag or field."""


class NotSignedInError(Exception):
    """No credentials (or no base URL) for the profile; the message says how to sign in."""


class NotFound(Exception):
    """Nothing matched what the user asked for."""


def status_of(error: BaseException) -> int:
    """The exit status for an error a command let through."""

    if isinstance(error, UsageError | api.RequestValidationError | api.InvalidRequestError):
        return USAGE
    if isinstance(error, NotFound | api.NotFoundError):
        return NOT_FOUND

    if isinstance(error, StoreError):
        return STORE
    if isinstance(
        error,
        NotSignedInError
        | api.AuthenticationError
        | api.SubscriptionError
        | api.PermissionDeniedError,
    ):
        return AUTH
    return SERVICE


def report_bug(error: BaseException, err: TextIO) -> int:
    """The last resort: an error no command expected is logged whole and said in one line."""

    log = logging.getLogger("tui.commands")
    if log.hasHandlers():  # (else logging's last resort would print the traceback here)
        log.error("unexpected error", exc_info=error)
    try:
        from tui.config.paths import log_file

        where = f"the log file ({log_file()})"
    except Exception:  # the paths themselves may be what failed
        where = "the log file"
    message = plain(redact.redact(str(error)), limit=200)
    print(
        f"freight: unexpected error ({type(error).__name__}: {message}). This is a bug in "
        f"Freight; the details are in {where}.",
        file=err,
    )
    return BUG


def report(error: BaseException, err: TextIO) -> int:
    """Print ``freight: <message>`` (secrets scrubbed) on ``err``; return the exit status."""

    print(f"freight: {plain_lines(redact.redact(str(error)))}", file=err)
    return status_of(error)
