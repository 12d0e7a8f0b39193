"""Served (`freight serve`), the Batch screen offers results only inside the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.batch import sample_path
from tui.batch.results import results_refusal, suggested_results
from tui.batch.source import read_file
from tui.workspace import files_dir


def test_served_results_are_offered_in_the_workspace_whatever_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    monkeypatch.setenv("FREIGHT_WORKSPACE", str(workspace))
    files = files_dir(tmp_path / "data")
    assert files == workspace
    # The demo's sample (Freight's own, read-only to a served session): results to the
    # workspace.
    assert suggested_results(read_file(sample_path()), files) == workspace / (
        "demo-orders-results.csv"
    )
    # An input beside a folder this user may write, but outside the workspace: the workspace.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    orders = elsewhere / "orders.csv"
    orders.write_text("order,zip,weight\nA1,30303,120\n", encoding="utf-8")
    assert results_refusal(elsewhere / "orders-results.csv") is None
    assert suggested_results(read_file(orders), files) == workspace / "orders-results.csv"
    # In the workspace: beside the input, as in a terminal.
    inner = workspace / "day.csv"
    inner.write_text("order,zip,weight\nA1,30303,120\n", encoding="utf-8")
    assert suggested_results(read_file(inner), files) == workspace / "day-results.csv"
