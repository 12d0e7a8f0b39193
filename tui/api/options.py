"""What the spec leaves open, as settings; the defaults match the sandbox (README "Sandbox")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tui.api.models.booking import DEFAULT_BOOKING_ALIASES, DEFAULT_PARCEL_ALIASES

__all__ = ["ClientOptions", "RetryPolicy", "ShipmentParams"]


@dataclass(frozen=True, slots=True)
class ShipmentParams:
    """Literal query parameter names of GET /shipments."""

    text: str = "search"
    status: str = "status"
    mode: str = "mode"
    pickup_date_from: str = "pickupDateFrom"
    pickup_date_to: str = "pickupDateTo"
    continuation_token: str = "continuationToken"
    page_size: str = "limit"


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before retrying (GETs; POST /rates on 429 only)."""

    attempts: int = 4
    """Total tries of a GET, including the first."""
    rate_attempts: int = 3
    """Total tries of POST /rates when answered 429."""
    backoff_base: float = 0.25
    """First back-off in seconds; doubles each retry, with full jitter."""
    backoff_cap: float = 4.0
    """Longest single back-off."""
    retry_after_cap: float = 10.0
    """Longest wait honoured from a ``Retry-After`` header; a longer one is not waited for."""


@dataclass(frozen=True, slots=True)
class ClientOptions:
    """Settings for ``FreightClient``; the defaults suit the sandbox."""

    shipment_params: ShipmentParams = field(default_factory=ShipmentParams)
    page_size: int | None = 50
    """Sent as the page-size parameter by searches (None: let the server choose)."""
    max_pages: int = 10_000
    """``iter_shipments`` stops after this many pages whatever the server says."""
    booking_aliases: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(DEFAULT_BOOKING_ALIASES)
    )
    parcel_aliases: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(DEFAULT_PARCEL_ALIASES)
    )
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    connect_timeout: float = 5.0
    read_timeout: float = 20.0
    """Per-read limit for GETs and POST /rates."""
    booking_timeout: float = 60.0
    """Read limit for bookings (carriers are slow; a timeout leaves the outcome unknown)."""
    max_document_bytes: int = 20 * 1024 * 1024
