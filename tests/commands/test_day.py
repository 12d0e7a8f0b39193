"""``freight day``: orders booked through the sandbox, seen on their pickup day per carrier,
written as CSV manifests, and a booking after the close shown as a late addition."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.commands.conftest import Runner
from tests.commands.test_batch import ORDERS, configured, orders_file  # noqa: F401 (a fixture)
from tests.fake_lp import install_fake_lp
from tui.domain.pickup_dates import is_business_day, region_of

LATE = (
    ORDERS.split("\n", 1)[0] + "\nA3,60607,Late Goods,Atlanta,GA,30303,1,Pallet,500,48,40,48,70,\n"
)


def _ship_day() -> date:
    """A business day at both origins a week ahead: a pickup day the hour never moves (with no
    ship date, Chicago's and Atlanta's next pickup fall on different days for an hour a night)."""
    day = datetime.now(UTC).date() + timedelta(days=7)
    while not all(is_business_day(day, region_of(z)) for z in ("60607", "30336")):
        day += timedelta(days=1)
    return day


def _dated(orders: str, day: date) -> str:
    """``orders`` with a Ship Date column of ``day`` after the order number."""
    header, *rows = orders.splitlines()
    lines = [header.replace("Order,", "Order,Ship Date,", 1)]
    lines += [row.replace(",", f",{day.isoformat()},", 1) for row in rows]
    return "\n".join(lines) + "\n"


def _book(freight: Runner, path: Path) -> list[dict[str, Any]]:
    assert freight("batch", "rate", str(path)).status == 0
    result = freight("batch", "book", str(path), "--yes", "--format", "json")
    assert result.status == 0, result.err
    records: list[dict[str, Any]] = json.loads(result.out)
    return records


def test_the_days_list_manifests_print_and_close(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ship_day = _ship_day()
    booked = _book(freight, orders_file(tmp_path, _dated(ORDERS, ship_day)))
    day = str(booked[0]["pickupDate"])
    assert day == ship_day.isoformat()
    assert {str(r["pickupDate"]) for r in booked} == {day}

    listed = freight("day", "--date", day, "--format", "json")
    assert listed.status == 0, listed.err
    shipments = json.loads(listed.out)
    assert sorted(s["proNumber"] for s in shipments) == sorted(r["proNumber"] for r in booked)
    a1 = next(s for s in shipments if s["destCompany"] == "Peach Retail")
    assert a1["pieces"] == 3  # two pallets and a crate
    assert a1["totalWeight"] == 1950  # the order's 1,600 lb on two pallets and a 350 lb crate
    assert a1["carrier"]
    assert not any(s["lateAddition"] for s in shipments)

    table = freight("day", "--date", day)
    assert table.status == 0
    assert "Peach Retail" in table.out
    assert "Lone Star DC" in table.out
    assert max(len(line) for line in table.out.splitlines()) <= 80  # an 80-column terminal

    folder = tmp_path / "manifests"
    folder.mkdir()
    assert freight("day", "--date", day, "--manifests", str(folder)).status == 0
    files = sorted(folder.glob("*.csv"))
    carriers = {s["carrier"] for s in shipments}
    assert len(files) == len(carriers)
    rows = [row for f in files for row in csv.DictReader(io.StringIO(f.read_text("utf-8")))]
    assert sorted(row["proNumber"] for row in rows) == sorted(s["proNumber"] for s in shipments)
    pdfs = sorted(folder.glob("*.pdf"))
    assert [p.stem for p in pdfs] == [f.stem for f in files]
    pdf_text = ""
    for pdf in pdfs:
        pages = PdfReader(io.BytesIO(pdf.read_bytes())).pages
        text = "\n".join(page.extract_text() for page in pages)
        assert "Driver's signature" in text
        pdf_text += text
    for shipment in shipments:  # every PRO and consignee is on its carrier's page, as text
        assert shipment["proNumber"] in pdf_text
        assert shipment["destCompany"] in pdf_text
    again = freight("day", "--date", day, "--manifests", str(folder))
    assert again.status != 0
    assert "--force" in again.err
    assert freight("day", "--date", day, "--manifests", str(folder), "--force").status == 0
    blocked = tmp_path / "blocked"  # a folder it cannot write a manifest in (root writes
    blocked.mkdir()  # anywhere, so a folder stands where the first file would go)
    (blocked / files[0].name).mkdir()
    refused = freight("day", "--date", day, "--manifests", str(blocked), "--force")
    assert refused.status == 2, refused.err  # a usage error, not 70 (an internal error)
    assert f"--manifests: cannot write in {blocked}" in refused.err
    assert "Traceback" not in refused.err

    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    printers = '\n[printers]\ndocument_printer = "office"\nlabel_printer = "zebra"\n'
    configured.write_text(configured.read_text("utf-8") + printers, encoding="utf-8")
    again_folder = tmp_path / "closing"
    again_folder.mkdir()
    closed = freight("day", "close", "--date", day, "--manifests", str(again_folder), "--print")
    assert closed.status == 0, closed.err
    assert "closed by" in closed.out
    # The print says what went where, and where the files are (whole: the terminal wraps).
    assert "freight: Printed 2 BOLs to office, 2 label files to zebra; files in " in closed.err
    assert "printed: manifest-" in closed.out  # the close says what it wrote and printed
    assert f"bols-{day}.pdf (2 BOLs)" in closed.out
    assert f"labels-{day}.zpl (2 label files)" in closed.out
    pdf_job, zpl = sorted(lp.calls(), key=lambda call: call.argv[1])  # one job per kind
    assert pdf_job.argv[:2] == ["-d", "office"]
    assert pdf_job.head.startswith("%PDF")
    assert zpl.argv[:4] == ["-d", "zebra", "-o", "raw"]
    assert zpl.head.startswith("^XA")
    merged = Path(pdf_job.argv[-1]).read_bytes()
    for shipment in shipments:  # each BOL's page is in the one PDF
        assert f"{shipment['proNumber']}".encode() in merged
    late = _book(freight, orders_file(tmp_path, _dated(LATE, ship_day), "late.csv"))
    assert str(late[0]["pickupDate"]) == day
    after = json.loads(freight("day", "--date", day, "--format", "json").out)
    flagged = {s["destCompany"]: s["lateAddition"] for s in after}
    assert flagged == {"Peach Retail": False, "Lone Star DC": False, "Late Goods": True}
    assert " late" in freight("day", "--date", day).out


@pytest.mark.slow  # four bookings on the sandbox and five commands: 15-25 s
def test_closing_one_carrier_makes_only_its_later_bookings_late(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Harrowgate's driver came (``--carrier`` by its SCAC): its manifest alone is written and
    its later booking is late; another carrier's booking after that close is not."""
    ship_day = _ship_day()
    booked = _book(freight, orders_file(tmp_path, _dated(ORDERS, ship_day)))
    day = str(booked[0]["pickupDate"])
    shipments = json.loads(freight("day", "--date", day, "--format", "json").out)
    assert {s["carrier"] for s in shipments} == {"Harrowgate Freight Lines"}  # the cheapest

    unknown = freight("day", "close", "--date", day, "--carrier", "Nope Freight")
    assert unknown.status == 2, unknown.err
    assert unknown.err.strip().splitlines() == [
        f"freight: --carrier: no carrier 'Nope Freight' on {day} "
        "(the day's carriers: Harrowgate Freight Lines)"
    ]
    folder = tmp_path / "manifests"
    folder.mkdir()
    closed = freight("day", "close", "--date", day, "--carrier", "hgfl", "--manifests", str(folder))
    assert closed.status == 0, closed.err
    assert f"freight: {day} Harrowgate Freight Lines closed by " in closed.out
    assert [p.name for p in sorted(folder.glob("*.csv"))] == [
        f"manifest-{day}-Harrowgate-Freight-Lines.csv"
    ]

    other = _dated(LATE, ship_day)  # booked after the close, with another carrier
    path = orders_file(tmp_path, other, "other.csv")
    assert freight("batch", "rate", str(path), "--exclude", "HGFL").status == 0
    result = freight("batch", "book", str(path), "--yes", "--format", "json")
    assert result.status == 0, result.err
    again = _dated(LATE.replace("A3,", "A4,").replace("Late Goods", "Late Peach"), ship_day)
    _book(freight, orders_file(tmp_path, again, "again.csv"))  # Harrowgate, after its close
    after = json.loads(freight("day", "--date", day, "--format", "json").out)
    seen = {s["destCompany"]: (s["carrier"] == "Harrowgate Freight Lines", s["lateAddition"])
            for s in after}  # fmt: skip
    assert seen == {
        "Peach Retail": (True, False),
        "Lone Star DC": (True, False),
        "Late Goods": (False, False),  # its carrier was not closed
        "Late Peach": (True, True),
    }
    table = freight("day", "--date", day).out
    assert "Harrowgate Freight Lines: 3 shipments" in table
    assert (
        "(closed by " in table.split("Harrowgate Freight Lines: 3 shipments", 1)[1].split("\n")[0]
    )
    assert "Pickups on " + day + "\n" in table  # the whole day is not closed
