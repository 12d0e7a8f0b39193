"""Accessorial charges implied by location types and delivery areas."""

from __future__ import annotations

from decimal import Decimal

from tui.sandbox.geo import Zip
from tui.sandbox.rating.carriers import Carrier
from tui.sandbox.rating.model import Charge, money

#: ZIP3 prefixes of congested metro delivery areas (NYC boroughs, Manhattan, etc.).
METRO_ZIP3 = frozenset({"100", "101", "102", "103", "104", "111", "112", "113", "114", "116"})

_BASE = {
    "liftgate": Decimal("95"),
    "residential": Decimal("110"),
    "limited-access": Decimal("125"),
    "trade-show": Decimal("250"),
    "appointment": Decimal("45"),
    "metro": Decimal("45"),
}


def _amount(carrier: Carrier, key: str, liftgate: bool = False) -> Decimal:
    factor = carrier.accessorial_factor * (carrier.liftgate_factor if liftgate else 1)
    if key == "residential":
        factor = carrier.accessorial_factor * carrier.liftgate_factor
    return money(_BASE[key] * factor)


def freight_accessorials(
    carrier: Carrier, origin_type: str, dest_type: str, dest: Zip, *, truckload: bool = False
) -> list[Charge]:
    """Return LTL/truckload accessorials for the pickup and delivery location types."""
    charges: list[Charge] = []
    for end, kind in (("pickup", origin_type), ("delivery", dest_type)):
        if kind in ("business-no-dock", "residential") and not truckload:
            charges.append(
                Charge(
                    f"liftgate-{end}",
                    _amount(carrier, "liftgate", liftgate=True),
                    f"Liftgate at {end} (no dock)",
                )
            )
        if kind == "residential":
            charges.append(
                Charge(f"residential-{end}", _amount(carrier, "residential"), f"Residential {end}")
            )
        elif kind == "limited-access":
            charges.append(
                Charge(
                    f"limited-access-{end}",
                    _amount(carrier, "limited-access"),
                    f"Limited-access {end}",
                )
            )
        elif kind == "trade-show":
            charges.append(
                Charge("trade-show", _amount(carrier, "trade-show"), f"Trade show {end}")
            )
        elif kind == "distribution-center" and end == "delivery":
            charges.append(
                Charge("appointment", _amount(carrier, "appointment"), "Delivery appointment")
            )
    if dest.code[:3] in METRO_ZIP3:
        fee = Decimal("75.00") if carrier.code == "KAML" else _amount(carrier, "metro")
        charges.append(Charge("metro-delivery", fee, "Congested metro delivery area"))
    return charges
