"""Reading order files of every layout the tests make: delimiters, encodings, line ends,
quoted fields, decimal commas, Excel workbooks and pasted text."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from tests.batch.conftest import WMS_EXPORT, write
from tui.batch.source import SourceError, column_letter, parse_text, read_file

HEADER = "Order,Zip,Weight,Notes"


@pytest.mark.parametrize(
    ("delimiter", "name"), [(",", "comma"), (";", "semicolon"), ("\t", "tab"), ("|", "pipe")]
)
def test_the_delimiter_is_sniffed(tmp_path: Path, delimiter: str, name: str) -> None:
    rows = [
        ["Order", "Zip", "Weight", "Notes"],
        ["A1", "30303", "800", "call, then deliver"],
        ["A2", "60607", "450", "dock 3"],
    ]
    lines = [
        delimiter.join(f'"{c}"' if delimiter in c or "," in c else c for c in row) for row in rows
    ]
    sheet = read_file(write(tmp_path / "orders.txt", "\n".join(lines) + "\n"))
    assert sheet.delimiter == delimiter
    assert sheet.delimiter_name == name
    assert sheet.headers == ("Order", "Zip", "Weight", "Notes")
    assert sheet.rows[0].cells == ("A1", "30303", "800", "call, then deliver")


def test_a_semicolon_file_with_commas_in_its_text_is_still_semicolons(tmp_path: Path) -> None:
    text = "Auftrag;PLZ;Bemerkung\nA1;10115;bitte anrufen, dann liefern\nA2;20095;Rampe 3, Tor 2\n"
    sheet = read_file(write(tmp_path / "o.csv", text))
    assert sheet.delimiter == ";"
    assert sheet.rows[1].cells == ("A2", "20095", "Rampe 3, Tor 2")


@pytest.mark.parametrize(
    ("encoding", "bom", "read_as"),
    [
        ("utf-8", b"\xef\xbb\xbf", "utf-8-sig"),
        ("utf-8", b"", "utf-8"),
        ("utf-16", b"", "utf-16"),  # Python's utf-16 writes its BOM
        ("utf-16-le", b"", "utf-16-le"),
        ("utf-16-be", b"", "utf-16-be"),
        ("cp1252", b"", "cp1252"),
    ],
)
def test_the_encoding_is_detected(tmp_path: Path, encoding: str, bom: bytes, read_as: str) -> None:
    text = f"{HEADER}\nA1,30303,800,Crème de la Crème\nA2,60607,450,Café «Zoë» – €\n"
    path = tmp_path / "o.csv"
    path.write_bytes(bom + text.encode(encoding))
    sheet = read_file(path)
    assert sheet.encoding == read_as
    assert sheet.headers[0] == "Order"
    assert sheet.rows[0].cells[3] == "Crème de la Crème"
    assert sheet.rows[1].cells[3] == "Café «Zoë» – €"
    if encoding == "cp1252":
        assert any("cp1252" in note for note in sheet.notes)


def test_an_encoding_given_wins_and_a_wrong_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "o.csv"
    path.write_bytes(f"{HEADER}\nA1,30303,800,Zoë\n".encode("latin-1"))
    assert read_file(path, encoding="latin-1").rows[0].cells[3] == "Zoë"
    path.write_bytes(f"{HEADER}\nA1,30303,800,Zoë\n".encode("cp1252"))
    with pytest.raises(SourceError, match="not utf-8"):
        read_file(path, encoding="utf-8")
    with pytest.raises(SourceError, match="unknown encoding"):
        read_file(path, encoding="klingon")


def test_crlf_and_quoted_fields_spanning_lines_keep_spreadsheet_row_numbers(
    tmp_path: Path,
) -> None:
    text = (
        f"{HEADER}\n"
        'A1,30303,800,"first line\nsecond line, with a comma"\n'
        "\n"
        'A2,60607,450,"say ""hi"""\n'
    )
    sheet = read_file(write(tmp_path / "o.csv", text, newline="\r\n"))
    assert sheet.line_ending == "\r\n"
    assert [row.number for row in sheet.rows] == [2, 4]  # the blank row 3 still counts
    assert sheet.rows[0].cells[3] == "first line\nsecond line, with a comma"
    assert sheet.rows[1].cells[3] == 'say "hi"'


def test_old_mac_line_endings_and_a_unit_separator_in_a_cell_read_as_written(
    tmp_path: Path,
) -> None:
    text = f"{HEADER}\rA1,30303,800,plain\rA2,60607,450,odd \x1f byte\r"
    sheet = read_file(write(tmp_path / "o.csv", text))
    assert [row.number for row in sheet.rows] == [2, 3]
    assert sheet.rows[0].cells == ("A1", "30303", "800", "plain")
    assert sheet.rows[1].cells == ("A2", "60607", "450", "odd \x1f byte")


def test_short_rows_are_padded_and_duplicate_or_blank_headers_named(tmp_path: Path) -> None:
    sheet = read_file(write(tmp_path / "o.csv", "Order,Weight,,Weight\nA1,800\n"))
    assert sheet.headers == ("Order", "Weight", "Column C", "Weight (2)")
    assert sheet.rows[0].cells == ("A1", "800", "", "")
    assert column_letter(0) == "A"
    assert column_letter(26) == "AA"


@pytest.mark.parametrize(
    ("text", "comma"),
    [
        ("Order;Weight\nA1;12,5\nA2;1.250,75\n", True),
        ('Order,Weight\nA1,12.5\nA2,"1,250.75"\n', False),
        ("Order;Weight\nA1;800\n", True),  # no evidence: a semicolon file writes commas
        ("Order,Weight\nA1,800\n", False),
        ('Order\tWeight\nA1\t"1,250"\nA2\t3,5\n', True),
    ],
)
def test_decimal_commas_are_decided_from_the_file(tmp_path: Path, text: str, comma: bool) -> None:
    assert read_file(write(tmp_path / "o.csv", text)).decimal_comma is comma


def test_pasted_text_from_a_spreadsheet_is_tab_separated() -> None:
    sheet = parse_text("Order\tZip\tWeight\nA1\t30303\t800\nA2\t60607\t450")
    assert sheet.kind == "text"
    assert sheet.delimiter == "\t"
    assert [row.cells for row in sheet.rows] == [("A1", "30303", "800"), ("A2", "60607", "450")]


def test_an_excel_workbook_reads_as_a_person_sees_it(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Order", "Ship Date", "Zip", "Weight", "Class", "Liftgate"])
    sheet.append(["A1", datetime(2026, 11, 25), 6060, 800, 92.5, True])
    sheet.append(["A2", date(2026, 11, 30), "07030", 1250.25, None, False])
    path = tmp_path / "orders.xlsx"
    book.save(path)
    read = read_file(path)
    assert read.kind == "xlsx"
    assert read.headers == ("Order", "Ship Date", "Zip", "Weight", "Class", "Liftgate")
    assert read.rows[0].cells == ("A1", "2026-11-25", "6060", "800", "92.5", "TRUE")
    assert read.rows[1].cells == ("A2", "2026-11-30", "07030", "1250.25", "", "FALSE")
    assert read.encoding == "utf-8-sig"
    assert read.delimiter == ","


def test_files_that_are_not_order_files_say_why(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        read_file(tmp_path / "missing.csv")
    with pytest.raises(SourceError, match="no rows"):
        read_file(write(tmp_path / "empty.csv", "\n\n"))
    with pytest.raises(SourceError, match="header"):
        read_file(write(tmp_path / "one.csv", "just one column\nA\n"))
    (tmp_path / "fake.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(SourceError, match="not an Excel workbook"):
        read_file(tmp_path / "fake.xlsx")


def test_the_warehouse_export_reads_whole() -> None:
    sheet = read_file(WMS_EXPORT)
    assert sheet.encoding == "utf-8-sig"
    assert sheet.line_ending == "\r\n"
    assert sheet.delimiter == ","
    assert sheet.decimal_comma is False
    assert len(sheet.rows) == 197
    assert sheet.headers[:3] == ("Order No", "Ship Date", "Ship From Zip")
    assert sheet.rows[-1].number == 198
