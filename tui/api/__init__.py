"""Async client library for the shipping service: models, errors and ``FreightClient``.

Everything is exported lazily, so ``import tui.api`` (or ``tui.api.models``) costs no httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.errors import (
        ApiError,
        AuthenticationError,
        BookingOutcomeUnknownError,
        ChangeRefusedError,
        ConflictError,
        DeadlineExceededError,
        DocumentTooLargeError,
        FreightError,
        InvalidRequestError,
        NotFoundError,
        PermissionDeniedError,
        ProtocolError,
        QuoteExpiredError,
        RateLimitedError,
        RequestTimeoutError,
        RequestValidationError,
        ResponseTooLargeError,
        ServerError,
        SubscriptionError,
        TransportError,
    )
    from tui.api.models import (
        FREIGHT_CLASSES,
        LOCATION_TYPES,
        MODES,
        SHIPMENT_STATUSES,
        Address,
        Booking,
        BookingRequest,
        CarrierRef,
        Charge,
        Cost,
        Document,
        Hazard,
        ParcelBooking,
        ParcelBookingRequest,
        Quote,
        Rate,
        RateItem,
        RateRequest,
        Shipment,
        ShipmentDetail,
        ShipmentItem,
        ShipmentPage,
        ShipmentQuery,
        Tracking,
        TrackingEvent,
    )
    from tui.api.models.changes import CancelResult, PickupChange, PickupResult
    from tui.api.options import ClientOptions, RetryPolicy
    from tui.api.secret import Secret
    from tui.api.wire import ShipmentParams, WireFormat
    from tui.domain.locations import LocationType

_WHERE: dict[str, str] = {
    "FreightClient": "tui.api.client",
    "ClientOptions": "tui.api.options",
    "RetryPolicy": "tui.api.options",
    "ShipmentParams": "tui.api.wire",
    "WireFormat": "tui.api.wire",
    "LocationType": "tui.domain.locations",
    "Hazard": "tui.api.models",
    "Secret": "tui.api.secret",
    "ApiError": "tui.api.errors",
    "AuthenticationError": "tui.api.errors",
    "BookingOutcomeUnknownError": "tui.api.errors",
    "ChangeRefusedError": "tui.api.errors",
    "CancelResult": "tui.api.models.changes",
    "PickupChange": "tui.api.models.changes",
    "PickupResult": "tui.api.models.changes",
    "ConflictError": "tui.api.errors",
    "DeadlineExceededError": "tui.api.errors",
    "DocumentTooLargeError": "tui.api.errors",
    "FreightError": "tui.api.errors",
    "InvalidRequestError": "tui.api.errors",
    "NotFoundError": "tui.api.errors",
    "PermissionDeniedError": "tui.api.errors",
    "ProtocolError": "tui.api.errors",
    "QuoteExpiredError": "tui.api.errors",
    "RateLimitedError": "tui.api.errors",
    "RequestTimeoutError": "tui.api.errors",
    "RequestValidationError": "tui.api.errors",
    "ResponseTooLargeError": "tui.api.errors",
    "ServerError": "tui.api.errors",
    "SubscriptionError": "tui.api.errors",
    "TransportError": "tui.api.errors",
    "FREIGHT_CLASSES": "tui.api.models",
    "LOCATION_TYPES": "tui.api.models",
    "MODES": "tui.api.models",
    "SHIPMENT_STATUSES": "tui.api.models",
    "Address": "tui.api.models",
    "Booking": "tui.api.models",
    "BookingRequest": "tui.api.models",
    "CarrierRef": "tui.api.models",
    "Charge": "tui.api.models",
    "Cost": "tui.api.models",
    "Document": "tui.api.models",
    "ParcelBooking": "tui.api.models",
    "ParcelBookingRequest": "tui.api.models",
    "Quote": "tui.api.models",
    "Rate": "tui.api.models",
    "RateItem": "tui.api.models",
    "RateRequest": "tui.api.models",
    "Shipment": "tui.api.models",
    "ShipmentDetail": "tui.api.models",
    "ShipmentItem": "tui.api.models",
    "ShipmentPage": "tui.api.models",
    "ShipmentQuery": "tui.api.models",
    "Tracking": "tui.api.models",
    "TrackingEvent": "tui.api.models",
}

__all__ = [
    "FREIGHT_CLASSES",
    "LOCATION_TYPES",
    "MODES",
    "SHIPMENT_STATUSES",
    "Address",
    "ApiError",
    "AuthenticationError",
    "Booking",
    "BookingOutcomeUnknownError",
    "BookingRequest",
    "CancelResult",
    "CarrierRef",
    "ChangeRefusedError",
    "Charge",
    "ClientOptions",
    "ConflictError",
    "Cost",
    "DeadlineExceededError",
    "Document",
    "DocumentTooLargeError",
    "FreightClient",
    "FreightError",
    "Hazard",
    "InvalidRequestError",
    "LocationType",
    "NotFoundError",
    "ParcelBooking",
    "ParcelBookingRequest",
    "PermissionDeniedError",
    "PickupChange",
    "PickupResult",
    "ProtocolError",
    "Quote",
    "QuoteExpiredError",
    "Rate",
    "RateItem",
    "RateLimitedError",
    "RateRequest",
    "RequestTimeoutError",
    "RequestValidationError",
    "ResponseTooLargeError",
    "RetryPolicy",
    "Secret",
    "ServerError",
    "Shipment",
    "ShipmentDetail",
    "ShipmentItem",
    "ShipmentPage",
    "ShipmentParams",
    "ShipmentQuery",
    "SubscriptionError",
    "Tracking",
    "TrackingEvent",
    "TransportError",
    "WireFormat",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'tui.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
