"""Scanned or typed codes (PRO, tracking number, BOL, id) matched against shipments."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.listing.rows import ShipmentRow


def normalize_code(text: str) -> str:
    """Compare codes without case, spaces or dashes (`4415-227893-5` = `4415 2278935`)."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def looks_like_code(text: str) -> bool:
    """A PRO, tracking number or BOL: one word of 5+ characters with a digit in it."""
    text = text.strip()
    return len(text) >= 5 and " " not in text and any(ch.isdigit() for ch in text)


def find_by_code(shipments: Iterable[ShipmentRow], code: str) -> ShipmentRow | None:
    """The shipment whose PRO, tracking number, BOL or id is exactly `code`."""
    wanted = normalize_code(code)
    if not wanted:
        return None
    for shipment in shipments:
        for value in (
            shipment.pro_number,
            shipment.tracking_number,
            shipment.bol_number,
            shipment.id,
        ):
            if value and normalize_code(value) == wanted:
                return shipment
    return None
