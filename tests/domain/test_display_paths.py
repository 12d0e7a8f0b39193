"""Paths on an 80-column screen: home as `~`, shortened in the middle, the file name whole."""

from __future__ import annotations

import pytest

from tui.domain.display_paths import display_path, home_relative, middle_short

HOME = "/home/warehouse-operator"
EXPORT = f"{HOME}/.local/share/freight-tui/exports/freight-shipments-2026-11-25.csv"


def test_home_reads_as_a_tilde() -> None:
    assert home_relative(EXPORT, HOME).startswith("~/.local/share/")
    assert home_relative(HOME, HOME) == "~"
    assert home_relative("/home/warehouse-operator2/x", HOME) == "/home/warehouse-operator2/x"
    assert home_relative("/tmp/x.csv", HOME) == "/tmp/x.csv"


@pytest.mark.parametrize("width", [80, 60, 48, 40, 30, 12, 1, 0])
def test_a_long_path_keeps_its_start_and_end_within_the_width(width: int) -> None:
    shown = display_path(EXPORT, width, HOME)
    assert len(shown) <= width
    if width >= 48:
        assert shown.startswith("~/.local/")
        assert shown.endswith("/freight-shipments-2026-11-25.csv")  # the file name whole
    if len(home_relative(EXPORT, HOME)) > width > 1:
        assert "…" in shown


def test_a_short_path_is_left_whole() -> None:
    assert middle_short("~/out.csv", 40) == "~/out.csv"
    assert display_path("/tmp/a.csv") == "/tmp/a.csv"
