"""LTL pricing: class tariff by weight break, deficit weight, discount, AMC, fuel, transit."""

from __future__ import annotations

import math
from decimal import Decimal

from tui.sandbox.geo import road_miles
from tui.sandbox.rating.accessorials import Declined, freight_accessorials
from tui.sandbox.rating.carriers import Carrier
from tui.sandbox.rating.model import Charge, RateRequest, RateResult, money, unavailable
from tui.sandbox.vocabulary import LIMITED_ACCESS

#: (lowest weight of the break in lb, factor on the class-100 <500 lb rate)
WEIGHT_BREAKS: tuple[tuple[Decimal, Decimal], ...] = tuple(
    (Decimal(low), Decimal(factor))
    for low, factor in (
        ("0", "1.00"), ("500", "0.84"), ("1000", "0.68"), ("2000", "0.55"),
        ("5000", "0.42"), ("10000", "0.32"), ("20000", "0.27"),
    )
)  # fmt: skip

MAX_LTL_WEIGHT = Decimal("20000")


def class_factor(freight_class: Decimal) -> Decimal:
    """Return ``(class/100) ** 0.85`` to 4 places (class 100 = 1)."""
    return Decimal(str(round((float(freight_class) / 100) ** 0.85, 4)))


def fuel_pct(diesel: Decimal, carrier: Carrier) -> Decimal:
    """LTL fuel surcharge as a fraction of net linehaul."""
    pct = Decimal("0.25") + Decimal("0.08") * (diesel - Decimal("3.00")) + carrier.fsc_offset
    return min(max(pct, Decimal(0)), Decimal("0.60")).quantize(Decimal("0.0001"))


def transit_days(miles: float, carrier: Carrier, request: RateRequest) -> int:
    """Business days in transit for this carrier on this lane."""
    days = 1 + math.ceil(max(0.0, miles - 300) / 450)
    days = min(days, 7)
    if carrier.code == "HGFL" and miles > 1000:
        days += 2
    else:
        days += carrier.transit_adjust
    if carrier.code == "MGGC" and miles <= 400:
        days = 1
    if carrier.code == "LKIF" and miles <= 300:
        days = 1
    if request.dest_type == "residential" or request.dest_type in LIMITED_ACCESS:
        days += 1
    return max(1, days)


def _class_adjust(carrier: Carrier, freight_class: Decimal) -> Decimal:
    if carrier.code == "LKIF":
        if freight_class <= 70:
            return Decimal("0.90")
        if freight_class >= 150:
            return Decimal("1.15")
    return Decimal(1)


def gross_linehaul(
    carrier: Carrier, request: RateRequest, miles: float, level: Decimal = Decimal(1)
) -> Decimal:
    """Tariff charge before discount: the cheapest of the own break and any heavier break."""
    base = (Decimal(60) + Decimal("0.10") * Decimal(str(round(miles, 1)))) * (
        carrier.tariff_level * level
    )
    lines = [(item.line_weight, item.rated_class) for item in request.items]
    weight = sum((w for w, _ in lines), Decimal(0))
    lowest_class = min(c for _, c in lines)
    best: Decimal | None = None
    for low, factor in WEIGHT_BREAKS:
        if low > MAX_LTL_WEIGHT:
            break
        per_cwt = base * factor
        cost = sum(
            (w / 100 * per_cwt * class_factor(c) * _class_adjust(carrier, c) for w, c in lines),
            Decimal(0),
        )
        if low > weight:
            deficit = low - weight
            cost += (
                deficit
                / 100
                * per_cwt
                * class_factor(lowest_class)
                * _class_adjust(carrier, lowest_class)
            )
        if best is None or cost < best:
            best = cost
    assert best is not None
    return best


def rate_ltl(
    carrier: Carrier, request: RateRequest, diesel: Decimal, service: str = "Standard"
) -> RateResult:
    """Price one LTL service of ``carrier`` (or say why it cannot)."""
    name = carrier.name
    origin, dest = request.origin, request.dest
    if not (origin.contiguous and dest.contiguous):
        return unavailable(
            carrier.code,
            name,
            "ltl",
            service,
            "No direct LTL service to or from AK, HI, PR or the northern territories.",
        )
    if request.origin.country != request.dest.country and not carrier.cross_border:
        return unavailable(
            carrier.code, name, "ltl", service, f"{carrier.name} has no US-Canada service."
        )
    if not (origin.freight_ok and dest.freight_ok):
        return unavailable(
            carrier.code, name, "ltl", service, "Freight cannot move to or from a PO Box ZIP."
        )
    if not (carrier.serves(origin.state) and carrier.serves(dest.state)):
        return unavailable(
            carrier.code,
            name,
            "ltl",
            service,
            f"No direct service between {origin.state} and {dest.state}: "
            f"{carrier.name} serves {carrier.region_name}.",
        )
    if request.total_weight > MAX_LTL_WEIGHT:
        return unavailable(
            carrier.code,
            name,
            "ltl",
            service,
            "Over 20,000 lb: ask for a volume or truckload quote.",
        )
    miles = road_miles(origin, dest)
    level, label = Decimal(1), None
    if service == "Guaranteed 5 PM":
        level, label = Decimal("1.25"), "guaranteed by 5 PM"
    elif service == "Guaranteed Noon":
        level, label = Decimal("1.45"), "guaranteed by noon"
    gross = money(gross_linehaul(carrier, request, miles, level))
    discounted = money(gross * (1 - carrier.discount))
    net = max(discounted, money(carrier.amc))
    discount_text = (
        f"Absolute minimum charge ${carrier.amc} applies"
        if net > discounted
        else f"{carrier.discount * 100:.0f}% off tariff"
    )
    pct = fuel_pct(diesel, carrier)
    try:
        extras = freight_accessorials(carrier, request)
    except Declined as declined:
        return unavailable(carrier.code, name, "ltl", service, str(declined))
    if net >= gross:
        gross, discount_text = net, f"Absolute minimum charge ${carrier.amc}, no discount"
    charges = [
        Charge(
            "linehaul",
            gross,
            f"{miles:,.0f} mi, {request.total_weight.normalize():f} lb"
            + (f", {label}" if label else ""),
        ),
        Charge("discount", net - gross, discount_text),
        Charge("fuel", money(net * pct), f"DOE ${diesel:.3f} -> FSC {pct * 100:.1f}%"),
        *extras,
    ]
    days = transit_days(miles, carrier, request)
    if request.origin.country != request.dest.country:
        days += 2  # customs clearance at the border
    if label is not None:
        days = max(1, days)
    return RateResult(carrier.code, name, "ltl", service, days=days, charges=charges)


def services_of(carrier: Carrier) -> tuple[str, ...]:
    """The LTL service levels a carrier quotes."""
    if carrier.code == "BCXP":
        return ("Standard", "Guaranteed 5 PM", "Guaranteed Noon")
    if carrier.code == "HGFL":
        return ("Economy",)
    return ("Standard",)
