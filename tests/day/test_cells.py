"""The day's table at 80 columns: short headers, long names cut, the flags kept whole."""

from __future__ import annotations

import io
from dataclasses import replace
from decimal import Decimal

from tests.day.test_engine import DAY, _record
from tui.commands.day import print_table
from tui.day import ShipmentFacts, build_day

FACTS = ShipmentFacts(
    pieces=12,
    weight_lb=Decimal("12450.5"),
    freight_class="77.5, 92.5",
    hazmat=True,
    consignee="Consolidated Northern Distribution Warehouse",
    pickup_window="08:00-17:00",
    carrier="Harrowgate Freight Lines (SANDBOX)",
)


def _day() -> str:
    bookings = [
        _record("A", "x", pro="3410003026", shipment="s1", bol=None, outcome="unknown"),
        _record("B", "x", pro="3410003030", shipment="s2"),
    ]
    facts = {"s1": FACTS, "s2": replace(FACTS, confirmation="CHC4103610", hazmat=False)}
    out = io.StringIO()
    print_table(build_day(DAY, bookings, facts), None, out, 80)
    return out.getvalue()


def test_the_table_fits_80_columns_and_keeps_the_flags() -> None:
    text = _day()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "NPO" in text  # every flag, as a letter, and what the letters mean
    assert "FLAGS: N unconfirmed  P no-papers  O unsettled  M moved  L late" in text
    assert "3410003026" in text
    assert "12450.5" in text
    assert "Consolidated" in text
    assert "…" in text
    assert "PCS" in text
    assert "PU#" in text


def test_flags_stay_words_when_they_fit() -> None:
    bookings = [_record("A", "x", pro="3410003026", shipment="s1", bol=None)]
    out = io.StringIO()
    facts = replace(FACTS, consignee="Peach Retail", freight_class="70", hazmat=False)
    print_table(build_day(DAY, bookings, {"s1": facts}), None, out, 80)
    assert "unconfirmed no-papers" in out.getvalue()
    assert max(len(line) for line in out.getvalue().splitlines()) <= 80


def test_a_wide_terminal_keeps_every_column_whole() -> None:
    bookings = [_record("A", "x", pro="3410003026", shipment="s1")]
    out = io.StringIO()
    print_table(build_day(DAY, bookings, {"s1": FACTS}), None, out, 200)
    text = out.getvalue()
    assert "Consolidated Northern Distribution Warehouse" in text
    assert "08:00-17:00" in text
    assert "CONFIRMED" in text
    assert "PIECES" in text
