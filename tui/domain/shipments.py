"""The service's shipment statuses and transport modes, in lifecycle and menu order."""

from __future__ import annotations

from typing import Final

SHIPMENT_STATUSES: Final = ("pending", "awarded", "confirmed", "picked-up", "delivered", "canceled")
"""Every status a shipment can have (spec part 3), lifecycle first, canceled last."""

MODES: Final = ("ltl", "parcel", "truckload")
"""Transport modes (spec part 1)."""
