"""What went wrong on the wire, as the error the user sees, and whether to try again."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

import httpx

from tui.api.errors import (
    ApiError,
    BookingOutcomeUnknownError,
    DeadlineExceededError,
    DocumentTooLargeError,
    FreightError,
    ProtocolError,
    RequestTimeoutError,
    ResponseTooLargeError,
    TransportError,
    error_for_status,
    seconds_text,
)
from tui.api.logs import redact
from tui.api.retry import parse_retry_after

__all__ = ["Diagnosis", "Kind"]

Kind = Literal["get", "rates", "book"]
"""How a request may be retried: GETs freely, POST /rates on 429 and 5xx, bookings never."""

_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
_BROKEN = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Turns failures into errors for one service: ``(error, retriable[, wait])``.

    ``booking`` is ``(quote_id, rate_id)`` for a booking request: whatever may have reached the
    service then becomes ``BookingOutcomeUnknownError``, never a retry.
    """

    base_url: httpx.URL
    read_timeout: float
    retry_after_cap: float

    def transport(
        self, exc: httpx.TransportError, kind: Kind, booking: tuple[str, str] | None
    ) -> tuple[FreightError, bool]:
        """No answer: not sent (connect), timed out, or the connection broke."""
        host = self.base_url.host
        if isinstance(exc, _NOT_SENT):
            what = (
                "did not answer the connection"
                if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout)
                else "could not be reached"
            )
            note = " Nothing was booked." if kind == "book" else ""
            message = (
                f"The shipping service at {host} {what}. Check the network connection and the "
                f"service address ({self.base_url}), then try again.{note}"
            )
            return TransportError(message), kind == "get"
        if booking is not None:
            reason = (
                "no answer in time"
                if isinstance(exc, httpx.TimeoutException)
                else "the connection broke before the answer"
            )
            return BookingOutcomeUnknownError(booking[0], booking[1], reason), False
        if isinstance(exc, httpx.TimeoutException):
            return (
                RequestTimeoutError(
                    f"The shipping service at {host} did not answer within "
                    f"{seconds_text(self.read_timeout)}. Try again; if it keeps happening the "
                    "service may be slow or down."
                ),
                False,
            )
        if isinstance(exc, _BROKEN):
            return (
                TransportError(
                    f"The connection to the shipping service at {host} broke before it "
                    "answered. Try again."
                ),
                kind == "get",
            )
        return TransportError(f"Could not talk to the shipping service at {host}."), False

    def deadline(self, kind: Kind, booking: tuple[str, str] | None, seconds: float) -> FreightError:
        """The whole answer did not come within the deadline (never retried)."""
        within = f"{seconds:g} second{'' if seconds == 1 else 's'}"
        if booking is not None:  # as a read timeout says it: the outcome is what matters
            return BookingOutcomeUnknownError(booking[0], booking[1], "no answer in time")
        return DeadlineExceededError(
            f"The shipping service at {self.base_url.host} did not finish its answer within "
            f"{within}. Try again; if it keeps happening the service may be slow or down.",
            deadline=seconds,
        )

    def too_large(
        self,
        response: httpx.Response,
        booking: tuple[str, str] | None,
        limit: int,
        document: bool,
    ) -> FreightError:
        """A 2xx answer larger than Freight reads: refused, the rest left unread."""
        if booking is not None:
            reason = "the service's answer was too large to read"
            return BookingOutcomeUnknownError(booking[0], booking[1], reason)
        size = _size(limit)
        if document:
            return DocumentTooLargeError(
                f"The document is larger than Freight saves ({size}); nothing of it was kept.",
                limit=limit,
                status=response.status_code,
            )
        return ResponseTooLargeError(
            f"The service's answer was larger than Freight reads ({size}), so it was not "
            f"read. Check the service address ({self.base_url}); a smaller page may help.",
            limit=limit,
            status=response.status_code,
        )

    def broken(self, exc: httpx.RequestError, booking: tuple[str, str] | None) -> FreightError:
        """The answer could not be read: a body that does not decode, endless redirects."""
        if booking is not None:
            reason = "the service's answer could not be read"
            return BookingOutcomeUnknownError(booking[0], booking[1], reason)
        what = (
            "redirected too many times"
            if isinstance(exc, httpx.TooManyRedirects)
            else "sent an answer that could not be decoded"
        )
        return ProtocolError(f"The shipping service at {self.base_url.host} {what}.")

    def status(
        self, response: httpx.Response, body: bytes, kind: Kind, booking: tuple[str, str] | None
    ) -> tuple[FreightError, bool, float | None]:
        """A non-2xx answer (``body`` its content, empty when too large to read); the third
        value is the server's ``Retry-After`` to wait."""
        status = response.status_code
        request_id = response.headers.get("x-request-id")
        if 300 <= status < 400:
            where = response.headers.get("location", "")
            return (
                ProtocolError(
                    f"The service address redirects elsewhere ({_origin_of(where)}); Freight "
                    "does not follow redirects with your credentials. Check the service address "
                    f"({self.base_url}), e.g. https instead of http.",
                    status=status,
                    request_id=request_id,
                ),
                False,
                None,
            )
        if booking is not None and status >= 500:
            reason = f"the service failed with HTTP {status}"
            return BookingOutcomeUnknownError(booking[0], booking[1], reason), False, None
        data = _json_or_none(body)
        retry_after = (
            parse_retry_after(response.headers.get("retry-after")) if status == 429 else None
        )
        error = _redacted(
            error_for_status(status, data, request_id=request_id, retry_after=retry_after)
        )
        if status == 429 and kind != "book":
            capped = retry_after is not None and retry_after > self.retry_after_cap
            return error, not capped, retry_after
        if status >= 500 and kind in ("get", "rates"):  # asking again books nothing
            return error, True, None
        return error, False, None

    def unreadable(
        self, response: httpx.Response, booking: tuple[str, str] | None, what: str
    ) -> FreightError:
        """A 2xx answer whose body is not the JSON object expected."""
        if booking is not None:
            return BookingOutcomeUnknownError(
                booking[0], booking[1], "the service's answer could not be read"
            )
        ctype = response.headers.get("content-type", "no content type").split(";")[0]
        return ProtocolError(
            f"The service sent an answer Freight could not read (HTTP {response.status_code}, "
            f"{ctype}: {what}). Check the service address ({self.base_url}) and try again.",
            status=response.status_code,
            request_id=response.headers.get("x-request-id"),
        )


def _size(limit: int) -> str:
    """``20 MiB``, ``512 KiB``: a byte limit as people read it."""
    if limit >= 1024 * 1024:
        return f"{limit / (1024 * 1024):g} MiB"
    return f"{limit / 1024:g} KiB" if limit >= 1024 else f"{limit} bytes"


def _json_or_none(content: bytes) -> Any:
    """The JSON of an error body, or None (HTML pages, empty bodies)."""
    if not content:
        return None
    try:
        return json.loads(content, parse_float=Decimal)
    except (ValueError, RecursionError):
        return None


def _redacted(error: ApiError) -> ApiError:
    """Strip any secret the server may have echoed into the message."""
    clean = redact(error.message)
    if clean != error.message:
        error.message = clean
        error.args = (clean,)
        error.server_message = redact(error.server_message or "") or None
        error.body = None
    return error


def _origin_of(url: str) -> str:
    """``scheme://host`` of a redirect target (never its path or query)."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return "an invalid address"
    return f"{parsed.scheme}://{parsed.host}" if parsed.host else "another path"
