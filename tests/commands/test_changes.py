"""``freight pickup``, ``freight cancel`` and ``freight batch cancel`` on the live sandbox."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.commands.conftest import Runner
from tests.commands.test_batch import configured, orders_file  # noqa: F401 (a fixture)
from tui.commands.changes import confirmed, window_of
from tui.commands.exits import UsageError
from tui.sandbox.calendar import next_business_day
from tui.vocabulary import GLOSSARY


def _booked(freight: Runner, path: Path) -> dict[str, dict[str, Any]]:
    assert freight("batch", "rate", str(path)).status == 0
    result = freight("batch", "book", str(path), "--yes", "--format", "json")
    assert result.status == 0, result.err
    return {str(r["order"]): r for r in json.loads(result.out)}


def test_pickup_moves_cancels_and_a_cancel_goes_out_once(
    freight: Runner,
    configured: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    booked = _booked(freight, orders_file(tmp_path))
    a1, a2 = str(booked["A1"]["proNumber"]), str(booked["A2"]["proNumber"])
    today = datetime.now(UTC).date()
    day = next_business_day(next_business_day(today, include=False), include=False)
    moved = freight("pickup", a2, "--date", day.isoformat(), "--window", "09:00-15:00")
    assert moved.status == 0, moved.err
    assert f"pickup on {day}, 09:00-15:00" in moved.out
    shown = freight("track", a2).out
    assert next(line for line in shown.splitlines() if line.startswith("Pickup")).endswith(
        day.isoformat()
    )
    dropped = freight("pickup", a2, "--cancel")
    assert dropped.status == 0, dropped.err
    assert "pickup canceled" in dropped.out

    first = freight("cancel", a2)
    assert first.status == 0, first.err
    assert first.out.strip().endswith("canceled.")
    again = freight("cancel", a2)
    assert again.status == 0
    assert "canceled before (recorded)" in again.out

    batch = freight("batch", "cancel", str(tmp_path / "orders.csv"), "A1", "--yes")
    assert batch.status == 0, batch.err
    assert batch.out.strip().endswith("canceled.")
    listed = json.loads(freight("track", a1, "--format", "json").out)[0]
    assert listed["status"] == "canceled"
    late = freight("pickup", a1, "--date", day.isoformat())
    assert late.status == 1
    assert "canceled" in late.out

    audited = freight("report", "audit", "--format", "json")
    assert audited.status == 0, audited.err
    summary = json.loads(audited.out)
    assert (summary["shipments"], summary["canceled"], summary["billedAbove"]) == (2, 2, [])
    assert set(summary) <= set(GLOSSARY)
    assert "2 canceled" in freight("report", "audit").out


def test_a_name_no_shipment_has_is_not_found_and_flags_are_checked(
    freight: Runner,
    configured: Path,  # noqa: F811
) -> None:
    missing = freight("cancel", "NO-SUCH-PRO-1")
    assert missing.status == 3
    assert freight("pickup", "X1").status == 2  # no --date, no --cancel
    assert freight("pickup", "X1", "--date", "2026-12-09", "--cancel").status == 2


def test_a_window_reads_as_ready_and_close() -> None:
    assert [t.isoformat() for t in window_of("8:00 - 16:30")] == ["08:00:00", "16:30:00"]
    for bad in ("16:00-08:00", "morning", "25:00-26:00"):
        with pytest.raises(UsageError):
            window_of(bad)


async def test_production_asks_and_a_script_needs_yes(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    assert await confirmed("sandbox", "Cancel?", False, err)
    assert await confirmed("production", "Cancel?", True, err)
    monkeypatch.setattr("sys.stdin", io.StringIO("yes\n"))
    with pytest.raises(UsageError, match="--yes"):
        await confirmed("production", "Cancel?", False, err)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("no\n"))
    assert not await confirmed("production", "Cancel?", False, err)
    monkeypatch.setattr("sys.stdin", Terminal("yes\n"))
    assert await confirmed("production", "Cancel?", False, err)
    assert "(production) Type yes to confirm" in err.getvalue()
