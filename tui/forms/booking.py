"""The booking form's data: prefill, draft matching, request building, server field names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.api.models import BookingRequest, ParcelBookingRequest, Quote, Rate, RateRequest
    from tui.config.settings import Location

DRAFT_NAME = "booking"

WIRE_FIELDS: dict[str, tuple[str, str]] = {
    "originCompany": ("origin", "company"),
    "originAddress": ("origin", "address"),
    "originContactName": ("origin", "contact"),
    "originContactPhone": ("origin", "phone"),
    "originContactEmail": ("origin", "email"),
    "originDockHoursOpen": ("origin", "hours"),
    "originDockHoursClose": ("origin", "hours"),
    "destCompany": ("dest", "company"),
    "destAddress": ("dest", "address"),
    "destContactName": ("dest", "contact"),
    "destContactPhone": ("dest", "phone"),
    "destContactEmail": ("dest", "email"),
}
"""Request field (wire name) → (form end, field) for errors the service or the model report."""


def lane(request: RateRequest) -> str:
    """`60601>30303`: the draft is only offered again for the same origin and destination."""
    return f"{request.origin_postal_code}>{request.dest_postal_code}"


def location_values(location: Location, *, dock_hours: bool) -> dict[str, str]:
    """Form values from an address book entry."""
    street = ", ".join(part for part in (location.address, location.address2) if part)
    values = {
        "company": location.company,
        "address": street,
        "contact": location.contact_name,
        "phone": location.phone,
        "email": location.email,
    }
    if dock_hours:
        values["dock_open"] = location.dock_open or ""
        values["dock_close"] = location.dock_close or ""
    return values


def location_from_values(values: Mapping[str, str], postal_code: str) -> Location:
    """An address book entry from one end of the form (labelled by its company)."""
    from tui.config.settings import Location

    company = values["company"].strip()
    return Location(
        label=company,
        company=company,
        address=values["address"].strip(),
        postal_code=postal_code,
        contact_name=values["contact"].strip(),
        phone=values["phone"].strip(),
        email=values.get("email", "").strip(),
        dock_open=values.get("dock_open", "").strip() or None,
        dock_close=values.get("dock_close", "").strip() or None,
    )


def find_location(
    entries: Sequence[Location], postal_code: str, preferred: Location | None = None
) -> Location | None:
    """The preferred location when it is at this postal code, else the only entry there."""
    if preferred is not None and preferred.postal_code == postal_code:
        return preferred
    matches = [entry for entry in entries if entry.postal_code == postal_code]
    return matches[0] if len(matches) == 1 else None


def draft_data(
    quote: Quote,
    rate: Rate,
    request: RateRequest,
    origin: Mapping[str, str],
    dest: Mapping[str, str],
    schedule_pickup: bool,
) -> dict[str, Any]:
    """What the draft file holds: the form, and which quote, rate and lane it was typed for."""
    return {
        "quote_id": quote.id,
        "rate_id": rate.id,
        "lane": lane(request),
        "origin": dict(origin),
        "dest": dict(dest),
        "schedule_pickup": schedule_pickup,
    }


def draft_fits(draft: Mapping[str, Any], quote: Quote, rate: Rate, request: RateRequest) -> str:
    """`same` (this quote and rate), `lane` (same origin and destination), or `other`."""
    if draft.get("quote_id") == quote.id and draft.get("rate_id") == rate.id:
        return "same"
    if draft.get("lane") == lane(request):
        return "lane"
    return "other"


def _blank_none(value: str) -> str | None:
    value = value.strip()
    return value or None


def booking_request(
    quote: Quote,
    rate: Rate,
    origin: Mapping[str, str],
    dest: Mapping[str, str],
    schedule_pickup: bool,
) -> BookingRequest:
    """POST /book body (LTL, truckload); raises RequestValidationError."""
    from tui.api.models import BookingRequest

    return BookingRequest.build(
        {
            "id": quote.id,
            "rateId": rate.id,
            "schedulePickup": schedule_pickup,
            "originCompany": origin["company"].strip(),
            "originAddress": origin["address"].strip(),
            "originContactName": _blank_none(origin["contact"]),
            "originContactPhone": _blank_none(origin["phone"]),
            "originDockHoursOpen": _blank_none(origin.get("dock_open", "")),
            "originDockHoursClose": _blank_none(origin.get("dock_close", "")),
            "destCompany": dest["company"].strip(),
            "destAddress": dest["address"].strip(),
            "destContactName": _blank_none(dest["contact"]),
            "destContactPhone": _blank_none(dest["phone"]),
        }
    )


def parcel_request(
    quote: Quote, rate: Rate, origin: Mapping[str, str], dest: Mapping[str, str]
) -> ParcelBookingRequest:
    """POST /book/parcel body; raises RequestValidationError."""
    from tui.api.models import ParcelBookingRequest

    return ParcelBookingRequest.build(
        {
            "id": quote.id,
            "rateId": rate.id,
            "originCompany": _blank_none(origin["company"]),
            "originAddress": _blank_none(origin["address"]),
            "originContactName": _blank_none(origin["contact"]),
            "originContactPhone": _blank_none(origin["phone"]),
            "originContactEmail": _blank_none(origin.get("email", "")),
            "destCompany": _blank_none(dest["company"]),
            "destAddress": _blank_none(dest["address"]),
            "destContactName": _blank_none(dest["contact"]),
            "destContactPhone": _blank_none(dest["phone"]),
            "destContactEmail": _blank_none(dest.get("email", "")),
        }
    )


def field_errors(fields: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """Split reported field errors into origin and destination form errors, and the rest."""
    origin: dict[str, str] = {}
    dest: dict[str, str] = {}
    other: list[str] = []
    for path, message in fields.items():
        key = path.split(".")[-1]
        target = WIRE_FIELDS.get(key) or WIRE_FIELDS.get(_camel(key))
        if target is None:
            other.append(f"{path or 'request'}: {message}")
        elif target[0] == "origin":
            origin.setdefault(target[1], message)
        else:
            dest.setdefault(target[1], message)
    return origin, dest, other


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
