"""``freight report``: the sums of the bookings in the store, per currency, in the glossary's
names, as a table, CSV or JSON."""

from __future__ import annotations

import argparse
import csv
import io
import json
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
import time_machine

from tests.commands.conftest import Runner
from tests.commands.test_batch import configured, orders_file  # noqa: F401 (a fixture)
from tests.reports.fill import Booked, cancel, fill
from tui.batch.report import BATCH_FIELDS
from tui.commands.batch import profile_of
from tui.config.paths import data_dir
from tui.reports.deliveries import transit_days
from tui.sandbox import DEMO_TOKEN
from tui.sandbox.threaded import RunningSandbox
from tui.store import open_store
from tui.vocabulary import GLOSSARY

NONE_CANCELED = {"canceled": 0, "canceledTotal": "0.00"}
MON = datetime(2026, 3, 2, 15, tzinfo=UTC)
NEXT_MON = datetime(2026, 3, 9, 15, tzinfo=UTC)


def booked() -> None:
    store = open_store(data_dir())
    try:
        fill(
            store,
            [
                Booked("FRT1", "ODFL", "100.10", "USD", 1000, MON, [("130.10", "USD")]),
                Booked(
                    "FRT2",
                    "ODFL",
                    "300.00",
                    "CAD",
                    500,
                    MON,
                    pickup="2026-03-03",
                    delivered="2026-03-05",
                ),
                Booked("FRT3", "SAIA", "50.05", "USD", 100, NEXT_MON, lane=("10001", "94105")),
            ],
        )
    finally:
        store.close()


def test_spend_json_is_per_currency_in_the_glossarys_names(freight: Runner) -> None:
    booked()
    result = freight("report", "spend", "--format", "json")
    assert result.status == 0, result.err
    rows = json.loads(result.out)
    assert rows == [
        {"carrier": "ODFL", "currency": "CAD", "shipments": 1, "totalWeight": 500,
         "total": "300.00", "costPerCwt": "60.00", "savings": "0.00", **NONE_CANCELED},
        {"carrier": "ODFL", "currency": "USD", "shipments": 1, "totalWeight": 1000,
         "total": "100.10", "costPerCwt": "10.01", "savings": "30.00", **NONE_CANCELED},
        {"carrier": "SAIA", "currency": "USD", "shipments": 1, "totalWeight": 100,
         "total": "50.05", "costPerCwt": "50.05", "savings": "0.00", **NONE_CANCELED},
    ]  # fmt: skip
    carriers = json.loads(freight("report", "carriers", "--format", "json").out)
    lanes = json.loads(freight("report", "lanes", "--format", "json").out)
    weeks = json.loads(freight("report", "spend", "--by", "week", "--format", "json").out)
    for record in [*rows, *carriers, *lanes, *weeks]:
        assert set(record) <= set(GLOSSARY), record
    assert [(c["carrier"], c["share"], c["onTime"]) for c in carriers] == [
        ("ODFL", "0.6667", "1.0000"),
        ("SAIA", "0.3333", None),
    ]
    assert {(r["lane"], r["currency"]) for r in lanes} == {
        ("60601 > 30301", "CAD"),
        ("60601 > 30301", "USD"),
        ("10001 > 94105", "USD"),
    }
    assert [(w["week"], w["total"]) for w in weeks] == [
        ("2026-W10", "300.00"),
        ("2026-W10", "100.10"),
        ("2026-W11", "50.05"),
    ]


def test_canceled_shipments_are_left_out_of_spend_and_shown_apart(freight: Runner) -> None:
    booked()
    store = open_store(data_dir())
    try:
        more = [Booked("FRT4", "SAIA", "70.00", "USD", 300, MON), Booked("FRT5", "UPSF", "25.50",
                "USD", 200, MON)]  # fmt: skip
        fill(store, more)
        cancel(store, ["FRT1", "FRT4", "FRT5"])  # UPSF's only shipment among them
    finally:
        store.close()
    rows = json.loads(freight("report", "spend", "--format", "json").out)
    by = {(r["carrier"], r["currency"]): r for r in rows}
    odfl, saia, upsf = by["ODFL", "USD"], by["SAIA", "USD"], by["UPSF", "USD"]
    assert (odfl["shipments"], odfl["total"], odfl["canceled"], odfl["canceledTotal"]) == (
        0, "0.00", 1, "100.10")  # fmt: skip
    assert (saia["shipments"], saia["total"], saia["canceled"], saia["canceledTotal"]) == (
        1, "50.05", 1, "70.00")  # fmt: skip
    assert (upsf["shipments"], upsf["total"], upsf["canceled"]) == (0, "0.00", 1)
    assert by["ODFL", "CAD"]["canceled"] == 0
    sheet = list(csv.DictReader(io.StringIO(freight("report", "spend", "--format", "csv").out)))
    assert sum(int(r["canceled"]) for r in sheet) == 3
    assert sum(Decimal(r["total"]) for r in sheet if r["currency"] == "USD") == Decimal("50.05")
    table = freight("report", "spend").out.splitlines()
    assert table[-1] == "Canceled: 3 shipments, 195.60 USD not billed (left out of the spend)"
    assert not any(line.startswith("UPSF") for line in table)  # no spend: no line of its own
    weeks = freight("report", "spend", "--by", "week").out
    assert "Canceled: 3 shipments, 195.60 USD not billed" in weeks


def test_since_until_csv_and_table(freight: Runner) -> None:
    booked()
    result = freight("report", "spend", "--since", "2026-03-09", "--format", "csv")
    assert list(csv.DictReader(io.StringIO(result.out))) == [
        {"carrier": "SAIA", "currency": "USD", "shipments": "1", "totalWeight": "100",
         "total": "50.05", "costPerCwt": "50.05", "savings": "0.00", "canceled": "0",
         "canceledTotal": "0.00"},
    ]  # fmt: skip
    table = freight("report", "spend", "--until", "2026-03-02").out.splitlines()
    assert table[0].split() == [
        "carrier", "currency", "shipments", "totalWeight", "total", "costPerCwt", "savings",
    ]  # fmt: skip
    assert [line.split()[:2] for line in table[1:]] == [["ODFL", "CAD"], ["ODFL", "USD"]]
    bad = freight("report", "spend", "--since", "March")
    assert bad.status == 2
    assert "--since" in bad.err


def test_a_batch_booked_through_the_sandbox_is_reported_as_booked(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    orders = str(orders_file(tmp_path))
    assert freight("batch", "rate", orders).status == 0
    booked_rows = json.loads(
        freight("batch", "book", orders, "--yes", "--json", ",".join(BATCH_FIELDS.names)).out
    )
    done = [r for r in booked_rows if r["status"] == "booked"]
    assert done  # something was booked to report on
    want: dict[tuple[str, str], Decimal] = {}
    for r in done:
        key = (r["carrier"], r["currency"])
        want[key] = want.get(key, Decimal(0)) + Decimal(r["total"])
    rows = json.loads(freight("report", "spend", "--format", "json").out)
    assert {(r["carrier"], r["currency"]): Decimal(r["total"]) for r in rows} == want
    assert sum(r["shipments"] for r in rows) == len(done)
    assert all(r["costPerCwt"] is not None for r in rows)  # the pounds were kept


def test_tables_fit_80_columns_and_csv_keeps_every_column(
    freight: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_name = "Lakeshore Interstate Freight (sandbox)"
    store = open_store(data_dir())
    try:
        fill(
            store,
            [
                Booked("FRT1", long_name, "123456.78", "USD", 1234567, MON, [("124000.00", "USD")],
                       pickup="2026-03-03", delivered="2026-03-05"),
                Booked("FRT2", "BCXP", "300.00", "CAD", 500, MON),
            ],
        )  # fmt: skip
    finally:
        store.close()
    monkeypatch.setenv("COLUMNS", "80")
    for kind in ("spend", "lanes", "carriers"):
        lines = freight("report", kind).out.splitlines()
        assert max(len(line) for line in lines) <= 80, (kind, lines)
    spend_lines = freight("report", "spend").out.splitlines()
    assert spend_lines[2].startswith("Lakeshore Interstate Freight (…  USD")
    assert spend_lines[2].split()[-4:] == ["1234567", "123456.78", "10.00", "543.22"]
    carrier_lines = freight("report", "carriers").out.splitlines()
    assert carrier_lines[0].split()[-4:] == ["quotedDays", "actualDays", "delivered", "onTime"]
    monkeypatch.setenv("COLUMNS", "60")
    narrow = freight("report", "spend").out.splitlines()
    assert max(len(line) for line in narrow) <= 60, narrow
    assert narrow[0].split() == ["carrier", "cur", "ships", "total", "perCwt", "savings"]
    assert narrow[-1].startswith("(totalWeight left out at 60 columns")
    sheet = list(csv.DictReader(io.StringIO(freight("report", "spend", "--format", "csv").out)))
    assert sheet[1]["carrier"] == long_name
    assert sheet[1]["totalWeight"] == "1234567"


def test_carriers_asks_tracking_for_delivery_dates_unless_offline(
    freight: Runner, live_sandbox: RunningSandbox
) -> None:
    headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
    with httpx.Client(base_url=live_sandbox.base_url, headers=headers) as http:
        listed = http.get("/shipments", params={"status": "delivered"}).json()["shipments"]
        sid = listed[0]["id"]
        tracking = http.get(f"/shipments/{sid}").json()["tracking"]
        events = http.get(f"/shipments/{sid}/tracking").json()
    pickup = date.fromisoformat(tracking["pickupDate"][:10])
    delivered = date.fromisoformat(
        next(e for e in events if e["eventType"] == "delivered")["eventDate"]
    )
    booked()
    offline = freight("report", "carriers", "--offline", "--format", "json")
    assert [(c["carrier"], c["delivered"]) for c in json.loads(offline.out)] == [
        ("ODFL", 1),
        ("SAIA", 0),
    ]
    assert "tracking" not in offline.err
    mine = profile_of(argparse.Namespace(demo=False, profile=None, base_url=None)).name
    store = open_store(data_dir())
    try:
        with store.engine.write() as tx:
            tx.run(  # booked by this profile
                "UPDATE bookings SET shipment_id = ?, pickup_date = ?, account = ?"
                " WHERE reference = 'FRT3'",
                (sid, pickup.isoformat(), mine),
            )
            tx.run(  # booked by another profile ("acct"): not this account's to ask about
                "UPDATE bookings SET shipment_id = ?, pickup_date = ? WHERE reference = 'FRT1'",
                (listed[1]["id"], pickup.isoformat()),
            )
    finally:
        store.close()
    online = freight("report", "carriers", "--format", "json")
    assert online.status == 0, online.err
    odfl, saia = json.loads(online.out)
    assert (odfl["carrier"], odfl["delivered"]) == ("ODFL", 1)  # FRT1 was not asked
    assert (saia["carrier"], saia["delivered"]) == ("SAIA", 1)
    assert saia["actualTransitDays"] == f"{transit_days(pickup, delivered, '10001')}.0"
    assert "asked tracking of 1 shipments: 1 delivered" in online.err
    again = freight("report", "carriers", "--format", "json")
    assert json.loads(again.out) == json.loads(online.out)
    assert "asked tracking" not in again.err  # the date is kept: not asked again
    assert "--offline" in freight("report", "--help").out


def test_today_is_the_utc_day_the_reports_count_in_at_utc14(freight: Runner) -> None:
    # New Year's morning at Kiritimati (UTC+14) is still 31 December in UTC, the day a booking
    # sent now is counted in: "--since today" must hold it
    moment = datetime(2027, 1, 1, 0, 30, tzinfo=ZoneInfo("Pacific/Kiritimati"))
    with time_machine.travel(moment, tick=False):
        store = open_store(data_dir())
        try:
            fill(store, [Booked("FRT9", "ODFL", "120.00", "USD", 800, moment.astimezone(UTC))])
        finally:
            store.close()
        result = freight("report", "spend", "--since", "today", "--format", "json")
    assert result.status == 0, result.err
    assert [(r["carrier"], r["total"]) for r in json.loads(result.out)] == [("ODFL", "120.00")]
