"""`freight shipment`, `rates` and `track` on the live sandbox: formats and exit statuses."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.commands.conftest import Runner

ITEM = "2xpallet,800lb,48x40x48"


def _first(freight: Runner, *filters: str) -> dict[str, str]:
    result = freight("shipments", *filters, "--limit", "1", "--format", "jsonl")
    assert result.status == 0, result.err
    record: dict[str, str] = json.loads(result.out)
    return record


def test_shipment_table_json_and_documents(freight: Runner, tmp_path: Path) -> None:
    listed = _first(freight)
    table = freight("shipment", listed["shipmentId"], "--documents", str(tmp_path / "docs"))
    assert table.status == 0, table.err
    assert f"Shipment:     {listed['shipmentId']}" in table.out
    assert f"PRO:          {listed['proNumber']}" in table.out
    assert "TIME" in table.out
    assert "DESCRIPTION" in table.out
    saved = sorted(p.name for p in (tmp_path / "docs").iterdir())
    assert any(name.endswith(".pdf") for name in saved)
    assert (tmp_path / "docs" / saved[0]).read_bytes()[:4] in (b"%PDF", b"^XA\n", b"^XA")
    assert "Saved bol (pdf)" in table.err
    raw = freight("shipment", listed["shipmentId"], "--format", "json")
    detail = json.loads(raw.out, parse_float=Decimal)
    assert detail["shipmentId"] == listed["shipmentId"]
    assert detail["proNumber"] == listed["proNumber"]
    assert {k: detail[k] for k in listed} == listed  # a listed shipment's fields, the same
    assert detail["originAddress"]
    assert detail["items"][0]["quantity"] >= 1
    assert {d["type"] for d in detail["documents"]} >= {"bol"}
    assert detail["events"][0]["time"]


def test_unknown_shipment_exits_3(freight: Runner) -> None:
    result = freight("shipment", "shp_doesnotexist")
    assert result.status == 3
    assert "404" in result.err
    assert result.out == ""


def test_rates_from_flags_cheapest_first_with_currency(freight: Runner) -> None:
    result = freight("rates", "--from", "60607", "--to", "30303", "--item", ITEM)
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("Quote q_")
    totals = [
        Decimal(line.split(" USD")[0].split()[-1].replace(",", ""))
        for line in lines[2:]
        if " USD" in line
    ]
    assert totals
    assert totals == sorted(totals)
    assert any("unavailable:" in line for line in lines[2:])  # listed apart, with the reason


def test_rates_json_from_a_request_file_and_stdin(freight: Runner, tmp_path: Path) -> None:
    body = {
        "originPostalCode": "60607",
        "destPostalCode": "75207",
        "destType": "residential",
        "items": [
            {"quantity": 1, "package": "pallet", "weight": 500, "length": 48, "width": 40,
             "height": 40, "freightClass": 85}
        ],
    }  # fmt: skip
    path = tmp_path / "quote.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    from_file = freight("rates", "--request", str(path), "--format", "json")
    from_stdin = freight("rates", "--request", "-", "--format", "json", stdin=json.dumps(body))
    for result in (from_file, from_stdin):
        assert result.status == 0, result.err
        rates = json.loads(result.out)
        assert {r["quoteId"] for r in rates} == {rates[0]["quoteId"]}
        assert rates[0]["quoteId"].startswith("q_")
        ok = [r for r in rates if r["status"] == "ok"]
        assert ok
        assert [Decimal(r["total"]) for r in ok] == sorted(Decimal(r["total"]) for r in ok)
        names = {c["name"] for r in ok for c in r["charges"]}
        assert "residential-delivery" in names
        for rate in ok:  # exact money: charges add up to the total to the cent
            assert {c["currency"] for c in rate["charges"]} == {rate["currency"]} == {"USD"}
            assert sum(Decimal(c["amount"]) for c in rate["charges"]) == Decimal(rate["total"])
        refused = [r for r in rates if r["status"] != "ok"]
        assert all(r["total"] is None and r["message"] for r in refused)


def test_one_vocabulary_across_shipments_shipment_track_and_rates(freight: Runner) -> None:
    fields = "shipmentId,proNumber,status,carrier,total,currency"
    listed = json.loads(freight("shipments", "--json", fields, "--limit", "1").out)[0]
    assert listed["proNumber"]
    assert set(listed) == set(fields.split(","))
    detail = json.loads(freight("shipment", listed["shipmentId"], "--json", fields).out)
    tracked = json.loads(freight("track", listed["proNumber"], "--json", fields).out)[0]
    assert detail == tracked == listed  # the same names and the same values everywhere
    rates = freight(
        "rates", "--from", "60607", "--to", "30303", "--item", ITEM,
        "--json", "carrier,serviceType,transitDays,total,currency", "--format", "jsonl",
    )  # fmt: skip
    assert rates.status == 0, rates.err
    first = json.loads(rates.out.splitlines()[0])
    assert list(first) == ["carrier", "serviceType", "transitDays", "total", "currency"]
    assert isinstance(first["total"], str)
    assert isinstance(first["transitDays"], int)
    for command in ("shipment", "track", "rates"):
        listing = freight(command, "--json")
        assert listing.status == 0, listing.err
        names = [line.split()[0] for line in listing.out.splitlines()]
        assert {"carrier", "total", "currency"} <= set(names)
        assert "JSON fields (--json FIELD,FIELD" in freight(command, "--help").out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--from", "6060", "--to", "30303", "--item", ITEM),
            "--from: must be a 5-digit",
        ),
        (("--from", "60607", "--to", "30303", "--item", "2 pallets"), "--item 1 ('2 pallets')"),
        (("--from", "60607", "--item", ITEM), "missing --to"),
        (("--request", "-", "--item", ITEM), "--request cannot be combined"),
        (("--request", "/nonexistent/q.json"), "--request: cannot read"),
        (
            ("--from", "60607", "--to", "30303", "--item", "1xpallet,0,48x40x48"),
            "--item 1 weight: must be more than 0",
        ),
    ],
)
def test_bad_rate_requests_are_usage_errors(
    freight: Runner, args: tuple[str, ...], message: str
) -> None:
    result = freight("rates", *args)
    assert result.status == 2, result.err
    assert message in result.err


def test_rates_request_that_is_not_json(freight: Runner) -> None:
    result = freight("rates", "--request", "-", stdin="{not json")
    assert result.status == 2
    assert "--request: not JSON" in result.err


def _delivered_ltl_with_numbers(freight: Runner) -> dict[str, Any]:
    """A delivered LTL shipment that has a PRO, a BOL and a tracking number (whichever is newest
    on the day the test runs: the sandbox's history is relative to today)."""
    result = freight("shipments", "--status", "delivered", "--mode", "ltl", "--format", "jsonl")
    assert result.status == 0, result.err
    for line in result.out.splitlines():
        record: dict[str, Any] = json.loads(line)
        if all(record.get(key) for key in ("proNumber", "bolNumber", "trackingNumbers")):
            return record
    raise AssertionError("no delivered LTL shipment with a PRO, BOL and tracking number")


def test_track_by_pro_bol_and_tracking_number(freight: Runner) -> None:
    listed = _delivered_ltl_with_numbers(freight)
    by_pro = freight("track", listed["proNumber"])
    assert by_pro.status == 0, by_pro.err
    assert re.search(r"^Status: +delivered$", by_pro.out, re.MULTILINE)
    assert re.search(r"^Last event: +\S+ delivered Delivered", by_pro.out, re.MULTILINE)
    assert "delivered" in by_pro.out.split("TIME", 1)[1]
    by_bol = freight("track", listed["bolNumber"], "--format", "json")
    shape = json.loads(by_bol.out)
    assert isinstance(shape, list)  # one shape, a list, even for one match
    (tracked,) = shape
    assert tracked["shipmentId"] == listed["shipmentId"]
    assert tracked["status"] == "delivered"
    assert [e["status"] for e in tracked["events"]][-1] == "delivered"
    number = listed["trackingNumbers"][0]
    spaced = freight("track", f" {number.lower()} ", "--format", "json")
    assert [t["shipmentId"] for t in json.loads(spaced.out)] == [listed["shipmentId"]]


@pytest.mark.parametrize("number", ["", "   "])
def test_track_of_a_blank_number_is_a_usage_error(freight: Runner, number: str) -> None:
    result = freight("track", number)
    assert result.status == 2
    assert "NUMBER: give a PRO, BOL or tracking number" in result.err
    assert "Traceback" not in result.err


def test_track_unknown_number_exits_3(freight: Runner) -> None:
    result = freight("track", "NO-SUCH-PRO-123")
    assert result.status == 3
    assert "no shipment has the PRO, BOL, tracking number or id 'NO-SUCH-PRO-123'" in result.err


def test_a_refused_token_from_the_environment_is_named_in_the_advice(freight: Runner) -> None:
    result = freight("shipments", "--limit", "1", token="nobody.not-a-secret")
    assert result.status == 4
    assert "did not accept the credentials in FREIGHT_API_TOKEN" in result.err
    assert "Run `freight login`" not in result.err
    assert "not-a-secret" not in result.err
    assert "HTTP 401" in result.err
