"""Schema version 5: the day's bookings are found by index, and the demo's bookings that a
command kept as ``sandbox`` are the demo's (``demo``), as the app keeps them."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tests.store.conftest import OpenStore
from tests.store.older import before_version_8
from tui.store import open_store
from tui.store.ledger import StoreLedger
from tui.store.schema import VERSION

DAY = date(2026, 11, 24)


def test_version_4_names_the_demos_bookings_demo(
    connect: OpenStore, tmp_path: Path, store_url: str
) -> None:
    store = connect()
    insert = (
        "INSERT INTO bookings (reference, account, environment, order_number, station, profile,"
        " quote_id, rate_id, sent_at, updated, outcome, pickup_date)"
        " VALUES (?, ?, ?, ?, 'desk', ?, 'q', 'r', ?, ?, 'booked', ?)"
    )
    when = "2026-11-20T15:00:00+00:00"
    with store.engine.write() as tx:
        for reference, account, environment, order in (
            ("FRT1", "demo", "sandbox", "A1"),  # the CLI's demo booking
            ("FRT2", "demo", "sandbox", "A2"),  # its order booked by the app too: kept
            ("FRT3", "demo", "demo", "A2"),
            ("FRT4", "acme", "sandbox", "A1"),  # a real sandbox account's
        ):
            tx.run(
                insert, (reference, account, environment, order, account, when, when, "2026-11-24")
            )
        before_version_8(tx, store.dialect.name)
        tx.run("DROP INDEX bookings_by_pickup")
        tx.run("DROP INDEX bookings_by_shipment")
        tx.run("DROP TABLE store_history")  # version 6's
        tx.run("UPDATE schema_version SET version = 4")
    again = open_store(tmp_path / "data", store_url, migrate=True)  # freight store migrate
    assert again.version() == VERSION
    demo = StoreLedger(again, "desk", "demo").on_day(DAY, account="demo")
    assert sorted(r.reference for r in demo) == ["FRT1", "FRT3"]
    sandbox = StoreLedger(again, "desk", "sandbox").on_day(DAY)
    assert sorted(r.reference for r in sandbox) == ["FRT2", "FRT4"]
    again.close()
