"""One name per thing: every command's JSON, run against the sandbox with every field it has,
uses only the glossary's keys (nested ones too), writes ``null`` for what is unknown (never
``""``), and ``docs/glossary.md`` names exactly the glossary's keys."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.commands.conftest import Runner
from tests.commands.test_batch import configured, orders_file  # noqa: F401 (a fixture)
from tui.batch.report import BATCH_FIELDS
from tui.commands.fields import fieldset_of
from tui.sandbox import DEMO_TOKEN
from tui.vocabulary import GLOSSARY

ITEM = "2xpallet,800lb,48x40x48"
RETIRED = ("id", "carrierCode", "service", "days", "trackingNumber", "reference", "weight_lb")
"""Names two things shared before: each thing now has one name (see the glossary)."""
GLOSSARY_PAGE = Path(__file__).parents[2] / "docs" / "glossary.md"


def every(command: str) -> str:
    return ",".join(fieldset_of(command).names)


def keys_and_values(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    """(key, where, value) of every key at every depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, f"{path}.{key}", item
            yield from keys_and_values(item, f"{path}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from keys_and_values(item, f"{path}[{n}]")


def json_of(freight: Runner, *args: str) -> Any:
    result = freight(*args)
    assert result.status in (0, 1), (args, result.err)
    if "--format" in args and args[args.index("--format") + 1] == "jsonl":
        return [json.loads(line) for line in result.out.splitlines()]
    return json.loads(result.out)


def test_every_commands_json_keys_are_the_glossarys(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    listed = json_of(freight, "shipments", "--format", "json", "--limit", "40")
    with_pro = next(s for s in listed if s["proNumber"] and s["trackingNumbers"])
    orders = str(orders_file(tmp_path))
    all_batch = ",".join(BATCH_FIELDS.names)
    outputs = {
        "shipments": listed,
        "shipments --json all": json_of(
            freight, "shipments", "--json", every("shipments"), "--format", "jsonl", "--limit", "5"
        ),
        "shipment": json_of(freight, "shipment", with_pro["shipmentId"], "--format", "json"),
        "track": json_of(freight, "track", with_pro["proNumber"], "--json", every("track")),
        "track default": json_of(freight, "track", with_pro["proNumber"], "--format", "json"),
        "rates": json_of(
            freight, "rates", "--from", "60607", "--to", "30303", "--item", ITEM, "--format", "json"
        ),
        "batch rate": json_of(freight, "batch", "rate", orders, "--format", "json"),
        "batch book": json_of(freight, "batch", "book", orders, "--yes", "--json", all_batch),
        "batch status": json_of(freight, "batch", "status", orders, "--format", "jsonl"),
        "batch paperwork": json_of(freight, "batch", "paperwork", orders, "--json", all_batch),
        "batch fields": json_of(freight, "batch", "fields", "--json"),
        "batch columns": json_of(
            freight, "batch", "columns", orders, "--set", "class=70", "--json"
        ),
        "auth status": json_of(freight, "auth", "status", "--json"),
        "auth status --demo": json_of(freight, "auth", "status", "--demo", "--json"),
        "config path": json_of(freight, "config", "path", "--json"),
    }
    day = outputs["batch book"][0]["pickupDate"]  # the day the batch's pickups are on
    outputs["day"] = json_of(freight, "day", "--date", day, "--format", "json")
    outputs["shipments after the batch"] = json_of(
        freight, "shipments", "--format", "jsonl", "--limit", "40"
    )
    first = outputs["batch book"][0]
    outputs["shipment of the batch"] = json_of(
        freight, "shipment", first["shipmentId"], "--format", "json"
    )
    for kind in ("spend", "lanes", "carriers"):
        outputs[f"report {kind}"] = json_of(freight, "report", kind, "--format", "json")
    outputs["report by week"] = json_of(
        freight, "report", "spend", "--by", "week", "--format", "json"
    )
    seen: set[str] = set()
    strangers, blanks = [], []
    for command, value in outputs.items():
        assert value, command  # something was written to check
        for key, where, item in keys_and_values(value):
            seen.add(key)
            if key not in GLOSSARY:
                strangers.append(f"{command}: {where}")
            if item == "":
                blanks.append(f"{command}: {where}")
    assert strangers == []
    assert blanks == []  # unknown is null
    # The things that had two names each appear under their one name.
    for name in ("shipmentId", "scac", "serviceType", "transitDays", "trackingNumbers",
                 "customerReference", "bookingReference"):  # fmt: skip
        assert name in seen, name
    booked = outputs["batch book"]
    assert all(isinstance(r["trackingNumbers"], list) for r in booked)
    one_type_per_name(outputs)
    the_batchs_order_and_references_in_the_shipments(outputs)
    assert isinstance(outputs["track default"], list)  # one shape, whatever the matches
    status = outputs["auth status"]
    assert status["clientId"] is not None
    assert DEMO_TOKEN.split(".")[-1] not in json.dumps(status)  # never the secret


def one_type_per_name(outputs: dict[str, Any]) -> None:
    """Weights are numbers, tracking numbers lists and the consignee ``destCompany`` in every
    command's records (``shipments``, ``shipment``, ``day``, ``report``, ``batch``)."""
    types: dict[str, set[str]] = {}
    for value in outputs.values():
        for key, _, item in keys_and_values(value):
            if item is not None:
                types.setdefault(key, set()).add(type(item).__name__)
    assert types["totalWeight"] <= {"int", "float"}, types["totalWeight"]
    assert types["weight"] <= {"int", "float"}, types["weight"]
    assert types["trackingNumbers"] == {"list"}
    assert types["destCompany"] == {"str"}
    assert "consignee" not in types
    for command in ("day", "report spend", "batch book"):
        assert all(isinstance(r["totalWeight"], int | float) for r in outputs[command]), command
    assert all(r["destCompany"] for r in outputs["day"])
    assert all(re.fullmatch(r"\d{4}-W\d{2}", r["week"]) for r in outputs["report by week"])


def the_batchs_order_and_references_in_the_shipments(outputs: dict[str, Any]) -> None:
    """``order`` and ``bookingReference`` come from the store; ``customerReference`` is never
    Freight's own ``FRT…``."""
    booked = {r["shipmentId"]: r for r in outputs["batch book"] if r["shipmentId"]}
    listed = {s["shipmentId"]: s for s in outputs["shipments after the batch"]}
    assert booked.keys() <= listed.keys()
    for shipment_id, order in booked.items():
        for record in (listed[shipment_id], *[outputs["shipment of the batch"]] * (
            shipment_id == outputs["shipment of the batch"]["shipmentId"]
        )):  # fmt: skip
            assert record["order"] == order["order"]
            assert record["bookingReference"] == order["bookingReference"]
            assert record["customerReference"] != order["bookingReference"]
    for record in [*outputs["shipments"], *outputs["shipments after the batch"]]:
        assert not str(record["customerReference"] or "").startswith("FRT"), record


COVERED = {
    "shipments", "shipment", "track", "rates", "batch rate", "batch book", "batch status",
    "batch paperwork", "batch settle", "batch fields", "batch columns", "auth status",
    "config path",
}  # fmt: skip
"""The commands the test above runs with JSON output (``batch settle`` writes the records
``batch status`` writes, through the same code)."""


def json_commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> set[str]:
    """Every command whose parser takes ``--json``, as typed (``batch rate``)."""
    found = {" ".join(words)} if "--json" in parser._option_string_actions else set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= json_commands(sub, (*words, name))
    return found


def test_every_command_with_json_is_checked_against_the_glossary() -> None:
    from tui.cli import build_parser

    assert json_commands(build_parser()) == COVERED  # a new one: add it to the test above


def test_the_glossary_has_one_name_per_thing_and_its_page_lists_them() -> None:
    assert [name for name in RETIRED if name in GLOSSARY] == []
    page = GLOSSARY_PAGE.read_text(encoding="utf-8").split("## The names", 1)[1]
    named = re.findall(r"^\| `([A-Za-z0-9]+)` \|", page, re.MULTILINE)
    assert sorted(named) == sorted(GLOSSARY)
