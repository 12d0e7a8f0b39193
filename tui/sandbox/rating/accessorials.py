"""Accessorial charges: implied by location types and delivery areas, or asked for in ``charges``.

Each carrier prices them with its own factor and may decline one it does not offer; a decline
makes that carrier's rate ``unavailable`` with the reason.
"""

from __future__ import annotations

from decimal import Decimal

from tui.sandbox.geo import road_miles
from tui.sandbox.rating.carriers import Carrier
from tui.sandbox.rating.model import Charge, RateRequest, money
from tui.sandbox.vocabulary import ACCESSORIALS, LIMITED_ACCESS

#: ZIP3 prefixes of congested metro delivery areas (NYC boroughs, Manhattan, etc.).
METRO_ZIP3 = frozenset({"100", "101", "102", "103", "104", "111", "112", "113", "114", "116"})
#: Magnolia Gulf offers inside delivery only on lanes up to this many road miles
MGGC_INSIDE_MAX_MILES = 500

_BASE = {
    "liftgate": Decimal("95"),
    "residential": Decimal("110"),
    "limited-access": Decimal("125"),
    "trade-show": Decimal("250"),
    "appointment": Decimal("45"),
    "metro": Decimal("45"),
    "inside-delivery": Decimal("150"),
    "notify-before-delivery": Decimal("30"),
    "protect-from-freezing": Decimal("60"),
    "hazmat": Decimal("55"),
}
SORT_PER_CWT = Decimal("2.00")
SORT_MINIMUM = Decimal("60")
_TEXT = {
    "inside-delivery": "Inside delivery (beyond the threshold)",
    "notify-before-delivery": "Arrival notice: call before delivery",
    "appointment": "Arrival schedule: delivery appointment",
    "protect-from-freezing": "Protect from freezing",
    "hazmat": "Hazardous materials handling",
}


class Declined(Exception):
    """The carrier does not offer an accessorial the request asks for."""


def _amount(carrier: Carrier, key: str, liftgate: bool = False) -> Decimal:
    factor = carrier.accessorial_factor * (carrier.liftgate_factor if liftgate else 1)
    if key == "residential":
        factor = carrier.accessorial_factor * carrier.liftgate_factor
    return money(_BASE[key] * factor)


def _location_charges(carrier: Carrier, request: RateRequest, truckload: bool) -> list[Charge]:
    charges: list[Charge] = []
    for end, kind in (("pickup", request.origin_type), ("delivery", request.dest_type)):
        if kind in ("business no dock", "residential") and not truckload:
            charges.append(
                Charge(
                    f"liftgate-{end}",
                    _amount(carrier, "liftgate", liftgate=True),
                    f"Liftgate at {end} ({'residential' if kind == 'residential' else 'no dock'})",
                )
            )
        if kind == "residential":
            charges.append(
                Charge(f"residential-{end}", _amount(carrier, "residential"), f"Residential {end}")
            )
        elif kind in LIMITED_ACCESS:
            charges.append(
                Charge(
                    f"limited-access-{end}",
                    _amount(carrier, "limited-access"),
                    f"Limited-access {end} ({kind})",
                )
            )
        elif kind == "trade show":
            charges.append(
                Charge("trade-show", _amount(carrier, "trade-show"), f"Trade show {end}")
            )
        elif kind == "distribution center" and end == "delivery":
            charges.append(
                Charge("appointment", _amount(carrier, "appointment"), "Delivery appointment")
            )
    return charges


def _decline(carrier: Carrier, request: RateRequest, name: str, truckload: bool) -> str | None:
    """Why ``carrier`` does not offer accessorial ``name`` here, or None when it does."""
    label = name.replace("-", " ")
    if truckload and name in ("liftgate-pickup", "liftgate-delivery"):
        return f"{carrier.name} does not offer {label}: 53 ft trailers have no liftgate."
    if truckload and name in ("inside-delivery", "sort-and-segregate"):
        return f"{carrier.name} does not offer {label} on truckload: the driver stays in the cab."
    if name == "hazmat" and carrier.code == "HGFL":
        return f"{carrier.name} does not haul hazardous materials."
    if (
        name == "inside-delivery"
        and carrier.code == "MGGC"
        and road_miles(request.origin, request.dest) > MGGC_INSIDE_MAX_MILES
    ):
        return (
            f"{carrier.name} offers inside delivery only on lanes up to "
            f"{MGGC_INSIDE_MAX_MILES} miles."
        )
    return None


def freight_accessorials(
    carrier: Carrier, request: RateRequest, *, truckload: bool = False, service: str = ""
) -> list[Charge]:
    """LTL/truckload accessorial charges, one line each; raises Declined with the reason."""
    charges = _location_charges(carrier, request, truckload)
    have = {charge.name for charge in charges}
    for wanted in request.accessorials:
        name = ACCESSORIALS[wanted]
        reason = _decline(carrier, request, name, truckload)
        if reason is not None:
            raise Declined(reason)
        if name == "protect-from-freezing" and truckload and service != "Reefer":
            raise Declined(
                f"{service} trailers are not heated: ask for a Reefer to protect from freezing."
            )
        if name in have:
            continue  # already charged because of the location type
        if name in ("liftgate-pickup", "liftgate-delivery"):
            end = name.split("-")[1]
            amount = _amount(carrier, "liftgate", liftgate=True)
            charges.append(Charge(name, amount, f"Liftgate at {end} ({wanted})"))
        elif name == "sort-and-segregate":
            amount = max(request.total_weight / 100 * SORT_PER_CWT, SORT_MINIMUM)
            charges.append(
                Charge(
                    name,
                    money(amount * carrier.accessorial_factor),
                    f"Sort and segregate: ${SORT_PER_CWT}/cwt, minimum ${SORT_MINIMUM}",
                )
            )
        else:
            charges.append(Charge(name, _amount(carrier, name), _TEXT[name]))
        have.add(name)
    if request.dest.code[:3] in METRO_ZIP3:
        fee = Decimal("75.00") if carrier.code == "KAML" else _amount(carrier, "metro")
        charges.append(Charge("metro-delivery", fee, "Congested metro delivery area"))
    if request.origin.country != request.dest.country:
        charges.append(
            Charge("cross-border", money(Decimal(45) * carrier.accessorial_factor),
                   "Customs paperwork for a US-Canada move")
        )  # fmt: skip
    return charges
