"""Turn a valid quote form into the POST /rates body (imports pydantic: load it lazily)."""

from __future__ import annotations

from decimal import Decimal

from tui.api.models import RateItem, RateRequest
from tui.domain.quote_form import QuoteDraft, complete_package
from tui.domain.validation import parse_positive_decimal, parse_quantity, parse_zip


def build_rate_request(draft: QuoteDraft) -> RateRequest:
    """The request for a form without errors (call `draft.errors()` first); blank rows skipped.

    The class sent is the user's override when given, else the class the density implies, so
    the quote the user sees is the one the carrier prices.
    """
    items: list[RateItem] = []
    for _index, item in draft.filled_items():
        freight_class: Decimal | None = item.effective_class()
        items.append(
            RateItem(
                quantity=parse_quantity(item.quantity),
                package=complete_package(item.package) or item.package.strip(),
                weight=parse_positive_decimal(item.weight, "weight"),
                length=parse_positive_decimal(item.length, "length"),
                width=parse_positive_decimal(item.width, "width"),
                height=parse_positive_decimal(item.height, "height"),
                freight_class=freight_class,
                description=item.description.strip() or None,
            )
        )
    return RateRequest(
        origin_postal_code=parse_zip(draft.origin_zip),
        dest_postal_code=parse_zip(draft.dest_zip),
        origin_type=draft.origin_type,
        dest_type=draft.dest_type,
        items=items,
    )
