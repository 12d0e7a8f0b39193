"""Write the shipments list's rows to CSV (one row per shipment, exact money)."""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.listing.rows import Place, ShipmentRow

HEADER = (
    "id",
    "pro_number",
    "created",
    "status",
    "mode",
    "pickup_date",
    "origin_company",
    "origin_city",
    "origin_state",
    "origin_postal_code",
    "destination_company",
    "destination_city",
    "destination_state",
    "destination_postal_code",
    "carrier",
    "scac",
    "total",
    "currency",
    "tracking_number",
    "bol_number",
    "reference",
    "quote_id",
)


def _address(place: Place) -> list[str]:
    return [place.company or "", place.city or "", place.state or "", place.postal_code or ""]


def shipment_row(shipment: ShipmentRow) -> list[str]:
    """One CSV row; the total is written exactly as the Decimal it is."""
    return [
        shipment.id,
        shipment.pro_number or "",
        shipment.created_date.isoformat() if shipment.created_date else "",
        shipment.status,
        shipment.mode or "",
        shipment.pickup_date.isoformat() if shipment.pickup_date else "",
        *_address(shipment.origin),
        *_address(shipment.destination),
        shipment.carrier_name or "",
        shipment.scac or "",
        f"{shipment.total:.2f}" if shipment.total is not None else "",
        shipment.currency or "",
        shipment.tracking_number or "",
        shipment.bol_number or "",
        shipment.reference or "",
        shipment.quote_id or "",
    ]


def shipments_csv(shipments: Iterable[ShipmentRow]) -> str:
    """The CSV text (header first) of the shipments, in the order given."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    for shipment in shipments:
        writer.writerow(shipment_row(shipment))
    return buffer.getvalue()


def write_shipments_csv(shipments: Iterable[ShipmentRow], path: Path) -> int:
    """Write the CSV atomically (creating the folder); return how many shipments it holds."""
    rows = list(shipments)
    text = shipments_csv(rows)
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(rows)
