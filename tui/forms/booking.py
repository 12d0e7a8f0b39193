"""The booking form's data: prefill, draft matching, request building, server field names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from tui.api.models import BookingRequest, ParcelBookingRequest
from tui.booking import Lane
from tui.config.settings import Location
from tui.domain.accessorials import liftgate_for, parse_accessorials
from tui.domain.locations import parse_location_type
from tui.domain.postal import same_postal_code
from tui.forms.book_times import parse_time_of_day, time_text, window
from tui.ledger import Offer, priced

if TYPE_CHECKING:
    from tui.api.models import BookingRequest, ParcelBookingRequest, Quote, Rate, RateRequest
    from tui.config.settings import Location
    from tui.ledger import Priced

DRAFT_NAME = "booking"

WIRE_FIELDS: dict[str, tuple[str, str]] = {
    "originCompany": ("origin", "company"),
    "originAddress": ("origin", "address"),
    "originContactName": ("origin", "contact"),
    "originContactPhone": ("origin", "phone"),
    "originContactEmail": ("origin", "email"),
    "originDockHoursOpen": ("origin", "hours"),
    "originDockHoursClose": ("origin", "hours"),
    "originReferenceNumber": ("origin", "reference"),
    "originInstructions": ("origin", "instructions"),
    "destCompany": ("dest", "company"),
    "destAddress": ("dest", "address"),
    "destContactName": ("dest", "contact"),
    "destContactPhone": ("dest", "phone"),
    "destContactEmail": ("dest", "email"),
    "destDockHoursOpen": ("dest", "hours"),
    "destDockHoursClose": ("dest", "hours"),
    "destReferenceNumber": ("dest", "reference"),
    "destInstructions": ("dest", "instructions"),
    "pickupDate": ("pickup", "date"),
    "reference": ("pickup", "reference"),
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


def _hhmm(text: str) -> str | None:
    """A typed time as the address book keeps it (`09:00`), or None when blank."""
    text = text.strip()
    return time_text(parse_time_of_day(text)) if text else None


def location_from_values(values: Mapping[str, str], postal_code: str) -> Location:
    """An address book entry from one end of the form (labelled by its company)."""

    company = values["company"].strip()
    return Location(
        label=company,
        company=company,
        address=values["address"].strip(),
        postal_code=postal_code,
        contact_name=values["contact"].strip(),
        phone=values["phone"].strip(),
        email=values.get("email", "").strip(),
        dock_open=_hhmm(values.get("dock_open", "")),
        dock_close=_hhmm(values.get("dock_close", "")),
    )


def shown_fields(typed: Location, old: Location, values: Mapping[str, str]) -> dict[str, Any]:
    """The fields of `typed` the form shows, to update `old` with (the rest of `old` is kept)."""
    names = ["company", "contact_name", "phone"]
    if "email" in values:
        names.append("email")
    if "dock_open" in values:
        names += ["dock_open", "dock_close"]
    street = ", ".join(part for part in (old.address, old.address2) if part)
    if typed.address != street:  # the form shows both street lines as one
        names += ["address", "address2"]
    update = {name: getattr(typed, name) for name in names}
    if "address2" in update:
        update["address2"] = ""
    return update


def request_values(request: RateRequest, side: str) -> dict[str, str]:
    """What the quote already says of one end (`origin` or `dest`): blanks left out.

    The quote's origin reference is the shipper's own reference (its `Ref`), which goes in
    the booking's reference field (`quoted_reference`), not in the origin's PO / order."""
    values = {
        "company": getattr(request, f"{side}_company"),
        "address": ", ".join(
            part
            for part in (getattr(request, f"{side}_address"), getattr(request, f"{side}_address2"))
            if part
        ),
        "contact": getattr(request, f"{side}_contact_name"),
        "phone": getattr(request, f"{side}_contact_phone"),
        "email": getattr(request, f"{side}_contact_email"),
        "reference": request.dest_reference_number if side == "dest" else None,
        "instructions": getattr(request, f"{side}_instructions"),
    }
    opens = getattr(request, f"{side}_dock_hours_open")
    closes = getattr(request, f"{side}_dock_hours_close")
    if opens is not None and closes is not None:
        values["dock_open"], values["dock_close"] = time_text(opens), time_text(closes)
    return {name: value for name, value in values.items() if value}


def quoted_reference(request: RateRequest) -> str | None:
    """The shipper's reference the quote carried (its `Ref`, sent as `originReferenceNumber`),
    for the booking's own reference field."""
    return request.origin_reference_number or None


def find_location(
    entries: Sequence[Location], postal_code: str, preferred: Location | None = None
) -> Location | None:
    """The preferred location when it is at this postal code, else the only entry there
    (`m5v2t6` in the address book is the quote's `M5V 2T6`)."""
    if preferred is not None and same_postal_code(preferred.postal_code, postal_code):
        return preferred
    matches = [entry for entry in entries if same_postal_code(entry.postal_code, postal_code)]
    return matches[0] if len(matches) == 1 else None


def draft_data(
    quote: Quote,
    rate: Rate,
    request: RateRequest,
    origin: Mapping[str, str],
    dest: Mapping[str, str],
    pickup: Mapping[str, Any],
) -> dict[str, Any]:
    """What the draft file holds: the form, and which quote, rate and lane it was typed for."""
    return {
        "quote_id": quote.id,
        "rate_id": rate.id,
        "lane": lane(request),
        "origin": dict(origin),
        "dest": dict(dest),
        "pickup": dict(pickup),
        "schedule_pickup": bool(pickup.get("schedule", False)),
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


def _end_fields(prefix: str, values: Mapping[str, str]) -> dict[str, Any]:
    """One end's optional booking fields: references, instructions, dock hours (typed)."""
    opens, closes = window(values.get("dock_open", ""), values.get("dock_close", ""))
    return {
        f"{prefix}ReferenceNumber": _blank_none(values.get("reference", "")),
        f"{prefix}Instructions": _blank_none(values.get("instructions", "")),
        f"{prefix}DockHoursOpen": opens,
        f"{prefix}DockHoursClose": closes,
    }


def booking_request(
    quote: Quote,
    rate: Rate,
    origin: Mapping[str, str],
    dest: Mapping[str, str],
    schedule_pickup: bool,
    pickup_date: date | None = None,
    reference: str = "",
) -> BookingRequest:
    """POST /book body (LTL, truckload); times and dates typed; raises RequestValidationError.

    The times must already be checked (`book_times.check_window`): a bad one raises ValueError.
    """

    return BookingRequest.build(
        {
            "id": quote.id,
            "rateId": rate.id,
            "schedulePickup": schedule_pickup,
            "pickupDate": pickup_date,
            "reference": _blank_none(reference),
            "originCompany": origin["company"].strip(),
            "originAddress": origin["address"].strip(),
            "originContactName": _blank_none(origin["contact"]),
            "originContactPhone": _blank_none(origin["phone"]),
            **_end_fields("origin", origin),
            "destCompany": dest["company"].strip(),
            "destAddress": dest["address"].strip(),
            "destContactName": _blank_none(dest["contact"]),
            "destContactPhone": _blank_none(dest["phone"]),
            **_end_fields("dest", dest),
        }
    )


def _parcel_end(prefix: str, end: Mapping[str, str]) -> dict[str, str | None]:
    """One end of a parcel booking (``origin`` or ``dest``): blank parts are left unsaid; the
    last three may be missing from the form."""
    parts = {
        "Company": "company",
        "Address": "address",
        "ContactName": "contact",
        "ContactPhone": "phone",
    }
    extras = {
        "ContactEmail": "email",
        "ReferenceNumber": "reference",
        "Instructions": "instructions",
    }
    return {f"{prefix}{part}": _blank_none(end[key]) for part, key in parts.items()} | {
        f"{prefix}{part}": _blank_none(end.get(key, "")) for part, key in extras.items()
    }


def parcel_request(
    quote: Quote,
    rate: Rate,
    origin: Mapping[str, str],
    dest: Mapping[str, str],
    pickup_date: date | None = None,
    reference: str = "",
) -> ParcelBookingRequest:
    """POST /book/parcel body; raises RequestValidationError."""

    return ParcelBookingRequest.build(
        {
            "id": quote.id,
            "rateId": rate.id,
            "pickupDate": pickup_date,
            "reference": _blank_none(reference),
            **_parcel_end("origin", origin),
            **_parcel_end("dest", dest),
        }
    )


FieldErrors = dict[str, dict[str, str]]


def field_errors(fields: Mapping[str, str]) -> tuple[FieldErrors, list[str]]:
    """Reported field errors by form section (`origin`, `dest`, `pickup`), and the rest."""
    found: FieldErrors = {"origin": {}, "dest": {}, "pickup": {}}
    other: list[str] = []
    for path, message in fields.items():
        key = path.split(".")[-1]
        target = WIRE_FIELDS.get(key) or WIRE_FIELDS.get(_camel(key))
        if target is None:
            other.append(f"{path or 'request'}: {message}")
        else:
            found[target[0]].setdefault(target[1], message)
    return found, other


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def booking_lane(
    quoted: RateRequest, rate: Rate, request: BookingRequest | ParcelBookingRequest
) -> Lane:
    """Where a booking goes and with whom (to know its shipment in a listing)."""

    return Lane(
        quoted.origin_postal_code,
        quoted.dest_postal_code,
        rate.carrier or None,
        rate.carrier_code,
        request.pickup_date or quoted.pickup_date,
    )


def booking_priced(quote: Quote, rate: Rate, quoted: RateRequest) -> Priced:
    """What the booking is priced at, for the reports: the rate booked, the quote's bookable
    offers it was chosen from (as the rates table showed them) and the quoted pounds."""

    def offer(one: Rate) -> Offer:
        return Offer(one.id, one.carrier, one.carrier_code, one.total, one.currency, one.days)

    pounds = sum((item.weight * item.quantity for item in quoted.items), Decimal(0))
    return priced(offer(rate), [offer(r) for r in quote.rates if r.is_ok], pounds or None)


def type_note(request: RateRequest, side: str, entry: Location) -> str | None:
    """What to say when an address book entry put at one end is of another location type
    than the rate was quoted for (a "No dock" consignee on a rate for a dock); None if not."""
    quoted = parse_location_type(request.origin_type if side == "origin" else request.dest_type)
    kind = parse_location_type(entry.location_type)
    if kind == quoted:
        return None
    end = "pickup" if side == "origin" else "delivery"
    liftgate = liftgate_for("pickup" if side == "origin" else "delivery", kind)
    lacking = liftgate is not None and liftgate not in parse_accessorials(request.charges or [])
    name = entry.label or entry.company or entry.postal_code
    return (
        f"⚠ {name} is {kind.label.lower()}; the rate is for {quoted.label.lower()} at {end}"
        f"{' with no liftgate' if lacking else ''}: quote again with its type."
    )
