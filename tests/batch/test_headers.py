"""The header of an order file found under its title rows, with the rows numbered as a
spreadsheet shows them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.conftest import write
from tui.batch.fields import looks_like_header
from tui.batch.source import SourceError, read_file

ROWS = "A1,30303,2,Pallet,800,48x40x48\nA2,75207,1,Crate,350,40x30x36\n"


def test_a_csv_header_under_a_title_and_a_date_row(tmp_path: Path) -> None:
    path = write(
        tmp_path / "report.csv",
        "Open orders report,,,,,\nPrinted 2026-11-23,,,,,\n,,,,,\n"
        "Order,Zip,Qty,Package,Weight,Dims\n" + ROWS,
    )
    sheet = read_file(path, is_header=looks_like_header)
    assert sheet.header_row == 4
    assert sheet.headers == ("Order", "Zip", "Qty", "Package", "Weight", "Dims")
    assert [row.number for row in sheet.rows] == [5, 6]
    assert "the header is on row 4 (the rows above it are skipped)" in sheet.notes
    assert read_file(path).header_row == 4  # found without the mapping's help too


def test_a_wrong_delimiter_still_says_so(tmp_path: Path) -> None:
    path = write(tmp_path / "semi.csv", "Order;Zip;Weight\nA1;30303;800\n")
    with pytest.raises(SourceError, match="Is the delimiter right"):
        read_file(path, delimiter=",", is_header=looks_like_header)


def test_sheet_is_only_for_workbooks(tmp_path: Path) -> None:
    path = write(tmp_path / "o.csv", "Order,Zip,Qty,Package,Weight,Dims\n" + ROWS)
    with pytest.raises(SourceError, match="is not a workbook"):
        read_file(path, sheet="Orders")
