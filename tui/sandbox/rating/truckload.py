"""Truckload pricing: per-mile linehaul with short-haul premium, per-mile fuel, market noise."""

from __future__ import annotations

import math
from decimal import Decimal

from tui.sandbox.geo import road_miles
from tui.sandbox.rating.accessorials import Declined, freight_accessorials
from tui.sandbox.rating.carriers import Carrier
from tui.sandbox.rating.model import (
    Charge,
    RateRequest,
    RateResult,
    money,
    seeded_random,
    unavailable,
)

MAX_TRUCKLOAD_LB = Decimal(45000)
TRUCKLOAD_FROM_LB = Decimal(5000)
TRAILER_FEET = Decimal(53)
TRAILER_WIDTH_IN = Decimal(100)
FUEL_PEG = Decimal("1.25")
MPG = Decimal("6.5")

#: equipment -> ex-fuel $/mile at long haul
EQUIPMENT: dict[str, Decimal] = {
    "Dry Van": Decimal("1.66"),
    "Reefer": Decimal("2.00"),
    "Flatbed": Decimal("2.04"),
}
SERVICES: dict[str, tuple[str, ...]] = {
    "TGTL": ("Dry Van", "Reefer"),
    "RGFB": ("Dry Van", "Reefer", "Flatbed"),
}


def linear_feet(request: RateRequest) -> Decimal:
    """Trailer floor the freight takes, loading units two abreast in a 100 in wide trailer."""
    area = sum(
        (item.length.__ceil__() * item.width.__ceil__() * item.quantity for item in request.items),
        0,
    )
    return (Decimal(area) / TRAILER_WIDTH_IN / 12).quantize(Decimal("0.1"))


def wants_truckload(request: RateRequest) -> bool:
    """Heavy or long loads: 5,000 lb and up, or more than 12 linear feet."""
    return request.total_weight >= TRUCKLOAD_FROM_LB or linear_feet(request) > 12


def rate_truckload(
    carrier: Carrier, request: RateRequest, diesel: Decimal, service: str, day: str
) -> RateResult:
    """Price one equipment type for ``carrier`` (noise is per lane and day, not per weight)."""
    name = carrier.name
    origin, dest = request.origin, request.dest
    if not (origin.contiguous and dest.contiguous):
        return unavailable(
            carrier.code, name, "truckload", service, "Truckload serves the 48 states only."
        )
    if not (origin.freight_ok and dest.freight_ok):
        return unavailable(
            carrier.code, name, "truckload", service, "No truck service at a PO Box ZIP."
        )
    if request.origin.country != request.dest.country and not carrier.cross_border:
        return unavailable(
            carrier.code, name, "truckload", service, f"{carrier.name} has no US-Canada service."
        )
    if "residential" in (request.origin_type, request.dest_type):
        return unavailable(
            carrier.code, name, "truckload", service, "No 53 ft trailers at residences."
        )
    if request.total_weight > MAX_TRUCKLOAD_LB or linear_feet(request) > TRAILER_FEET:
        return unavailable(
            carrier.code, name, "truckload", service, "Over one legal 53 ft load: split it."
        )
    miles = road_miles(origin, dest)
    premium = max(0.0, min(1.0, (800 - miles) / 700))
    noise = seeded_random(carrier.code, service, request.lane_key(), day).uniform(
        -carrier.price_noise, carrier.price_noise
    )
    per_mile = EQUIPMENT[service] * Decimal(str(round((1 + premium) * (1 + noise), 4)))
    linehaul = max(money(per_mile * Decimal(str(round(miles, 1)))), money(carrier.amc))
    fuel_per_mile = (diesel - FUEL_PEG) / MPG
    fuel = money(fuel_per_mile * Decimal(str(round(miles, 1))))
    try:
        extras = freight_accessorials(carrier, request, truckload=True, service=service)
    except Declined as declined:
        return unavailable(carrier.code, name, "truckload", service, str(declined))
    charges = [
        Charge("linehaul", linehaul, f"{miles:,.0f} mi {service}, ${per_mile:.2f}/mi"),
        Charge("discount", Decimal("0.00"), "Spot rate, no discount"),
        Charge("fuel", fuel, f"${fuel_per_mile:.3f}/mi at DOE ${diesel:.3f}"),
        *extras,
    ]
    days = max(1, math.ceil(miles / 500))
    if carrier.code == "RGFB":
        days += 0 if miles < 250 else 1
    return RateResult(
        carrier.code, name, "truckload", service, days=days, charges=charges, ttl_hours=24
    )
