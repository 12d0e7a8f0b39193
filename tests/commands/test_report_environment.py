"""``freight report`` sums the bookings of the target's environment only: a sandbox's test
bookings kept in the same store are no production spend, and the other way round."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from tests.commands.conftest import Runner
from tests.reports.fill import Booked, fill
from tui.config.paths import data_dir
from tui.store import open_store

MON = datetime(2026, 3, 2, 15, tzinfo=UTC)


def test_spend_and_carriers_are_the_targets_environments(freight: Runner) -> None:
    store = open_store(data_dir())
    try:
        fill(store, [Booked("FRT1", "ODFL", "100.10", "USD", 1000, MON)], "sandbox")
        fill(store, [Booked("FRT2", "SAIA", "900.00", "USD", 800, MON)], "production")
        fill(store, [Booked("FRT3", "ODFL", "7.00", "USD", 10, MON)], "demo")
    finally:
        store.close()
    spend = freight("report", "spend", "--format", "json")  # the config's sandbox profile
    assert spend.status == 0, spend.err
    assert [(r["carrier"], r["total"]) for r in json.loads(spend.out)] == [("ODFL", "100.10")]
    demo = json.loads(freight("--demo", "report", "carriers", "--format", "json").out)
    assert [(r["carrier"], r["shipments"]) for r in demo] == [("ODFL", 1)]
    assert "7.00" in freight("--demo", "report", "spend").out
