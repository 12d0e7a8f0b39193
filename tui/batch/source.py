"""Read an order file (CSV, TSV, .xlsx) or pasted text into a sheet of rows, as a person sees it.

A sheet keeps what the results file needs to look like its input: the delimiter, the encoding
(with its byte-order mark), the line ending, and whether numbers use a decimal comma. Row
numbers are those a spreadsheet shows: the header is row 1 (blank rows count, a quoted field
that spans lines is one row).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Final, Literal

DELIMITERS: Final = (",", ";", "\t", "|")
"""The delimiters sniffed, in the order a tie is broken."""
DELIMITER_NAMES: Final = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
MAX_BYTES: Final = 64 * 1024 * 1024
"""A file larger than this is refused (an order export is far smaller)."""
MAX_INFLATED: Final = 200 * 1024 * 1024
"""A workbook whose parts inflate to more than this is refused before any is inflated."""
_HEADER_SEARCH: Final = 30
"""Rows searched for the header (title rows above it are skipped)."""
_SNIFF_CHARS: Final = 256 * 1024
_SNIFF_RECORDS: Final = 200
_HEAVY_NULS: Final = 0.2

Kind = Literal["csv", "xlsx", "text"]
HeaderTest = Callable[[Sequence[str]], bool]
"""Whether a row's cells look like an order file's header (the mapping's guess decides)."""


class SourceError(Exception):
    """The file cannot be read as an order file; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Row:
    """One data row: its number as a spreadsheet shows it, and its cells (as text)."""

    number: int
    packed: str | tuple[str, ...]
    """The cells joined by a unit separator (one string, not a tuple of them: a file of
    200,000 rows is held in half the memory), or the tuple when a cell holds that character."""

    @classmethod
    def of(cls, number: int, cells: Sequence[str]) -> Row:
        """A row of these cells."""
        joined = _UNIT.join(cells)
        if not cells or joined.count(_UNIT) != len(cells) - 1:
            return cls(number, tuple(cells))
        return cls(number, joined)

    @property
    def cells(self) -> tuple[str, ...]:
        """Its cells, as text."""
        packed = self.packed
        return packed if isinstance(packed, tuple) else tuple(packed.split(_UNIT))


_UNIT: Final = "\x1f"


@dataclass(frozen=True)
class Sheet:
    """The header and the data rows of an order file, and how the file was written."""

    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    kind: Kind = "csv"
    delimiter: str = ","
    encoding: str = "utf-8"
    """The codec that read it: ``utf-8-sig`` (with a BOM), ``utf-16``, ``cp1252``…"""
    line_ending: str = "\n"
    decimal_comma: bool = False
    """Numbers are written ``1.250,5`` (decided from the file, or given)."""
    header_row: int = 1
    source: str = ""
    """Where it came from (the path, or ``pasted text``)."""
    notes: tuple[str, ...] = field(default=())
    """What was decided while reading (encoding guessed, decimal commas…)."""
    set_aside: tuple[str, ...] = field(default=())
    """Rows not read as orders, each with why: a footer's ``Total``, a summary row."""

    @property
    def delimiter_name(self) -> str:
        """``comma``, ``semicolon``, ``tab`` or ``pipe``."""
        return DELIMITER_NAMES.get(self.delimiter, repr(self.delimiter))

    def column(self, header: str) -> int | None:
        """The index of the column with this header (spaces and case ignored), or None."""
        wanted = header_key(header)
        for index, name in enumerate(self.headers):
            if header_key(name) == wanted:
                return index
        return None


def header_key(text: str) -> str:
    """A header as compared: case and runs of spaces ignored."""
    return " ".join(text.split()).casefold()


# -- decoding --------------------------------------------------------------------------------


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text of ``data`` and the codec that read it.

    A byte-order mark decides (UTF-8, UTF-16); else a file with many NUL bytes is UTF-16; else
    UTF-8 when it decodes, else cp1252 (Windows' Western European). ``encoding`` overrides all
    of it (a BOM of that encoding is still dropped). Raises SourceError.
    """
    if encoding:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise SourceError(
                f"unknown encoding {encoding!r} (e.g. utf-8, cp1252, utf-16)"
            ) from None
        if codec == "utf-8" and data.startswith(codecs.BOM_UTF8):
            codec = "utf-8-sig"
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError as exc:
            raise SourceError(
                f"the file is not {encoding}: byte {exc.start} cannot be read as {encoding}"
            ) from None
    if data.startswith(codecs.BOM_UTF8):
        return _strict(data, "utf-8-sig"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(data, "utf-16"), "utf-16"
    sample = data[:4096]
    if sample and sample.count(0) / len(sample) > _HEAVY_NULS:
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        codec = "utf-16-le" if odd >= even else "utf-16-be"
        return _strict(data, codec), codec
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"


def _strict(data: bytes, codec: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"the file starts like {codec} but byte {exc.start} is not; "
            "give the encoding (--encoding)"
        ) from None


# -- delimited text ----------------------------------------------------------------------------


def sniff_delimiter(text: str) -> str:
    """The delimiter that splits the first records into the most columns, most consistently."""
    sample = text[:_SNIFF_CHARS]
    best: tuple[float, int, int] | None = None
    chosen = ","
    for rank, delimiter in enumerate(DELIMITERS):
        if delimiter not in sample:
            continue
        counts = [
            len(record)
            for record in _records(sample, delimiter, _SNIFF_RECORDS)
            if any(cell.strip() for cell in record)
        ]
        if len(counts) > 1:
            counts = counts[:-1]  # the sample may cut the last record short
        if not counts:
            continue
        width, times = Counter(counts).most_common(1)[0]
        if width < 2:
            continue
        score = (times / len(counts), width, -rank)
        if best is None or score > best:
            best, chosen = score, delimiter
    return chosen


def _records(text: str, delimiter: str, limit: int | None = None) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    out: list[list[str]] = []
    try:
        for record in reader:
            out.append(record)
            if limit is not None and len(out) >= limit:
                break
    except csv.Error:
        pass
    return out


def _line_ending(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def parse_text(
    text: str,
    *,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    kind: Kind = "text",
    source: str = "pasted text",
    decimal_comma: bool | None = None,
    notes: tuple[str, ...] = (),
    is_header: HeaderTest | None = None,
) -> Sheet:
    """A sheet from delimited text (the delimiter sniffed unless given). Raises SourceError."""
    text = text.removeprefix("\ufeff")
    if delimiter is None:
        delimiter = sniff_delimiter(text)
    elif delimiter not in DELIMITERS:
        raise SourceError("the delimiter must be one of , ; | or tab")
    # The records are read as the lines are cut (no copy of the text, no list of raw records):
    # a big file is held once, as the sheet's rows.
    reader = csv.reader(_lines(text), delimiter=delimiter, strict=False)
    numbered = _numbered(reader)
    return _sheet(
        numbered,
        kind=kind,
        delimiter=delimiter,
        encoding=encoding,
        line_ending=_line_ending(text),
        source=source,
        decimal_comma=decimal_comma,
        notes=notes,
        is_header=is_header,
    )


_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their endings, as a file opened with ``newline=""`` gives
    them (``\r\n``, ``\r`` or ``\n``), cut one at a time."""
    for match in _LINE.finditer(text):
        yield match.group()


def _numbered(reader: Iterator[list[str]]) -> Iterator[tuple[int, list[str]]]:
    """Each record with its row number; a broken one raises SourceError."""
    number = 0
    try:
        for record in reader:
            number += 1
            yield number, record
    except csv.Error as exc:
        raise SourceError(f"row {number + 1}: {exc}") from None


def _clean(cell: str) -> str:
    """A cell as read: line breaks inside a quoted field become ``\\n``; ends trimmed."""
    return cell.replace("\r\n", "\n").replace("\r", "\n").strip()


def _sheet(
    numbered: Iterable[tuple[int, list[str]]],
    *,
    kind: Kind,
    delimiter: str,
    encoding: str,
    line_ending: str,
    source: str,
    decimal_comma: bool | None,
    notes: tuple[str, ...],
    is_header: HeaderTest | None = None,
) -> Sheet:
    # One pass over the records as they are read: the first rows are held to find the
    # header, every later one goes straight into the sheet (its cells as one string).
    records = iter(numbered)
    head: list[tuple[int, list[str]]] = []
    for n, raw in records:
        cells = [_clean(text) for text in raw]
        if any(cells):
            head.append((n, cells))
            if len(head) >= _HEADER_SEARCH:
                break
    if not head:
        raise SourceError("the file has no rows")
    at = find_header(head, is_header)
    if at is None:
        raise SourceError(
            f"row {head[0][0]} should be the header (the columns' names); it has one cell. "
            "Is the delimiter right? (--delimiter)"
        )
    header_row, header_cells = head[at]
    if at:
        notes = (*notes, f"the header is on row {header_row} (the rows above it are skipped)")
    headers = _unique_headers(header_cells)
    width = len(headers)
    pad = [""] * width
    data: list[Row] = [Row.of(n, (cells + pad)[:width]) for n, cells in head[at + 1 :]]
    head.clear()
    for n, raw in records:
        cells = [_clean(text) for text in raw]
        if any(cells):
            data.append(Row.of(n, (cells + pad)[:width]))
    set_aside = tuple(
        f"row {row.number} set aside: {summary!r} starts a total or summary row, not an order"
        for row in data
        if (summary := summary_word(row.cells))
    )
    if set_aside:
        data = [row for row in data if not summary_word(row.cells)]
    rows = tuple(data)
    data.clear()
    if decimal_comma is None:
        decimal_comma = guess_decimal_comma(rows, delimiter)
        if decimal_comma:
            notes = (*notes, "numbers use a decimal comma")
    return Sheet(
        headers=headers,
        rows=rows,
        kind=kind,
        delimiter=delimiter,
        encoding=encoding,
        line_ending=line_ending,
        decimal_comma=decimal_comma,
        header_row=header_row,
        source=source,
        notes=notes,
        set_aside=set_aside,
    )


_SUMMARY: Final = re.compile(
    r"(grand\s+|sub\s*-?\s*|report\s+|page\s+)?(totals?|summary|sum|subtotal|count|"
    r"gesamt|insgesamt|summe|somme|suma|total general)\s*:?\s*"
    r"(\(.*\)|[\d.,\s]*|(orders?|rows?|lines?|items?)\s*:?\s*[\d.,\s]*)",
    re.IGNORECASE,
)


def summary_word(cells: Sequence[str]) -> str:
    """The first written cell of a footer or summary row (``Total``, ``Grand Total:``,
    ``Total orders: 12``, ``Summe``), or '' when it is not one (``Total Tools Inc`` is a
    name, not a total)."""
    first = next((cell for cell in cells if cell), "")
    return first if _SUMMARY.fullmatch(first) else ""


def find_header(
    rows: Sequence[tuple[int, Sequence[str]]], is_header: HeaderTest | None = None
) -> int | None:
    """The index among ``rows`` (blank ones left out) of the header, searched in the first
    rows: one that ``is_header`` accepts, else the first with at least two cells, most of
    them text, as wide as half the widest row (a title row above a header has one cell).
    None when no row can be the header."""
    head = rows[:_HEADER_SEARCH]
    if is_header is not None:
        for index, (_number, cells) in enumerate(head):
            if is_header([cell for cell in cells if cell]):
                return index
    widest = max(sum(1 for c in cells if c) for _n, cells in head)
    for index, (_number, cells) in enumerate(head):
        filled = [cell for cell in cells if cell]
        if len(filled) < max(2, (widest + 1) // 2):
            continue
        texts = sum(1 for cell in filled if not _NUMBER.match(cell))
        if texts * 2 > len(filled):
            return index
    return None


_NUMBER = re.compile(r"^[-+]?[\d.,]+$")


def _unique_headers(cells: list[str]) -> tuple[str, ...]:
    """Header names, a blank one named by its column letter, a repeated one numbered."""
    seen: Counter[str] = Counter()
    out: list[str] = []
    for index, cell in enumerate(cells):
        name = " ".join(cell.split()) or f"Column {column_letter(index)}"
        seen[header_key(name)] += 1
        if seen[header_key(name)] > 1:
            name = f"{name} ({seen[header_key(name)]})"
        out.append(name)
    return tuple(out)


def column_letter(index: int) -> str:
    """``A`` for 0, ``AA`` for 26, as spreadsheets name columns."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


_DECIMAL_COMMA = re.compile(r"^-?\d+,\d{1,2}$|^-?\d+,\d{4,}$|^-?\d{1,3}(\.\d{3})+,\d+$")
_DECIMAL_POINT = re.compile(r"^-?\d+\.\d{1,2}$|^-?\d+\.\d{4,}$|^-?\d{1,3}(,\d{3})+\.\d+$")


def guess_decimal_comma(rows: tuple[Row, ...], delimiter: str) -> bool:
    """Whether the file writes ``12,5`` for twelve and a half.

    Only numbers that cannot be read both ways count (``12,5``, ``1.250,75`` against ``12.5``,
    ``1,250.75``); with none of either, a semicolon-separated file is taken to use decimal
    commas (that is why it is not comma-separated) and any other not.
    """
    commas = points = 0
    for row in rows[:2000]:
        for cell in row.cells:
            if len(cell) > 20 or not cell[:1].isdigit():
                continue
            if _DECIMAL_COMMA.match(cell):
                commas += 1
            elif _DECIMAL_POINT.match(cell):
                points += 1
    if commas or points:
        return commas > points
    return delimiter == ";"


# -- files -------------------------------------------------------------------------------------


def read_file(
    path: Path,
    *,
    encoding: str | None = None,
    delimiter: str | None = None,
    decimal_comma: bool | None = None,
    sheet: str | None = None,
    is_header: HeaderTest | None = None,
) -> Sheet:
    """A sheet from a file: a workbook (by its content, whatever its name: the sheet named, else
    the first whose header ``is_header`` accepts), else delimited text. The header is searched
    under title rows.

    Raises SourceError with a message for the user.
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    if size > MAX_BYTES:
        raise SourceError(f"{path} is {size // (1024 * 1024)} MB; order files up to 64 MB are read")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    if data.startswith(b"PK\x03\x04"):
        return read_xlsx(
            path, decimal_comma=decimal_comma, sheet=sheet, is_header=is_header, data=data
        )
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        if data.startswith(b"\xd0\xcf\x11\xe0"):
            raise SourceError(
                f"{path} is an old Excel 97-2003 workbook (.xls): save it as .xlsx or CSV"
            )
        raise SourceError(f"{path} is named like a workbook but is not one (not a zip file)")
    if sheet is not None:
        raise SourceError(f"--sheet {sheet!r}: {path} is not a workbook (it has no sheets)")
    text, codec = decode(data, encoding)
    del data  # the text is what is read from here on: the bytes are not held beside it
    notes: tuple[str, ...] = ()
    if encoding is None and codec == "cp1252":
        notes = ("not UTF-8: read as Windows cp1252 (give --encoding if that is wrong)",)
    return parse_text(
        text,
        delimiter=delimiter,
        encoding=codec,
        kind="csv",
        source=str(path),
        decimal_comma=decimal_comma,
        notes=notes,
        is_header=is_header,
    )


def read_xlsx(
    path: Path,
    *,
    decimal_comma: bool | None = None,
    sheet: str | None = None,
    is_header: HeaderTest | None = None,
    data: bytes | None = None,
) -> Sheet:
    """A sheet from an Excel workbook: the worksheet named, else the first whose header
    ``is_header`` accepts (a summary sheet before the orders is passed over), else the first
    that holds rows. A workbook that would inflate past ``MAX_INFLATED`` is refused before
    anything is inflated."""

    try:
        from openpyxl import load_workbook
        from openpyxl.utils.exceptions import InvalidFileException
    except ImportError:  # pragma: no cover - a dependency
        raise SourceError("reading .xlsx needs openpyxl (pip install openpyxl)") from None
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    _check_inflated_size(path, data)
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (
        OSError,
        zipfile.BadZipFile,
        KeyError,
        ValueError,
        TypeError,
        InvalidFileException,
    ) as exc:
        raise SourceError(f"{path} is not an Excel workbook Freight can read ({exc})") from None
    try:
        names = [ws.title for ws in book.worksheets]
        if sheet is not None:
            wanted = header_key(sheet)
            chosen = [ws for ws in book.worksheets if header_key(ws.title) == wanted]
            if not chosen:
                raise SourceError(
                    f"--sheet {sheet!r}: the workbook has no sheet of that name "
                    f"(its sheets: {', '.join(names)})"
                )
            worksheets = chosen
        else:
            worksheets = list(book.worksheets)
        read: list[tuple[str, list[tuple[int, list[str]]]]] = []
        for worksheet in worksheets:
            numbered = [
                (index, [cell_text(value) for value in values])
                for index, values in enumerate(worksheet.iter_rows(values_only=True), start=1)
            ]
            if any(any(cells) for _, cells in numbered):
                read.append((worksheet.title, numbered))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, EOFError, SyntaxError) as exc:
        # a part that inflates past its declared size, or is cut short, or is not XML
        raise SourceError(f"{path} is not an Excel workbook Freight can read ({exc})") from None
    finally:
        book.close()
    if not read:
        raise SourceError(f"{path}: no worksheet holds any rows")
    title, numbered = read[0]
    if is_header is not None and sheet is None:
        for name, rows in read:
            filled = [(n, c) for n, c in rows if any(c)]
            head = filled[:_HEADER_SEARCH]
            if any(is_header([cell for cell in c if cell]) for _n, c in head):
                title, numbered = name, rows
                break
    notes: tuple[str, ...] = ()
    if len(names) > 1:
        notes = (f"sheet {title!r} of {len(names)} ({', '.join(names)}; --sheet to choose)",)
    return _sheet(
        numbered,
        kind="xlsx",
        delimiter=",",
        encoding="utf-8-sig",
        line_ending="\r\n",
        source=str(path),
        decimal_comma=decimal_comma if decimal_comma is not None else False,
        notes=notes,
        is_header=is_header,
    )


def _check_inflated_size(path: Path, data: bytes) -> None:
    """Refuse a workbook whose parts declare more than ``MAX_INFLATED`` in all. Reading is
    capped at the declared sizes too (an entry that inflates past its declared size is an
    error of the zip reader), so the total read stays under the cap."""

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise SourceError(f"{path} is not an Excel workbook Freight can read ({exc})") from None
    if total > MAX_INFLATED:
        raise SourceError(
            f"{path} would inflate to {total // (1024 * 1024):,} MB "
            f"({len(data) // 1024:,} KB packed); workbooks up to "
            f"{MAX_INFLATED // (1024 * 1024)} MB unpacked are read (a zip bomb?)"
        )


def cell_text(value: object) -> str:
    """An Excel cell as text: whole numbers without ``.0``, dates as YYYY-MM-DD."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return format(Decimal(repr(value)), "f")
    if isinstance(value, datetime):
        if value.time() == time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.strftime("%H:%M")
    return str(value)
