"""Turn a valid quote form into the POST /rates body (imports pydantic: load it lazily)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from tui.api.models import Hazard, RateItem, RateRequest
from tui.domain.hazmat import parse_hazard_class, parse_nmfc, parse_packing_group, parse_un_number
from tui.domain.pickup_dates import parse_pickup_date, region_of
from tui.domain.postal import is_canadian
from tui.domain.quote_form import ItemDraft, QuoteDraft, complete_package
from tui.domain.validation import parse_positive_decimal, parse_quantity, parse_zip


def _item(item: ItemDraft) -> RateItem:
    freight_class: Decimal | None = item.effective_class()
    hazard: Hazard | None = None
    if item.hazardous:
        hazard = Hazard(
            hazmat_id=parse_un_number(item.hazmat_id),
            hazard_class=parse_hazard_class(item.hazard_class),
            packing_group=parse_packing_group(item.packing_group),
        )
    return RateItem(
        quantity=parse_quantity(item.quantity),
        package=complete_package(item.package) or item.package.strip(),
        weight=parse_positive_decimal(item.weight, "weight"),
        length=parse_positive_decimal(item.length, "length"),
        width=parse_positive_decimal(item.width, "width"),
        height=parse_positive_decimal(item.height, "height"),
        freight_class=freight_class,
        description=item.description.strip() or None,
        nmfc=parse_nmfc(item.nmfc),
        # Left out when stackable (the service's default); a do-not-stack unit says so.
        stackable=None if item.stackable else False,
        hazardous=True if item.hazardous else None,
        hazard=hazard,
    )


def build_rate_request(draft: QuoteDraft, today: date) -> RateRequest:
    """The request for a form without errors (call `draft.errors()` first); blank rows skipped.

    The class sent is the user's override when given, else the class the density implies, so
    the quote the user sees is the one the carrier prices. `today` is the date at the origin
    (a blank pickup date is the next business day after it). The PO / order number goes as the
    destination's reference, the shipper's reference as the origin's.
    """
    items = [_item(item) for _index, item in draft.filled_items()]
    hazardous = draft.is_hazardous
    origin, dest = parse_zip(draft.origin_zip), parse_zip(draft.dest_zip)
    return RateRequest(
        origin_postal_code=origin,
        dest_postal_code=dest,
        # A Canadian end says its country (the service's `CAN`); a US one is the default.
        origin_country="CA" if is_canadian(origin) else None,
        dest_country="CA" if is_canadian(dest) else None,
        origin_type=draft.origin_type,
        dest_type=draft.dest_type,
        items=items,
        pickup_date=parse_pickup_date(draft.pickup_date, today, region=region_of(draft.origin_zip)),
        charges=[str(accessorial) for accessorial in draft.accessorials] or None,
        origin_reference_number=draft.shipper_reference.strip() or None,
        dest_reference_number=draft.po_number.strip() or None,
        emergency_name=(draft.emergency_name.strip() or None) if hazardous else None,
        emergency_phone=(draft.emergency_phone.strip() or None) if hazardous else None,
    )
