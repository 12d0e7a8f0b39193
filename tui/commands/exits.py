"""Exit statuses of the commands, and the one place that turns an error into a status."""

from __future__ import annotations

from typing import TextIO

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
INTERRUPTED = 130

HELP = (
    "exit status:\n"
    "  0 done; 1 partly done (e.g. a document not saved)\n"
    "  2 usage error or invalid request; 3 not found\n"
    "  4 not signed in or not allowed (401, 402, 403)\n"
    "  5 the service failed or could not be reached; 130 interrupted"
)


class UsageError(Exception):
    """What the user typed cannot be used; the message names the flag or field."""


class NotSignedInError(Exception):
    """No credentials (or no base URL) for the profile; the message says how to sign in."""


class NotFound(Exception):
    """Nothing matched what the user asked for."""


def status_of(error: BaseException) -> int:
    """The exit status for an error a command let through."""
    from tui.api import errors as api

    if isinstance(error, UsageError | api.RequestValidationError | api.InvalidRequestError):
        return USAGE
    if isinstance(error, NotFound | api.NotFoundError):
        return NOT_FOUND
    if isinstance(
        error,
        NotSignedInError
        | api.AuthenticationError
        | api.SubscriptionError
        | api.PermissionDeniedError,
    ):
        return AUTH
    return SERVICE


def report(error: BaseException, err: TextIO) -> int:
    """Print ``freight: <message>`` (secrets scrubbed) on ``err``; return the exit status."""
    from tui.credentials import redact
    from tui.domain.safe_text import plain_lines

    print(f"freight: {plain_lines(redact.redact(str(error)))}", file=err)
    return status_of(error)
