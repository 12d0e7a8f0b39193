"""CSV export of listing rows: header, one row per shipment, exact totals, atomic write."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

from tui.api.models import Shipment
from tui.export import HEADER, shipments_csv, write_shipments_csv
from tui.listing.rows import ShipmentRow


def row(i: int, total: str | None = "1234.5") -> ShipmentRow:
    return ShipmentRow.of(
        Shipment.model_validate(
            {
                "id": f"shp_{i}",
                "createdDate": "2026-11-20T15:04:00Z",
                "status": "picked-up",
                "origin": {
                    "company": 'Acme, "Dock" Co',
                    "city": "Chicago",
                    "state": "IL",
                    "postalCode": "60601",
                },
                "destination": {"city": "Atlanta", "state": "GA", "postalCode": "30303"},
                "carrier": {"name": "Lakeshore Interstate", "scac": "LKIF"},
                "cost": {"total": total, "currency": "USD"} if total else None,
                "proNumber": f"441522789{i}",
                "mode": "ltl",
                "pickupDate": "2026-11-22",
            }
        )
    )


def test_csv_has_a_header_and_one_row_per_shipment_with_exact_money() -> None:
    text = shipments_csv([row(1), row(2, "0.10"), row(3, None)])
    records = list(csv.DictReader(io.StringIO(text)))
    assert list(records[0].keys()) == list(HEADER)
    assert [r["id"] for r in records] == ["shp_1", "shp_2", "shp_3"]
    assert [r["total"] for r in records] == ["1234.50", "0.10", ""]
    first = records[0]
    assert first["origin_company"] == 'Acme, "Dock" Co'  # quoted, not split
    assert first["created"] == datetime(2026, 11, 20, 15, 4, tzinfo=UTC).isoformat()
    assert first["pickup_date"] == date(2026, 11, 22).isoformat()
    assert (first["carrier"], first["scac"], first["status"]) == (
        "Lakeshore Interstate",
        "LKIF",
        "picked-up",
    )
    assert sum(Decimal(r["total"]) for r in records if r["total"]) == Decimal("1234.60")


def test_write_creates_the_folder_and_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "new" / "shipments.csv"
    assert write_shipments_csv([row(1), row(2)], target) == 2
    assert write_shipments_csv([row(3)], target) == 1
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("shp_3,")
    assert [p.name for p in target.parent.iterdir()] == ["shipments.csv"]
