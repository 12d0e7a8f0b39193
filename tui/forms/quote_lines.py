"""The quote form's lines of text under its fields: where each ZIP is, the pickup day, the
accessorials chosen, and the one message (the error at hand, else a hint)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from tui.domain.accessorials import missing_liftgates
from tui.domain.locations import LOCATION_TYPES_SHORT
from tui.domain.pickup_dates import (
    calendar_loaded,
    next_business_day,
    parse_pickup_date,
    region_of,
    short_date,
)
from tui.domain.postal import province_of
from tui.domain.quote_form import FieldError, QuoteDraft, class_hint
from tui.forms import zip_places

if TYPE_CHECKING:
    from tui.ledger import BookingRecord


def place_of(code: str) -> str:
    """The town of a ZIP (the province of a Canadian code); `…` for none typed, `unknown
    ZIP`, or the code until the data is in."""
    if not code.strip():
        return "…"
    province = province_of(code)
    if province is not None:
        return f"{province.name}, Canada"
    found = zip_places.place(code)
    if found is not None:
        return found.name
    return "unknown ZIP" if zip_places.is_unknown(code) else code.strip()


def places_line(draft: QuoteDraft) -> str:
    return f"{place_of(draft.origin_zip)} → {place_of(draft.dest_zip)}"


def pickup_day(draft: QuoteDraft, today: date) -> tuple[str, str | None]:
    """The typed pickup day as a short date ("" if it is not one) and the placeholder of a
    blank field (the next business day), None until the holidays are known."""
    # Blank is the next business day: known once the holidays are loaded (after the frame).
    if not (draft.pickup_date.strip() or calendar_loaded()):
        return "", None
    region = region_of(draft.origin_zip)
    text = ""
    with suppress(ValueError):
        text = short_date(parse_pickup_date(draft.pickup_date, today, region=region))
    return text, next_business_day(today, region).isoformat()


def liftgate_warning(draft: QuoteDraft) -> str:
    """What to say of an end whose location type usually needs a liftgate the user turned
    off (`No dock delivery without liftgate`); "" when none."""
    missing = missing_liftgates(draft.origin_type, draft.dest_type, draft.accessorials)
    return "; ".join(
        f"{LOCATION_TYPES_SHORT.get(kind, kind)} {liftgate.end} without liftgate"
        for liftgate, kind in missing
    )


def extras_line(draft: QuoteDraft) -> str:
    """The accessorials chosen, and a warning for an end that needs a liftgate not chosen."""
    chosen = ", ".join(a.short for a in draft.accessorials) or "none"
    warning = liftgate_warning(draft)
    if warning:
        return f"Extras: {chosen} · ⚠ {warning} · ctrl+l"
    return f"Extras: {chosen} · ctrl+l to change"


class Message(NamedTuple):
    text: str
    error: bool


def form_message(
    draft: QuoteDraft,
    errors: Sequence[FieldError],
    shown: set[str],
    focused_field: str | None,
    row: int | None,
) -> Message:
    """The focused field's shown error, else the first shown one (with how many more); with
    none, the hint for the current item `row`, else what to press."""
    visible = [e for e in errors if e.field in shown]
    here = next((e for e in visible if e.field == focused_field), None)
    error = here or (visible[0] if visible else None)
    if error is not None:
        more = len(visible) - 1
        suffix = f"  (+{more} more, ctrl+r)" if more else ""
        return Message(f"{error.label}: {error.message}{suffix}", error=True)
    if row is not None and row < len(draft.items):
        return Message(class_hint(row, draft.items[row]), error=False)
    if errors:
        return Message("ctrl+r get rates · ctrl+a address book · F1 help", error=False)
    return Message("Ready: ctrl+r (F9) gets rates", error=False)


def booked_text(reference: str, record: BookingRecord | None) -> str:
    """What the quote form says of a restored draft already booked: its PRO (else its
    shipment, else the ledger's reference), carrier and pickup day as the store knows them."""
    if record is None:
        what = f"reference {reference}"
    elif record.pro_number:
        what = f"PRO {record.pro_number}"
    elif record.shipment_id:
        what = f"shipment {record.shipment_id}"
    else:
        what = f"reference {reference}"
    lane = record.lane if record is not None else None
    carrier = f" with {lane.carrier}" if lane is not None and lane.carrier else ""
    day = record.pickup_date if record is not None else None
    when = f", pickup {day}" if day else ""
    return f"This quote was booked as {what}{carrier}{when}. Book it again only on purpose."
