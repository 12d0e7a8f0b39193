"""The results file: the input's rows and columns, each row followed by what became of its
order, so the order system (an ERP, Excel) can import it back as it is.

- ``.csv`` (or any name but ``.xlsx``): written as the input was (delimiter, encoding,
  byte-order mark, line ending, decimal comma). Plain text: no ``="…"`` tricks, so a long
  number such as a 17-digit BOL with a leading zero is kept exactly in the file, but Excel
  opening a CSV turns it into a number; for Excel, write ``.xlsx``.
- ``.xlsx``: a real workbook (openpyxl); every text cell is a string in text format (``@``),
  so long digit strings stay as written; the total is a number, the transit days a count.

The order's ``Total`` and ``Currency`` are on its first row only (the other lines of a
multi-line order leave them blank), so summing the column gives the batch's total per
currency. Every text cell, the input's as well as the server's, that a spreadsheet would run
as a formula (``=``, ``+``, ``-``, ``@``, tab, carriage return first) starts with an
apostrophe; a plain signed number (``-12.5``) is left as it is.

The result columns are :data:`RESULT_COLUMNS`, each a name and how one row's cell is read:
adding a column is adding one entry.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Final

from tui.atomic import masked, write_atomically
from tui.batch.model import OUTPUT_STATUS, Order, OrderState
from tui.batch.source import Sheet, header_key
from tui.domain.safe_text import plain, plain_cell
from tui.export import WorkbookCell, workbook
from tui.workspace import inside

_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")
_SIGNED_NUMBER: Final = re.compile(r"[+-]?\d[\d.,]*")


@dataclass(frozen=True)
class Money:
    """Freight's own exact amount: a number in the file, never taken for a formula."""

    amount: Decimal


Cell = str | Money | int | None
"""One result cell: text (neutralised when written), an amount, a count, or blank."""


@dataclass(frozen=True)
class ResultRow:
    """One input row as the result columns read it."""

    state: OrderState
    row: int
    first: bool
    """The order's first row: the one that carries its total."""


@dataclass(frozen=True)
class ResultColumn:
    """A result column: its header and its cell for one row (None: blank)."""

    name: str
    cell: Callable[[ResultRow], Cell]


def _error(r: ResultRow) -> str:
    state = r.state
    own = [e.message for e in state.errors if e.row == r.row]
    if own:
        return "; ".join(own)
    if state.status == "invalid" and state.errors:
        return "order set aside: " + state.errors[0].message
    if state.status in ("failed", "no-rate", "unknown", "booking") and state.errors:
        error = state.error_text
    else:
        error = ""
    if state.owes_paperwork and r.first:
        missing = f"booked, paperwork missing: {state.paperwork_missing}"
        error = f"{error}; {missing}" if error else missing
    return error


def _total(r: ResultRow) -> Cell:
    choice = r.state.choice
    return Money(choice.total) if choice is not None and r.first else None


def _currency(r: ResultRow) -> Cell:
    choice = r.state.choice
    return plain(choice.currency) if choice is not None and r.first else None


def _carrier(r: ResultRow) -> Cell:
    return plain(r.state.choice.carrier) if r.state.choice is not None else None


def _service(r: ResultRow) -> Cell:
    return plain(r.state.choice.service) if r.state.choice is not None else None


RESULT_COLUMNS: Final[tuple[ResultColumn, ...]] = (
    # The order's saved files (BOL, labels), in the batch's documents folder.
    ResultColumn("Paperwork", lambda r: plain(" ".join(r.state.documents))),
    ResultColumn("Status", lambda r: OUTPUT_STATUS[r.state.status]),
    ResultColumn("Carrier", _carrier),
    ResultColumn("Service", _service),
    ResultColumn("Total", _total),
    ResultColumn("Currency", _currency),
    ResultColumn("Transit Days", lambda r: r.state.choice.days if r.state.choice else None),
    ResultColumn("Pickup Date", lambda r: r.state.pickup_date),
    ResultColumn("PRO", lambda r: plain(r.state.pro_number)),
    ResultColumn("BOL Number", lambda r: plain(r.state.bol_number)),
    ResultColumn("Tracking Numbers", lambda r: plain(" ".join(r.state.tracking_numbers))),
    ResultColumn("Pickup Confirmation", lambda r: plain(r.state.pickup_confirmation)),
    ResultColumn("Reference", lambda r: plain(r.state.reference)),
    ResultColumn("Error", lambda r: plain(_error(r), limit=1000)),
)
RESULT_NAMES: Final = tuple(column.name for column in RESULT_COLUMNS)


def neutral(cell: str) -> str:
    """Text a spreadsheet would run as a formula gets a leading apostrophe; a plain signed
    number (``-12.50``, ``-1.250,50``: digits, points and commas only) stays a number."""
    if cell.startswith(_FORMULA_START) and not _SIGNED_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def result_headers(sheet: Sheet) -> list[str]:
    """The input's headers, then the result columns (``Freight …`` where a name is taken)."""
    taken = {header_key(h) for h in sheet.headers}
    added = [f"Freight {name}" if header_key(name) in taken else name for name in RESULT_NAMES]
    return [*sheet.headers, *added]


def money_text(amount: Decimal, decimal_comma: bool) -> str:
    """``1234.50`` (``1234,50`` in a file that writes decimal commas); no thousands mark."""
    text = f"{amount:.2f}"
    return text.replace(".", ",") if decimal_comma else text


def result_cells(state: OrderState | None, row: int, first: bool) -> list[Cell]:
    """The result columns of one input row (an unread row says so in ``Error``)."""
    if state is None:
        return [*[None] * (len(RESULT_COLUMNS) - 1), "not read"]
    line = ResultRow(state, row, first)
    return [column.cell(line) for column in RESULT_COLUMNS]


def result_rows(
    sheet: Sheet, orders: Sequence[Order], states: Mapping[str, OrderState]
) -> list[list[Cell]]:
    """Every input row: its cells as read, then its result cells (headers not included)."""
    by_row: dict[int, Order] = {}
    for order in orders:
        for number in order.rows:
            by_row[number] = order
    rows: list[list[Cell]] = []
    for row in sheet.rows:
        found = by_row.get(row.number)
        state = states.get(found.key) if found is not None else None
        first = found is not None and row.number == min(found.rows)
        rows.append([*row.cells, *result_cells(state, row.number, first)])
    return rows


def text_cell(cell: Cell, decimal_comma: bool) -> str:
    """A cell as CSV text: amounts in the file's decimal mark, text neutralised."""
    if cell is None:
        return ""
    if isinstance(cell, Money):
        return money_text(cell.amount, decimal_comma)
    if isinstance(cell, int):
        return str(cell)
    return neutral(cell)


def results_text(sheet: Sheet, orders: Sequence[Order], states: Mapping[str, OrderState]) -> str:
    """The results file's CSV text (before encoding)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sheet.delimiter, lineterminator=sheet.line_ending)
    writer.writerow([neutral(h) for h in result_headers(sheet)])
    for cells in result_rows(sheet, orders, states):
        writer.writerow([text_cell(cell, sheet.decimal_comma) for cell in cells])
    return out.getvalue()


def results_workbook(
    sheet: Sheet, orders: Sequence[Order], states: Mapping[str, OrderState]
) -> bytes:
    """The results as an ``.xlsx`` workbook: text cells are strings in text format (never a
    formula, long digit strings kept), holding the text itself (no ``'`` in front: a string
    cell is never run), amounts numbers to the cent, counts whole numbers."""

    def cell(value: Cell) -> WorkbookCell:
        if isinstance(value, Money):
            return value.amount
        return plain_cell(value) if isinstance(value, str) else value

    rows = ([cell(value) for value in cells] for cells in result_rows(sheet, orders, states))
    return workbook("Results", [plain_cell(h) for h in result_headers(sheet)], rows)


def is_workbook(path: Path) -> bool:
    """Whether the results go in an Excel workbook (the file's name ends in ``.xlsx``)."""
    return path.suffix.lower() == ".xlsx"


def write_results(
    path: Path, sheet: Sheet, orders: Sequence[Order], states: Mapping[str, OrderState]
) -> None:
    """Write the results file (a workbook for ``.xlsx``, else CSV in the input's encoding);
    replaced only when complete."""
    path = path.expanduser()
    if is_workbook(path):
        data = results_workbook(sheet, orders, states)
    else:
        text = results_text(sheet, orders, states)
        encoding = sheet.encoding
        if encoding in ("utf-16-le", "utf-16-be"):
            data = text.encode(encoding)
        elif encoding == "utf-16":
            data = text.encode("utf-16")  # with its byte-order mark, as the input had
        else:
            data = text.encode(encoding, errors="replace")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data, mode=masked(0o666))  # the user's usual mode, as any file


PACKAGE: Final = Path(__file__).resolve().parents[1]
"""Freight's own package folder (its samples live there): never a place for results."""


def results_name(sheet: Sheet) -> str:
    """The results file's name: the input's with ``-results`` (a workbook gives a workbook)."""
    if sheet.kind == "text":
        return "pasted-orders-results.csv"
    source = Path(sheet.source)
    return f"{source.stem}-results{'.xlsx' if sheet.kind == 'xlsx' else '.csv'}"


def results_refusal(path: Path) -> str | None:
    """Why results cannot go to ``path`` (None: they can): not into Freight's own package
    folder, not into a folder that is missing or that this user cannot write in."""
    resolved = path.expanduser().resolve()
    if resolved == PACKAGE or PACKAGE in resolved.parents:
        return "That is Freight's own folder: choose one of yours."
    folder = resolved.parent
    if not folder.is_dir():
        return f"There is no folder {folder}."
    if not os.access(folder, os.W_OK):
        return f"{folder} is read-only for you: choose another folder."
    if resolved.is_dir():
        return f"{resolved} is a folder: add a file name."
    return None


def suggested_results(sheet: Sheet, workspace_files: Path) -> Path:
    """Where the Batch screen offers to write the results: beside the input when the user can
    write there, it is not Freight's own folder and (served) it is in the workspace, else in
    the workspace's files folder (the demo's sample's results go there)."""
    name = results_name(sheet)
    if sheet.kind != "text":
        beside = Path(sheet.source).expanduser().with_name(name)
        if results_refusal(beside) is None and inside(str(beside)):
            return beside
    return workspace_files / name
