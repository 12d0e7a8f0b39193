"""One hierarchy of errors, each with a message a warehouse user can act on.

No message ever contains the API token: the client redacts anything the server echoes back.
Field paths in ``fields`` use the wire names (``originPostalCode``, ``items[0].weight``) for
both server-side (``InvalidRequestError``) and client-side (``RequestValidationError``) errors;
``snake_path`` turns one into the Python attribute path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tui.domain.safe_text import lazy_pattern, plain, plain_lines

MESSAGE_LIMIT = 500
"""The longest piece of a server's error text quoted in a message (a page of HTML is not)."""

__all__ = [
    "ApiError",
    "AuthenticationError",
    "BookingOutcomeUnknownError",
    "ChangeRefusedError",
    "ConflictError",
    "DeadlineExceededError",
    "DocumentTooLargeError",
    "FreightError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "ProtocolError",
    "QuoteExpiredError",
    "RateLimitedError",
    "RequestTimeoutError",
    "RequestValidationError",
    "ResponseTooLargeError",
    "ServerError",
    "SubscriptionError",
    "TransportError",
    "error_for_status",
    "fields_from_body",
    "snake_path",
]


class FreightError(Exception):
    """Base of every error the client raises; ``str(e)`` is the message for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class RequestValidationError(FreightError, ValueError):
    """A request failed validation before it was sent; ``fields`` maps field path to message."""

    def __init__(self, fields: Mapping[str, str], message: str | None = None) -> None:
        self.fields: dict[str, str] = dict(fields)
        if message is None:
            listed = "; ".join(f"{k or 'request'}: {v}" for k, v in self.fields.items())
            message = f"Please correct: {listed}" if listed else "The request is not valid."
        super().__init__(message)

    @classmethod
    def from_pydantic(cls, exc: Any) -> RequestValidationError:
        """Build from a ``pydantic.ValidationError`` (one entry per field, first message)."""
        fields: dict[str, str] = {}
        for err in exc.errors(include_url=False):
            path = _loc_path(_wire_name(p) for p in err.get("loc", ()))
            fields.setdefault(path, _friendly(err))
        return cls(fields)


class ApiError(FreightError):
    """The service answered with an error status."""

    default_advice = "The service refused the request."

    def __init__(
        self,
        status: int,
        name: str | None,
        request_id: str | None,
        message: str,
        *,
        server_message: str | None = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.name = name
        self.request_id = request_id
        self.server_message = server_message
        self.body = body

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, name={self.name!r}, "
            f"request_id={self.request_id!r}, message={self.message!r})"
        )


def seconds_text(seconds: float) -> str:
    """`1 second`, `2 seconds`, `0.5 seconds`."""
    return f"{seconds:g} second" + ("" if seconds == 1 else "s")


class AuthenticationError(ApiError):
    """401: the token is missing or not valid."""

    default_advice = (
        "The service did not accept your API credentials. Run `freight login` to save a "
        "valid client ID and secret for this profile."
    )


class SubscriptionError(ApiError):
    """402: the account has no active subscription."""

    default_advice = (
        "Your shipping account has no active subscription. Ask your account administrator "
        "to renew it in the account dashboard."
    )


class PermissionDeniedError(ApiError):
    """403: the token is valid but may not do this."""

    default_advice = (
        "Your API credentials are not allowed to do this. Ask your account administrator "
        "for credentials with this permission."
    )


class NotFoundError(ApiError):
    """404: unknown shipment, quote or rate id, or unknown path."""

    default_advice = "The service could not find it. Check the number and try again."


class ConflictError(ApiError):
    """409: e.g. this quote and rate were booked before (``shipment_id`` when given)."""

    default_advice = "This was already done before."

    def __init__(self, *args: Any, shipment_id: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shipment_id = shipment_id


class InvalidRequestError(ApiError):
    """400/413/422: the service rejected the request; ``fields`` maps field path to message."""

    default_advice = "The service rejected the request."

    def __init__(self, *args: Any, fields: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields: dict[str, str] = dict(fields or {})


class QuoteExpiredError(ApiError):
    """410: the quote is past its expiry; get new rates."""

    default_advice = "This quote has expired. Get new rates and book from the new quote."


class RateLimitedError(ApiError):
    """429: too many requests; ``retry_after`` seconds when the server said."""

    default_advice = "The service is busy with too many requests from this account."

    def __init__(self, *args: Any, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx: the service failed."""

    default_advice = "The shipping service had a problem. Try again in a minute."


class TransportError(FreightError):
    """The service could not be reached, or the connection broke (nothing was answered)."""


class RequestTimeoutError(TransportError):
    """No answer within the time limit."""


class DeadlineExceededError(RequestTimeoutError):
    """The whole answer did not arrive within the request's deadline (a slow or dripping
    server: each read came in time, the answer never finished)."""

    def __init__(self, message: str, *, deadline: float) -> None:
        super().__init__(message)
        self.deadline = deadline


class ProtocolError(FreightError):
    """The service answered with something that is not the JSON expected."""

    def __init__(
        self, message: str, *, status: int | None = None, request_id: str | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.request_id = request_id


class ResponseTooLargeError(ProtocolError):
    """An answer was larger than Freight reads (``limit`` bytes); it was not read whole."""

    def __init__(self, message: str, *, limit: int, status: int | None = None) -> None:
        super().__init__(message, status=status)
        self.limit = limit


class DocumentTooLargeError(ResponseTooLargeError):
    """A document (BOL, label) was larger than Freight saves; nothing of it was kept."""


class ChangeRefusedError(ApiError):
    """The service refused a cancel or a pickup change (409/422 on those paths): the shipment
    is picked up, past the carrier's cut-off, canceled, or has no pickup to change.

    ``reason``: ``picked-up``, ``cutoff``, ``canceled``, ``no-pickup``, ``pickup-exists`` or
    ``refused`` (what the service's error name or words say)."""

    default_advice = "The service refused the change."

    def __init__(self, *args: Any, reason: str = "refused", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reason = reason

    @classmethod
    def from_error(cls, error: ApiError, what: str) -> ChangeRefusedError:
        """The refusal of ``what`` (``cancel``, ``pickup change``…) that ``error`` reports."""
        said = f"{error.name or ''} {error.server_message or ''}".lower().replace("_", " ")
        reason = "refused"
        for words, found in _REFUSALS:
            if any(word in said for word in words):
                reason = found
                break
        advice = _REFUSAL_ADVICE[reason].format(what=what)
        if error.server_message and error.server_message not in advice:
            advice += f" Service says: {error.server_message}"
        tag = f"HTTP {error.status}" + (f" {error.name}" if error.name else "")
        if error.request_id:
            tag += f", request id {error.request_id}"
        return cls(
            error.status, error.name, error.request_id, f"{advice} ({tag})",
            server_message=error.server_message, body=error.body, reason=reason,
        )  # fmt: skip


_REFUSALS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("picked up", "picked-up", "in transit", "delivered", "tendered"), "picked-up"),
    (("cutoff", "cut-off", "cut off", "too late"), "cutoff"),
    (("cancel",), "canceled"),
    (("no pickup",), "no-pickup"),
    (("pickup exists", "already scheduled"), "pickup-exists"),
)
_REFUSAL_ADVICE = {
    "cutoff": "Too late to {what}: the carrier's cut-off on the pickup day has passed. "
    "Call the carrier.",
    "picked-up": "Too late to {what}: the shipment is already picked up.",
    "canceled": "The shipment is canceled: nothing to {what}.",
    "no-pickup": "The shipment has no pickup scheduled: ask for one instead.",
    "pickup-exists": "The shipment already has a pickup: change it instead.",
    "refused": "The service refused to {what}.",
}


class BookingOutcomeUnknownError(FreightError):
    """A booking may have reached the service but no usable answer came back.

    Never retried automatically: the user must look in Shipments (search for the booking's
    reference) before booking again.
    """

    def __init__(
        self, quote_id: str, rate_id: str, reason: str, reference: str | None = None
    ) -> None:
        self.quote_id = quote_id
        self.rate_id = rate_id
        self.reason = reason
        self.reference = reference
        # A listing need not carry quote ids: the reference sent with the booking is what a
        # search finds.
        look_for = (
            f"search for its reference {reference}"
            if reference
            else "look for it (by the shipper, consignee and date: a listing may not show "
            "quote ids)"
        )
        super().__init__(
            f"The booking was sent but no usable answer came back ({reason}), so it may or "
            f"may not have been booked. Before booking again, open Shipments and {look_for}."
        )


_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: SubscriptionError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: QuoteExpiredError,
    413: InvalidRequestError,
    422: InvalidRequestError,
    429: RateLimitedError,
}


def error_for_status(
    status: int,
    body: Any,
    *,
    request_id: str | None = None,
    retry_after: float | None = None,
) -> ApiError:
    """Build the error for an error response (``body`` is the parsed JSON, or None)."""
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = ServerError if status >= 500 else ApiError
    data = body if isinstance(body, Mapping) else {}
    # What the server wrote is shown as plain text (no escapes, no control characters) and
    # cut to a readable length; the body as sent stays in ``body``.
    name = _text(data.get("name") or data.get("code") or data.get("error"), limit=60)
    request_id = _text(data.get("requestId") or data.get("request_id"), limit=80) or request_id
    server_message = next(
        (
            plain_lines(data[key], limit=MESSAGE_LIMIT)
            for key in ("message", "detail", "description", "error_description")
            if isinstance(data.get(key), str) and data[key]
        ),
        None,
    )
    extra: dict[str, Any] = {}
    advice = cls.default_advice
    if cls is InvalidRequestError:
        fields = {
            plain(key, limit=80): plain(value, limit=MESSAGE_LIMIT)
            for key, value in fields_from_body(data).items()
        }
        extra["fields"] = fields
        if fields:
            listed = "; ".join(f"{k}: {v}" for k, v in fields.items())
            advice = f"The service rejected some fields: {listed}."
    elif cls is ConflictError:
        shipment_id = _text(data.get("shipmentId") or data.get("shipment_id"))
        extra["shipment_id"] = shipment_id
        if shipment_id:
            advice = f"This quote and rate were booked before, as shipment {shipment_id}."
    elif cls is RateLimitedError:
        extra["retry_after"] = retry_after
        wait = seconds_text(retry_after) if retry_after is not None else "a moment"
        advice = f"{advice} Wait {wait} and try again."
    parts = [advice]
    if server_message and server_message not in advice:
        parts.append(f"Service says: {server_message}")
    tag = f"HTTP {status}" + (f" {name}" if name else "")
    if request_id:
        tag += f", request id {request_id}"
    message = " ".join(parts) + f" ({tag})"
    return cls(
        status,
        name,
        request_id,
        message,
        server_message=server_message,
        body=body,
        **extra,
    )


def fields_from_body(data: Mapping[str, Any]) -> dict[str, str]:
    """Read per-field messages from an error body in any of the usual shapes."""
    raw = data.get("fields")
    for key in ("errors", "details", "detail"):
        if raw is None or isinstance(raw, str):
            raw = data.get(key)
    out: dict[str, str] = {}
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            out[str(key)] = _join(value)
    elif isinstance(raw, Iterable) and not isinstance(raw, str | bytes):
        for entry in raw:
            if isinstance(entry, Mapping):
                key = entry.get("field") or entry.get("path") or entry.get("name") or ""
                loc = entry.get("loc")
                if isinstance(loc, list | tuple):
                    if loc and loc[0] in ("body", "query", "path"):
                        loc = loc[1:]
                    key = _loc_path(loc)
                msg = entry.get("message") or entry.get("msg") or entry.get("detail") or ""
                out.setdefault(str(key), _join(msg) or "is not valid")
            elif isinstance(entry, str):
                out.setdefault("", entry)
    return out


_CAMEL = lazy_pattern(r"(?<=[a-z0-9])([A-Z])")


def snake_path(path: str) -> str:
    """``items[0].freightClass`` -> ``items[0].freight_class``; ``id`` -> ``quote_id``."""
    if path == "id":
        return "quote_id"
    return _CAMEL().sub(lambda m: "_" + m.group(1).lower(), path)


def _wire_name(part: Any) -> Any:
    """A loc part as the wire names it (``freight_class`` -> ``freightClass``, quote_id -> id)."""
    if not isinstance(part, str) or "_" not in part:
        return part
    if part == "quote_id":
        return "id"
    head, *rest = part.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def _loc_path(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


_FRIENDLY = {
    "missing": "is required",
    "decimal_parsing": "must be a number",
    "decimal_type": "must be a number",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "finite_number": "must be a number",
    "string_type": "must be text",
    "bool_parsing": "must be yes or no",
    "bool_type": "must be yes or no",
    "list_type": "must be a list",
    "date_from_datetime_parsing": "must be a date like 2026-11-22",
    "date_parsing": "must be a date like 2026-11-22",
    "date_type": "must be a date like 2026-11-22",
    "extra_forbidden": "is not a known field",
}


def _friendly(err: Mapping[str, Any]) -> str:
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    if kind in _FRIENDLY:
        return _FRIENDLY[kind]
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        word = {
            "greater_than": "more than",
            "greater_than_equal": "at least",
            "less_than": "less than",
            "less_than_equal": "at most",
        }[kind]
        bound = next(iter(ctx.values()), "")
        return f"must be {word} {bound}"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length', 1)}"
    if kind == "too_long":
        return f"allows at most {ctx.get('max_length', '')}"
    if kind == "string_too_short":
        return "is required"
    if kind == "string_too_long":
        return f"must be at most {ctx.get('max_length', '')} characters"
    return str(err.get("msg", "is not valid"))


def _text(value: Any, *, limit: int | None = None) -> str | None:
    if value is None or value == "":
        return None
    return plain(value, limit=limit) or None


def _join(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "; ".join(str(v) for v in value)
    return str(value)
