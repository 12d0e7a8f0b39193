"""The Reports screen's Audit view on the sandbox: the shipments billed above their booked
price (the store's prices, the listing's bills), their cause and totals, and the CSV."""

from __future__ import annotations

import csv
import json
import sqlite3
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

import tui.screens.reports
from tests.reports.test_audit import put_booked
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import FreightApp, make_app
from tui.config.settings import ItemTemplate, Location
from tui.domain.freight_class import format_class
from tui.domain.locations import LocationType
from tui.sandbox import SandboxConfig, billing
from tui.sandbox.app import SandboxApp
from tui.screens.reports import ReportsScreen
from tui.screens.reports_audit import AuditExportDialog, AuditFixConfirm, AuditPanel
from tui.session import Session
from tui.store import ledger_environment, open_store

pytestmark = pytest.mark.slow  # each books or reads a sandbox of its own: ≥ 4 s

NOW = datetime(2026, 11, 28, 15, 0, tzinfo=UTC)
TODAY = NOW.date()
FIRST, LAST = date(2026, 11, 1), date(2026, 11, 30)


def squashed(app: FreightApp) -> str:
    """The screen's text without whitespace (a message may wrap)."""
    return "".join(screen_text(app).split())


@pytest.fixture
def sandbox_config(sandbox_config: SandboxConfig) -> SandboxConfig:
    """The usual 200 seeded shipments, on a fixed clock (bills come days after pickup)."""
    return replace(sandbox_config, now=lambda: NOW, clock_speed=1.0)


@pytest.fixture
def billed(
    ui_session: Session, sandbox_app: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> dict[str, billing.Adjustment]:
    """Each sandbox shipment picked up in November booked in the store at its quoted price;
    the adjustments the sandbox bills them with, by shipment id."""
    monkeypatch.setattr(tui.screens.reports, "today", lambda: TODAY)
    return book_sandbox(ui_session, sandbox_app, date(2026, 11, 2))


def book_sandbox(
    ui_session: Session, sandbox_app: SandboxApp, first: date
) -> dict[str, billing.Adjustment]:
    """Each sandbox shipment picked up from ``first`` to November's end booked in the store
    at its quoted price; the adjustments the sandbox bills them with, by shipment id."""
    now_s = int(NOW.timestamp())
    with sandbox_app.db.lock() as conn:
        rows: list[sqlite3.Row] = list(conn.execute("SELECT * FROM shipments ORDER BY seq"))

    def day(row: sqlite3.Row) -> date | None:
        at = row["pickup_at"]
        return None if at is None else datetime.fromtimestamp(int(at), UTC).date()

    inside = [r for r in rows if (d := day(r)) is not None and first <= d <= LAST]
    store = open_store(ui_session.data_dir, "")
    try:
        environment = ledger_environment(ui_session.profile_name, ui_session.environment)
        put_booked(
            store,
            [(r["id"], r["pro"] or "", r["carrier_name"], f"{r['total_cents'] / 100:.2f}",
              "USD", str(day(r))) for r in inside],
            environment=environment,
        )  # fmt: skip
    finally:
        store.close()
    found = {r["id"]: a for r in inside if (a := billing.adjustment(r, now_s)) is not None}
    assert len(found) >= 3
    return found


async def test_the_audit_view_lists_bills_above_the_booking_and_exports_a_csv(
    ui_session: Session, billed: dict[str, billing.Adjustment], tmp_path: Path
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("alt+6")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        screen = app.screen
        await pilot.press("5")
        panel = screen.query_one(AuditPanel)
        await wait_for(pilot, lambda: panel.report is not None, what="the audit")
        await settle(pilot)
        report = panel.report
        assert report is not None
        assert {line.shipment_id: line.cause for line in report.lines} == {
            sid: found.cause for sid, found in billed.items()
        }
        text = screen_text(app)
        top = report.lines[0]
        assert f"{len(billed)} billed above" in text
        assert f"+{top.difference:,.2f} USD" in text
        assert top.cause in text
        assert "Per carrier" in text
        assert "Per cause" in text
        path = tmp_path / "audit.csv"
        path.write_text("kept\n", encoding="utf-8")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, AuditExportDialog))
        app.screen.query_one("#audit-export-path", Input).value = str(path)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "exists:Enteragainreplaces" in squashed(app))
        assert path.read_text(encoding="utf-8") == "kept\n"  # never replaced without asking
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen), what="written")
        with path.open(encoding="utf-8-sig", newline="") as sheet:
            rows = list(csv.DictReader(sheet))
        assert {row["shipmentId"]: row["cause"] for row in rows} == {
            sid: found.cause for sid, found in billed.items()
        }
        assert f"Wrote{len(billed)}shipments" in squashed(app)


async def select_line(pilot: Pilot[Any], panel: AuditPanel, sid: str) -> None:
    report = panel.report
    assert report is not None
    index = [line.shipment_id for line in report.lines].index(sid)
    await pilot.press("home")  # (a scroll key: the selection stays where it is)
    while panel.selected != index:
        await pilot.press("down" if panel.selected < index else "up")


async def test_a_reclass_or_an_accessorial_offers_to_update_the_users_own_data(
    ui_session: Session, sandbox_app: SandboxApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tui.screens.reports, "today", lambda: TODAY)
    billed = book_sandbox(ui_session, sandbox_app, date(2026, 10, 1))  # the quarter's
    reclass = next(sid for sid, found in billed.items() if found.cause == "reclass")
    added = next(sid for sid, found in billed.items() if found.accessorial is not None)
    with sandbox_app.db.lock() as conn:
        rows = {r["id"]: r for r in conn.execute("SELECT * FROM shipments")}
    items = json.loads(rows[reclass]["items"])
    item = max(items, key=lambda i: float(i["weight"]) * i["quantity"])
    before = Decimal(str(item.get("freightClass") or 70))
    template = ItemTemplate(name="Our crate", weight=Decimal(100), length=Decimal(40),
                            width=Decimal(40), height=Decimal(40), freight_class=before,
                            description=item["description"])  # fmt: skip
    other = template.model_copy(update={"name": "Other", "description": "Something else"})
    ui_session.change_profile(item_templates=[other, template])
    place = rows[added]
    ui_session.save_address(Location(company=place["d_company"], postal_code=place["d_zip"]))
    kind = {"residential delivery": LocationType.RESIDENTIAL, "liftgate delivery":
            LocationType.BUSINESS_NO_DOCK, "limited access delivery": LocationType.LIMITED_ACCESS}[
        billed[added].accessorial or ""]  # fmt: skip
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+6")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        screen = app.screen
        await pilot.press("5", "p", "p")  # the quarter: October to December
        panel = screen.query_one(AuditPanel)
        await wait_for(pilot, lambda: "Q4" in screen_text(app) and panel.report is not None)
        assert set(panel.fixes) == {reclass, added}
        await select_line(pilot, panel, reclass)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, AuditFixConfirm))
        after = billed[reclass].items[items.index(item)]["freightClass"]
        change = f"class {format_class(before)} → {format_class(Decimal(str(after)))}"
        assert change in squashed_spaces(app)
        assert "item template “Our crate”" in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: reclass not in panel.fixes, what="the template updated")
        saved = {t.name: t.freight_class for t in ui_session.profile.item_templates}
        assert saved == {"Other": before, "Our crate": Decimal(str(after))}
        await select_line(pilot, panel, added)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, AuditFixConfirm))
        assert f"Business with dock → {kind.label}" in squashed_spaces(app)
        await pilot.press("n")  # leave it: nothing changes
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen))
        assert added in panel.fixes
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, AuditFixConfirm))
        await pilot.press("y")
        await wait_for(pilot, lambda: added not in panel.fixes, what="the address updated")
    book = ui_session.address_book()
    assert [e.location_type for e in book if e.company == place["d_company"]] == [kind]


def squashed_spaces(app: FreightApp) -> str:
    """The screen's text with runs of spaces as one (a dialog's line may wrap)."""
    return " ".join(screen_text(app).split())
