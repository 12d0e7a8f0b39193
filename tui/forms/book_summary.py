"""What the booking confirmation lists so nothing is booked by surprise: extras, hazmat, refs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tui.api.models import ParcelBookingRequest
from tui.domain.accessorials import parse_accessorial
from tui.domain.hazmat import shipping_name_problem
from tui.domain.locations import LocationType
from tui.domain.pickup_dates import carrier_closure, holiday_name, region_of
from tui.forms.book_times import day_text, time_text

if TYPE_CHECKING:
    from datetime import date, time

    from tui.api.models import BookingRequest, RateItem, RateRequest


def accessorials(request: RateRequest) -> list[str]:
    """Every extra service the quote asked for: location types other than a dock, then charges."""
    found: list[str] = []
    for kind, end in ((request.origin_type, "pickup"), (request.dest_type, "delivery")):
        if kind != LocationType.BUSINESS_DOCK:
            found.append(f"{kind.label.lower()} {end}")
    for name in request.charges or []:
        known = parse_accessorial(name)
        label = known.label.lower() if known is not None else name
        if label not in found:
            found.append(label)
    return found


def hazmat_line(item: RateItem) -> str:
    """`UN1203 class 3 PG II · 2 × drum Gasoline` (what is known of one hazardous item)."""
    hazard = item.hazard
    parts = []
    if hazard is not None:
        if hazard.hazmat_id:
            parts.append(hazard.hazmat_id)
        if hazard.hazard_class:
            parts.append(f"class {hazard.hazard_class}")
        if hazard.packing_group:
            parts.append(f"PG {hazard.packing_group}")
    what = f"{item.quantity} × {item.package}" + (
        f" {item.description}" if item.description else ""
    )
    return " ".join(parts or ["hazardous"]) + f" · {what}"


def hazmat(request: RateRequest) -> list[str]:
    """One line per hazardous item of the quote."""
    return [
        hazmat_line(item)
        for item in request.items
        if item.hazardous or (item.hazard is not None and item.hazard.hazmat_id)
    ]


def hazmat_problems(request: RateRequest) -> list[str]:
    """Why the quote's hazardous items cannot be booked: one with no proper shipping name
    (its description) would go on the BOL as ``Drum freight``."""

    found: list[str] = []
    for number, item in enumerate(request.items, start=1):
        hazard = item.hazard
        if not (item.hazardous or (hazard is not None and hazard.hazmat_id)):
            continue
        un_number = hazard.hazmat_id if hazard is not None and hazard.hazmat_id else ""
        problem = shipping_name_problem(un_number, item.description or "")
        if problem is not None:
            found.append(f"item {number}: {problem}")
    return found


PARCEL_HAZMAT: Final = (
    "⚠ priced by a parcel carrier: parcel services carry hazardous freight only under their "
    "own dangerous-goods agreement; check it does, or choose an LTL rate"
)


def pickup_window(booking: BookingRequest | ParcelBookingRequest) -> str | None:
    """`08:00–16:00`: the pickup's ready–close window as sent (None when not given)."""
    return _hours(booking.origin_dock_hours_open, booking.origin_dock_hours_close)


def pickup_warning(request: RateRequest, day: date | None) -> str | None:
    """What to know of the chosen pickup day before booking: a holiday at the origin (the
    service will move it) or a day many carriers close (it may)."""
    if day is None:
        return None
    region = region_of(request.origin_postal_code)
    holiday = holiday_name(day, region)
    if holiday is not None:
        return f"{holiday}: carriers are closed, the service will move the pickup"
    closure = carrier_closure(day, region)
    if closure is not None:
        return f"{closure}: many carriers close, the pickup may move"
    return None


def _hours(opens: time | None, closes: time | None) -> str | None:
    if opens is None or closes is None:
        return None
    return f"{time_text(opens)}–{time_text(closes)}"


def confirm_rows(
    request: RateRequest,
    booking: BookingRequest | ParcelBookingRequest,
    schedule_pickup: bool | None,
) -> list[tuple[str, str]]:
    """(label, text) rows for the confirmation, after carrier, service, total and transit."""
    rows: list[tuple[str, str]] = []
    day = day_text(booking.pickup_date) if booking.pickup_date else "next business day"
    ready = pickup_window(booking)
    pickup = day + (f" {ready}" if ready else "")
    if schedule_pickup is not None:
        pickup += " · scheduled" if schedule_pickup else " · not scheduled"
    warning = pickup_warning(request, booking.pickup_date)
    if warning is not None:
        pickup += f"\n⚠ {warning}"
    rows.append(("Pickup", pickup))
    receiving = _hours(booking.dest_dock_hours_open, booking.dest_dock_hours_close)
    if receiving:
        rows.append(("Receiving", receiving))
    extras = accessorials(request)
    rows.append(("Extras", ", ".join(extras) if extras else "none"))
    lines = hazmat(request)
    if lines and _is_parcel(booking):
        lines.append(PARCEL_HAZMAT)
    rows.append(("Hazmat", "\n".join(lines) if lines else "none"))
    if lines:
        contact = " ".join(p for p in (request.emergency_name, request.emergency_phone) if p)
        rows.append(("Emergency", contact or "none given"))
    refs = [
        f"{label} {value}"
        for label, value in (
            ("yours", booking.reference),
            ("pickup PO", booking.origin_reference_number),
            ("delivery PO", booking.dest_reference_number),
        )
        if value
    ]
    if refs:
        rows.append(("References", " · ".join(refs)))
    return rows


def _is_parcel(booking: BookingRequest | ParcelBookingRequest) -> bool:

    return isinstance(booking, ParcelBookingRequest)
