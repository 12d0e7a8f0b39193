"""How values are spelled on the wire: one ``WireFormat``, defaults from the real service."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import time
from types import MappingProxyType
from typing import Final, Literal

from tui.domain.locations import PACKAGE_TYPES, LocationType, plural

__all__ = [
    "DEFAULT_BOOKING_ALIASES",
    "DEFAULT_COUNTRIES",
    "DEFAULT_LOCATION_NAMES",
    "DEFAULT_PACKAGE_LABELS",
    "DEFAULT_PARCEL_ALIASES",
    "DEFAULT_WIRE",
    "ChangePaths",
    "ShipmentParams",
    "TimeFormat",
    "WireFormat",
]

TimeFormat = Literal["12h", "24h"]

_PICKUP_ALIASES: Mapping[str, tuple[str, ...]] = {
    "pickup_date": (
        "pickupDate", "pickup_date", "scheduledPickupDate", "pickupDateScheduled",
        "confirmedPickupDate", "pickup.date", "pickup.pickupDate", "pickup.scheduledDate",
        "shipment.pickupDate", "tracking.pickupDate", "data.pickupDate",
    ),
    "pickup_date_message": (
        "pickupDateMessage", "pickup_date_message", "pickupMessage", "pickupNote",
        "pickup.message", "pickup.note", "shipment.pickupDateMessage", "data.pickupDateMessage",
    ),
}  # fmt: skip
"""Where a booking response may give the pickup day (the service may move the one asked for:
a holiday, a weekend) and what it says about it."""

DEFAULT_BOOKING_ALIASES: Mapping[str, tuple[str, ...]] = {
    "shipment_id": (
        "shipmentId", "shipment_id", "shipmentID", "id", "shipment.id", "shipment.shipmentId",
        "data.shipmentId", "data.id",
    ),
    "pro_number": (
        "proNumber", "pro_number", "pro", "proNo", "PRO", "carrierProNumber", "carrierPro",
        "shipment.proNumber", "shipment.pro", "tracking.proNumber", "data.proNumber",
    ),
    "bol_number": (
        "bolNumber", "bol_number", "bol", "bolNo", "BOL", "billOfLading", "shipment.bolNumber",
        "shipment.bol", "data.bolNumber",
    ),
    "pickup_confirmation": (
        "pickupConfirmation", "pickup_confirmation", "pickupNumber", "pickupConfirmationNumber",
        "confirmationNumber", "pickup.confirmationNumber", "pickup.number",
        "shipment.pickupConfirmation",
    ),
    "tracking_number": (
        "trackingNumber", "tracking_number", "tracking.trackingNumber",
        "shipment.trackingNumber", "shipment.tracking.trackingNumber",
    ),
    "shipment_link": (
        "shipmentUrl", "shipmentLink", "link", "href", "url", "links.shipment", "links.self",
        "_links.shipment.href", "_links.self.href", "shipment.url",
    ),
    "documents": ("documents", "docs", "files", "shipment.documents"),
    **_PICKUP_ALIASES,
}  # fmt: skip
"""Where a booking response may carry each value: first present wins (dotted = nested)."""

DEFAULT_PARCEL_ALIASES: Mapping[str, tuple[str, ...]] = {
    "shipment_id": (
        "shipmentId", "shipment_id", "shipmentID", "id", "shipment.id", "shipment.shipmentId",
        "data.shipmentId", "data.id",
    ),
    "tracking_numbers": (
        "trackingNumbers", "tracking_numbers", "trackingNumber", "tracking_number",
        "trackingNos", "tracking", "packages", "shipment.trackingNumbers",
        "shipment.trackingNumber",
    ),
    "shipment_link": (
        "shipmentUrl", "shipmentLink", "link", "href", "url", "links.shipment", "links.self",
        "_links.shipment.href", "_links.self.href", "shipment.url",
    ),
    "labels": ("labels", "label", "documents", "labelUrls"),
    **_PICKUP_ALIASES,
}  # fmt: skip
"""Where a parcel booking response may carry each value: first present wins."""


DEFAULT_LOCATION_NAMES: Final[Mapping[LocationType, str]] = MappingProxyType(
    {kind: kind.words for kind in LocationType}
)
"""``business dock`` … ``pier``: lower case, words separated by spaces, as real clients send."""

DEFAULT_PACKAGE_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {key: plural(key).capitalize() for key in PACKAGE_TYPES}
)
"""``Pallets``, ``Boxes``, ``Loose``: capitalised plurals, as real clients send."""

DEFAULT_COUNTRIES: Final[Mapping[str, str]] = MappingProxyType({"US": "USA", "CA": "CAN"})
"""ISO alpha-2 (what Freight stores) to what the service reads (alpha-3, as real clients send)."""


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
class ChangePaths:
    """Method and path of each change after a booking, and the pickup body's names.

    The interface names pickup management but does not show its paths: these are the
    sandbox's (README "After the booking"); ``{id}`` stands for the shipment id,
    percent-encoded. A profile's ``[wire] change_paths`` table overrides any of them, e.g.
    ``cancel = "POST shipments/{id}/void"``."""

    cancel: str = "POST shipments/{id}/cancel"
    pickup_request: str = "POST shipments/{id}/pickup"
    pickup_change: str = "PUT shipments/{id}/pickup"
    pickup_cancel: str = "DELETE shipments/{id}/pickup"
    pickup_date: str = "pickupDate"
    ready_time: str = "readyTime"
    close_time: str = "closeTime"

    def route(self, which: str, shipment_id: str) -> tuple[str, str]:
        """``(METHOD, path)`` of one change (``which``: cancel, pickup_request, …) for a
        shipment whose id is already a safe path segment."""
        method, _, path = str(getattr(self, which)).strip().partition(" ")
        return method.upper(), path.strip().lstrip("/").replace("{id}", shipment_id)


@dataclass(frozen=True, slots=True)
class WireFormat:
    """Every spelling the interface leaves open; the defaults are the real service's."""

    location_types: Mapping[LocationType, str] = field(
        default_factory=lambda: DEFAULT_LOCATION_NAMES
    )
    """Name sent in ``originType``/``destType`` for each location type."""
    time_format: TimeFormat = "12h"
    """Dock hours as ``09:00 AM`` (12h) or ``09:00`` (24h)."""
    item_count: tuple[str, ...] = ("quantity", "pieces")
    """Names an item's handling-unit count is sent under, each with the same value: the
    interface's ``quantity``, and ``pieces`` for servers that read that name instead."""
    package_labels: Mapping[str, str] = field(default_factory=lambda: DEFAULT_PACKAGE_LABELS)
    """Label sent in ``package`` for each known package key; other labels go as typed."""
    countries: Mapping[str, str] = field(default_factory=lambda: DEFAULT_COUNTRIES)
    """Country code sent for each ISO alpha-2 code."""
    shipment_params: ShipmentParams = field(default_factory=ShipmentParams)
    """Query parameter names of the shipment search."""
    booking_aliases: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: DEFAULT_BOOKING_ALIASES
    )
    """Where a booking answer may carry each value (first present wins, dotted = nested)."""
    parcel_aliases: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: DEFAULT_PARCEL_ALIASES
    )
    """Where a parcel booking answer may carry each value."""
    changes: ChangePaths = field(default_factory=ChangePaths)
    """Paths of cancel and pickup changes, and the pickup body's names."""

    def location(self, kind: LocationType) -> str:
        """The wire name of a location type."""
        return self.location_types.get(kind) or kind.words

    def time(self, value: time) -> str:
        """A dock time: ``09:00 AM`` (zero-padded, fixed width) or ``09:00``."""
        if self.time_format == "24h":
            return f"{value.hour:02d}:{value.minute:02d}"
        hour = value.hour % 12 or 12
        return f"{hour:02d}:{value.minute:02d} {'AM' if value.hour < 12 else 'PM'}"

    def package(self, label: str) -> str:
        """The wire label of a package key; an unknown label as given."""
        return self.package_labels.get(label, label)

    def country(self, code: str) -> str:
        """The wire code of a country."""
        return self.countries.get(code, code)


DEFAULT_WIRE: Final = WireFormat()
