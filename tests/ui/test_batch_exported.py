"""Issue 37, item 5: a shipment a batch booked carries the batch's order number in the
Shipments screen's export, as ``freight shipments`` writes it (the store's booking, joined by
shipment id)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from tests.ui.screen import settle, wait_for
from tests.ui.test_batch import monday, open_file, rate, sandbox, session, two_orders  # noqa: F401
from tests.ui.test_shipments_support import open_shipments
from tui.app import make_app
from tui.screens.batch_confirm import BatchConfirmScreen
from tui.screens.shipments_export import ExportDialog
from tui.session import Session

pytestmark = pytest.mark.slow  # a batch booked by keyboard, then two exports


async def test_the_shipments_export_names_the_batchs_order(
    session: Session,  # noqa: F811
    tmp_path: Path,
) -> None:
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, two_orders(tmp_path, "EX"))
        await rate(pilot, screen)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchConfirmScreen), what="confirm")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.runs.is_booking, what="booking to start")
        await wait_for(pilot, lambda: not screen.runs.is_booking, 60, "booking to end")
        await settle(pilot)
        batch = screen.current_batch
        assert batch is not None
        booked = {batch.state(key).shipment_id: key for key in ("EX1", "EX2")}
        assert all(booked)
        assert len(booked) == 2
        await open_shipments(pilot, app)
        written: dict[str, list[dict[str, str | None]]] = {}
        for choice, suffix in (("json", ".json"), ("csv-plain", ".csv")):
            await pilot.press("e")
            await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog), what="export")
            dialog = app.screen
            dialog.query_one("#export-format", Select).value = choice
            await pilot.pause()
            target = tmp_path / f"all{suffix}"
            dialog.query_one("#export-path", Input).value = str(target)
            await pilot.press("enter")
            await wait_for(pilot, lambda: not isinstance(app.screen, ExportDialog), what="done")
            text = target.read_text(encoding="utf-8")
            written[choice] = (
                json.loads(text) if choice == "json" else list(csv.DictReader(io.StringIO(text)))
            )
    for choice, records in written.items():
        orders = {r["shipmentId"]: r["order"] for r in records if r["shipmentId"] in booked}
        assert orders == booked, choice  # each booked shipment with its order number
        others = [r["order"] for r in records if r["shipmentId"] not in booked]
        assert others, choice
        assert set(others) <= {None, ""}, choice  # none for the others
        refs = [r["bookingReference"] for r in records if r["shipmentId"] in booked]
        assert all(str(ref).startswith("FRT") for ref in refs), choice
