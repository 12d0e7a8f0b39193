"""A batch's orders as records: the JSON objects the CLI writes, one per order.

Each object has exactly these keys (the one vocabulary of Freight's JSON output): ``order``,
``status``, ``errors``, ``carrier``, ``service``, ``transitDays``, ``total``, ``currency``,
``pickupDate``, ``proNumber``, ``bolNumber``, ``trackingNumbers``, ``pickupConfirmation``,
``reference``. Unknown values are null; ``total`` is the exact amount in ``currency``.
"""

from __future__ import annotations

from typing import Any, Final

from tui.batch.model import Order, OrderState

RECORD_KEYS: Final = (
    "order", "status", "errors", "carrier", "service", "transitDays", "total", "currency",
    "pickupDate", "proNumber", "bolNumber", "trackingNumbers", "pickupConfirmation", "reference",
)  # fmt: skip


def order_record(order: Order | None, state: OrderState) -> dict[str, Any]:
    """One order as the JSON output writes it (text from the server kept as text)."""
    from tui.batch.engine import OUTPUT_STATUS

    choice = state.choice
    errors = state.errors or (order.errors if order is not None else ())
    return {
        "order": state.key,
        "status": OUTPUT_STATUS[state.status],
        "errors": [error.to_json() for error in errors],
        "carrier": choice.carrier if choice else None,
        "service": (choice.service or None) if choice else None,
        "transitDays": choice.days if choice else None,
        "total": choice.total if choice else None,
        "currency": choice.currency if choice else None,
        "pickupDate": state.pickup_date or None,
        "proNumber": state.pro_number or None,
        "bolNumber": state.bol_number or None,
        "trackingNumbers": list(state.tracking_numbers),
        "pickupConfirmation": state.pickup_confirmation or None,
        "reference": state.reference or None,
    }
