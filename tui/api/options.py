"""Client settings: retries, time limits, page size, and the wire format (``WireFormat``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tui.api.wire import ShipmentParams, WireFormat

__all__ = ["ClientOptions", "RetryPolicy", "ShipmentParams"]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before retrying (GETs; POST /rates on 429 and 5xx,
    which book nothing; a booking never)."""

    attempts: int = 4
    """Total tries of a GET, including the first."""
    rate_attempts: int = 3
    """Total tries of POST /rates when answered 429 or 5xx."""
    backoff_base: float = 0.25
    """First back-off in seconds; doubles each retry, with full jitter."""
    backoff_cap: float = 4.0
    """Longest single back-off."""
    retry_after_cap: float = 10.0
    """Longest wait honoured from a ``Retry-After`` header; a longer one is not waited for."""


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """Settings for ``FreightClient``; the defaults speak the real service's vocabulary."""

    wire: WireFormat = field(default_factory=WireFormat)
    """How requests spell values and where answers may carry them (names, formats, aliases)."""
    page_size: int | None = 50
    """Sent as the page-size parameter by searches (None: let the server choose)."""
    max_pages: int = 10_000
    """``iter_shipments`` stops after this many pages whatever the server says."""
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    connect_timeout: float = 5.0
    read_timeout: float = 20.0
    """Per-read limit for GETs and POST /rates."""
    booking_timeout: float = 60.0
    """Read limit for bookings (carriers are slow; a timeout leaves the outcome unknown)."""
    request_deadline: float | None = None
    """Longest wait for one whole answer of a GET or POST /rates, from sending to its last
    byte (a server dripping a byte a second never ends it). None: ``read_timeout``'s budget."""
    booking_deadline: float | None = None
    """The same for a booking (None: ``booking_timeout``); past it the outcome is unknown."""
    document_deadline: float = 120.0
    """The same for a document download (20 MiB at 200 KB/s fits)."""
    max_answer_bytes: int = 10 * 1024 * 1024
    """Largest API answer read (JSON), counted as it streams in: a larger one is refused
    before it is read whole. A page of 50 shipments is about 100 KB."""
    max_document_bytes: int = 20 * 1024 * 1024
    """Largest document (BOL, label) downloaded, counted as it streams in."""
