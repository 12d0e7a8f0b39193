"""Ask every active carrier for every service it offers on a request."""

from __future__ import annotations

from decimal import Decimal

from tui.sandbox.rating import ltl, parcel, truckload
from tui.sandbox.rating.carriers import Carrier
from tui.sandbox.rating.model import RateRequest, RateResult, seeded_random, unavailable


def rate_all(
    request: RateRequest, carriers: tuple[Carrier, ...], diesel: Decimal, day: str
) -> list[RateResult]:
    """Return every offer (ok ones cheapest first, then the unavailable ones)."""
    results: list[RateResult] = []
    small = parcel.parcel_sized(request)
    heavy = truckload.wants_truckload(request)
    for carrier in carriers:
        if carrier.mode == "ltl":
            for service in ltl.services_of(carrier):
                results.append(ltl.rate_ltl(carrier, request, diesel, service))
            if carrier.chaos and small:
                results.append(parcel.rate_parcel(carrier, request, "Ground"))
        elif carrier.mode == "parcel" and small:
            for service in parcel.SERVICES:
                results.append(parcel.rate_parcel(carrier, request, service))
        elif carrier.mode == "truckload" and heavy:
            for service in truckload.SERVICES[carrier.code]:
                results.append(truckload.rate_truckload(carrier, request, diesel, service, day))
    results = [_chaos(r, request, day) if r.carrier_code == "QWDL" else r for r in results]
    ok = sorted((r for r in results if r.status == "ok"), key=lambda r: (r.total, r.days or 0))
    return ok + [r for r in results if r.status != "ok"]


def _chaos(result: RateResult, request: RateRequest, day: str) -> RateResult:
    """The chaos carrier sometimes does not answer in time."""
    if result.status == "ok" and seeded_random("qwdl", request.canonical(), day).random() < 0.3:
        return unavailable(
            result.carrier_code,
            result.carrier_name,
            result.mode,
            result.service_type,
            "Carrier did not answer in time (timeout after 8 s).",
        )
    return result
