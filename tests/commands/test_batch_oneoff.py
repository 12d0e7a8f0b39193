"""Nothing silent (issue 37, items 2 and 3): a one-off ``--map``/``--set`` is for its run only
(``--save-mapping`` keeps it), a saved mapping's header line says where it is not the guess,
weights no freight has are set aside with the likely unit slip, and a line that looks
hazardous is set aside until ``--not-hazardous`` names its order (kept for the next run of
the same file, while its lines stay as they were). Files are written by the
test and read by the real CLI (``batch status``: nothing is sent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.commands.conftest import Runner
from tests.commands.test_batch import configured, orders_file  # noqa: F401

HEADER = "Order,Ship From Zip,Zip,State,Qty,Unit Type,Weight,Dims,Description\n"


def _records(text: str) -> dict[str, dict[str, Any]]:
    return {record["order"]: record for record in json.loads(text)}


def _status(freight: Runner, path: Path, *flags: str) -> dict[str, dict[str, Any]]:
    result = freight(
        "batch", "status", str(path), "--json", "order,status,totalWeight,errors", *flags
    )
    assert result.status in (0, 1), result.err
    return _records(result.out)


def test_a_one_off_set_is_not_kept_for_the_next_file_with_these_headers(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    grams = orders_file(
        tmp_path, HEADER + "S1,60607,30303,GA,1,Pallet,181437,48x40x48,Pumps\n", "shop.csv"
    )
    first = _status(freight, grams, "--set", "weight_unit=g")
    assert first["S1"]["totalWeight"] == 400
    pounds = orders_file(
        tmp_path, HEADER + "W1,60607,30303,GA,1,Pallet,435,48x40x48,Pumps\n", "warehouse.csv"
    )
    second = _status(freight, pounds)
    assert second["W1"]["totalWeight"] == 435  # pounds, as the guess reads it

    _status(freight, grams, "--set", "weight_unit=g", "--save-mapping")
    kept = freight("batch", "status", str(pounds))
    assert kept.out.splitlines()[0].count("(saved; not the guess: weight unit g, not lb)") == 1
    assert (
        _records(freight("batch", "status", str(pounds), "--json", "order,status,errors").out)[
            "W1"
        ]["status"]
        == "invalid"
    )  # 435 g: less than any pallet weighs


def test_a_weight_no_freight_has_sets_the_order_aside_naming_the_unit_slip(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(
        tmp_path,
        HEADER
        + "H1,60607,30303,GA,1,Crate,435000,48x40x48,Pumps\n"
        + "H2,60607,30303,GA,1,Box,96,12x12x12,Gloves\n",
    )
    records = _status(freight, path)
    assert records["H1"]["status"] == "invalid"
    assert records["H1"]["errors"][0]["reason"] == (
        "makes one crate weigh 435,000 lb, more than any LTL unit (10,000 lb): looks like "
        "grams read as pounds?"
    )
    assert records["H2"]["status"] != "invalid"


def test_a_line_that_looks_hazardous_waits_for_the_users_word(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(
        tmp_path,
        HEADER
        + "Z1,60607,30303,GA,1,Pallet,400,48x40x48,Lithium batteries\n"
        + "Z2,60607,30303,GA,1,Pallet,400,48x40x48,Latex paint (UN1263)\n"
        + "Z3,60607,30303,GA,1,Pallet,400,48x40x48,Oak tables\n",
    )
    records = _status(freight, path)
    assert [records[k]["status"] for k in ("Z1", "Z2")] == ["invalid", "invalid"]
    assert "--not-hazardous Z1" in records["Z1"]["errors"][0]["reason"]
    assert records["Z3"]["status"] != "invalid"
    said = _status(freight, path, "--not-hazardous", "Z1", "Z2")
    assert "invalid" not in (said["Z1"]["status"], said["Z2"]["status"])
    again = _status(freight, path)  # the word is kept with the batch: not asked again
    assert "invalid" not in (again["Z1"]["status"], again["Z2"]["status"])
    text = path.read_text(encoding="utf-8").replace("Lithium batteries", "Lithium cells")
    path.write_text(text, encoding="utf-8")
    changed = _status(freight, path)  # unless the lines it was given of changed
    assert [changed[k]["status"] for k in ("Z1", "Z2")] == ["invalid", "pending"]


def test_a_total_row_is_set_aside_and_the_batch_can_exit_0(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = orders_file(
        tmp_path,
        HEADER + "T1,60607,30303,GA,1,Pallet,400,48x40x48,Pumps\nTotal,,,,1,,400,,\n",
        "with-total.csv",
    )
    result = freight("batch", "rate", str(path))
    assert result.status == 0, result.out + result.err
    assert "  row 3 set aside: 'Total' starts a total or summary row, not an order" in result.out
    assert "Total " not in result.out.split("ORDER", 1)[1].split("\n\n")[0]  # not a row
