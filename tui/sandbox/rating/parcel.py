"""Parcel pricing: billable weight (divisor 139), zones by distance, service levels."""

from __future__ import annotations

import math
from decimal import Decimal

from tui.sandbox.geo import haversine_miles
from tui.sandbox.rating.carriers import Carrier
from tui.sandbox.rating.model import Charge, Item, RateRequest, RateResult, money, unavailable

DIM_DIVISOR = 139
MAX_PACKAGE_LB = Decimal(150)
MAX_LENGTH_IN = 108
MAX_LENGTH_PLUS_GIRTH_IN = 165
MAX_PACKAGES = 50

#: zone -> (first-pound ground list price, each extra pound)
ZONE_PRICES: dict[int, tuple[Decimal, Decimal]] = {
    2: (Decimal("10.50"), Decimal("0.45")),
    3: (Decimal("11.20"), Decimal("0.60")),
    4: (Decimal("11.90"), Decimal("0.75")),
    5: (Decimal("12.60"), Decimal("0.95")),
    6: (Decimal("13.50"), Decimal("1.15")),
    7: (Decimal("14.30"), Decimal("1.35")),
    8: (Decimal("15.20"), Decimal("1.60")),
    9: (Decimal("24.00"), Decimal("2.40")),
}
GROUND_DAYS = {2: 1, 3: 2, 4: 2, 5: 3, 6: 4, 7: 4, 8: 5, 9: 7}

#: service -> (price multiplier on ground, transit days or None for ground by zone, fuel %)
SERVICES: dict[str, tuple[Decimal, int | None, Decimal]] = {
    "Ground": (Decimal("1.0"), None, Decimal("0.17")),
    "3 Day": (Decimal("1.6"), 3, Decimal("0.19")),
    "2 Day": (Decimal("2.1"), 2, Decimal("0.20")),
    "Overnight": (Decimal("3.2"), 1, Decimal("0.21")),
}


def _sides(item: Item) -> list[int]:
    return sorted((math.ceil(item.length), math.ceil(item.width), math.ceil(item.height)))


def parcel_sized(request: RateRequest) -> bool:
    """Whether every unit can travel as a parcel (150 lb, 108 in, 165 in length + girth)."""
    packages = sum(item.quantity for item in request.items)
    if packages > MAX_PACKAGES:
        return False
    for item in request.items:
        short, mid, longest = _sides(item)
        if item.weight > MAX_PACKAGE_LB or longest > MAX_LENGTH_IN:
            return False
        if longest + 2 * (short + mid) > MAX_LENGTH_PLUS_GIRTH_IN:
            return False
    return True


def zone_for(request: RateRequest) -> int:
    """Parcel zone from great-circle miles (9 for AK, HI, PR)."""
    if not (request.origin.contiguous and request.dest.contiguous):
        return 9
    miles = haversine_miles(
        request.origin.lat, request.origin.lon, request.dest.lat, request.dest.lon
    )
    for zone, limit in ((2, 150), (3, 300), (4, 600), (5, 1000), (6, 1400), (7, 1800)):
        if miles <= limit:
            return zone
    return 8


def billable_pounds(item: Item) -> int:
    """max(actual rounded up, dimensional weight) of one package."""
    short, mid, longest = _sides(item)
    dim = math.ceil(short * mid * longest / DIM_DIVISOR)
    return max(math.ceil(item.weight), dim)


def needs_additional_handling(item: Item) -> bool:
    """Longest side over 48 in, second side over 30 in, or over 50 lb."""
    _short, mid, longest = _sides(item)
    return longest > 48 or mid > 30 or item.weight > 50


def rate_parcel(carrier: Carrier, request: RateRequest, service: str) -> RateResult:
    """Price one parcel service (all packages of the request)."""
    name = carrier.name
    zone = zone_for(request)
    multiplier, fixed_days, fuel = SERVICES[service]
    if zone == 9 and service in ("Ground", "3 Day"):
        return unavailable(
            carrier.code, name, "parcel", service, "AK, HI and PR: 2 Day or Overnight only."
        )
    if request.origin.country != "US" or request.dest.country != "US":
        return unavailable(
            carrier.code, name, "parcel", service, f"{carrier.name} ships within the US only."
        )
    if request.accessorials:
        asked = ", ".join(request.accessorials)
        return unavailable(
            carrier.code, name, "parcel", service, f"Parcel service does not offer {asked}."
        )
    first, extra = ZONE_PRICES[zone]
    list_price = Decimal(0)
    handling = 0
    packages = 0
    for item in request.items:
        pounds = billable_pounds(item)
        list_price += (first + extra * (pounds - 1)) * multiplier * item.quantity
        packages += item.quantity
        if needs_additional_handling(item):
            handling += item.quantity
    gross = money(list_price)
    net = gross - money(gross * carrier.discount)
    charges = [
        Charge("linehaul", gross, f"Zone {zone}, {packages} package(s)"),
        Charge("discount", net - gross, f"{carrier.discount * 100:.0f}% off list"),
        Charge("fuel", money(net * fuel), f"Fuel {fuel * 100:.0f}%"),
    ]
    if handling:
        charges.append(
            Charge(
                "additional-handling",
                money(Decimal("38.00") * handling),
                f"{handling} package(s) over 50 lb or 48 in",
            )
        )
    if request.dest_type == "residential":
        charges.append(Charge("residential-delivery", Decimal("5.60"), "Residential delivery"))
    days = fixed_days if fixed_days is not None else GROUND_DAYS[zone]
    if zone == 9:
        days = max(days, 2)
    return RateResult(carrier.code, name, "parcel", service, days=days, charges=charges)
