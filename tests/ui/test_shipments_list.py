"""The shipments list against a sandbox holding 2,000 shipments: paging, filters, text, sort."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.ui.test_shipments_support import (
    app_on,
    open_shipments,
    seeded_sandbox,
    shipments_screen,
    wait_for,
)


async def test_paging_to_the_end_loads_every_shipment_once(tmp_path: Path) -> None:
    sandbox = seeded_sandbox(tmp_path)
    app = app_on(httpx.ASGITransport(app=sandbox))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_shipments(pilot, app)
        screen = shipments_screen(app)
        assert "loaded, more…" in str(table.border_title)
        for _ in range(200):
            if screen.is_complete:
                break
            await pilot.press("G")
            await wait_for(pilot, lambda: not screen.is_loading, what="page")
        assert screen.is_complete
        ids = [row.id for row in table.rows()]
        assert len(ids) == 2000
        assert len(set(ids)) == 2000
        assert str(table.border_title).startswith("Shipments · 2,000 shipments, all loaded")
        await pilot.press("G")
        assert table.cursor_row == 1999
    sandbox.close()
