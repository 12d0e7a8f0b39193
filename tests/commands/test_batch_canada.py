"""``freight batch`` with a Canadian warehouse: its postal code (any spelling) or its label
finds it in the address book, its ship dates follow its province's holidays, and the service
rates the cross-border lane."""

from __future__ import annotations

import csv
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.commands.conftest import Runner
from tests.commands.test_batch import CONFIG
from tui.domain.pickup_dates import closed_reason, is_business_day
from tui.sandbox.threaded import RunningSandbox

TORONTO = """
[[profiles.sandbox.address_book]]
label = "Toronto DC"
company = "Acme Dock Canada"
address = "200 Front St W"
city = "Toronto"
state = "ON"
postal_code = "M5V 2T6"
contact_name = "Sam Leblanc"
phone = "416-555-0134"
"""


@pytest.fixture
def configured(live_sandbox: RunningSandbox, isolated_home: Path) -> Path:
    """The sandbox profile of the batch tests, with a Toronto warehouse in its address book."""
    folder = isolated_home / "config" / "freight-tui"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(CONFIG.format(url=live_sandbox.base_url) + TORONTO, encoding="utf-8")
    return path


def ontario_only_holiday(today: date) -> tuple[date, str]:
    """The first day from the day after tomorrow that Ontario is closed for a holiday on while
    the US works (Boxing Day, Family Day, Victoria Day, Canada Day, Civic Holiday…)."""
    day = today + timedelta(days=2)
    while True:
        reason = closed_reason(day, "CA-ON")
        if reason is not None and day.weekday() < 5 and is_business_day(day, "US"):
            return day, reason
        day += timedelta(days=1)


def test_a_canadian_warehouse_is_found_by_postal_code_or_label_and_keeps_ontario_holidays(
    freight: Runner, configured: Path, tmp_path: Path
) -> None:
    holiday, name = ontario_only_holiday(date.today())
    lines = [
        "Order,Ship From,Ship Date,Consignee,City,State,Zip,Handling Units,Unit Type,Weight,"
        "Length,Width,Height,Class",
        f"C1,m5v2t6,{holiday.isoformat()},Peach Retail,Atlanta,GA,30303,1,Pallet,800,48,40,48,70",
        f"C2,Toronto DC,{holiday.isoformat()},Lone Star DC,Dallas,TX,75207,1,Pallet,800,48,40,48,",
        f"U1,60607,{holiday.isoformat()},Peach Retail,Atlanta,GA,30303,1,Pallet,800,48,40,48,70",
    ]
    path = tmp_path / "orders.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "results.csv"
    result = freight("batch", "rate", str(path), "--out", str(out))
    assert result.status == 0, result.out + result.err
    assert "not in the address book" not in result.out + result.err
    rows = {row["Order"]: row for row in csv.DictReader(out.open(encoding="utf-8-sig"))}
    assert {key: rows[key]["Status"] for key in rows} == {
        "C1": "rated",
        "C2": "rated",
        "U1": "rated",
    }
    # Toronto is closed that day, Chicago is not.
    assert rows["U1"]["Pickup Date"] == holiday.isoformat()
    for key in ("C1", "C2"):
        moved = date.fromisoformat(rows[key]["Pickup Date"])
        assert moved > holiday, (key, name)
        assert is_business_day(moved, "CA-ON")
    assert f"is {name}: moved to" in result.out
