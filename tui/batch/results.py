"""The results file: the input's rows and columns, each row followed by what became of its
order, written as the input was (delimiter, encoding, byte-order mark, line ending, decimal
comma) so the order system can import it back. An ``.xlsx`` input gives a UTF-8 CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Final

from tui.atomic import write_atomically
from tui.batch.model import OUTPUT_STATUS, Order, OrderState
from tui.batch.source import Sheet, header_key
from tui.domain.safe_text import plain

RESULT_COLUMNS: Final = (
    "Status", "Carrier", "Service", "Total", "Currency", "Transit Days", "Pickup Date", "PRO",
    "BOL Number", "Tracking Numbers", "Pickup Confirmation", "Reference", "Error",
)  # fmt: skip
_FORMULA_START: Final = ("=", "+", "-", "@")


def _neutral(cell: str) -> str:
    """Server text a spreadsheet would run as a formula gets a leading apostrophe."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


def result_headers(sheet: Sheet) -> list[str]:
    """The input's headers, then the result columns (``Freight …`` where a name is taken)."""
    taken = {header_key(h) for h in sheet.headers}
    added = [f"Freight {name}" if header_key(name) in taken else name for name in RESULT_COLUMNS]
    return [*sheet.headers, *added]


def money_text(amount: Decimal, decimal_comma: bool) -> str:
    """``1234.50`` (``1234,50`` in a file that writes decimal commas); no thousands mark."""
    text = f"{amount:.2f}"
    return text.replace(".", ",") if decimal_comma else text


def result_cells(
    order: Order | None, state: OrderState | None, row: int, decimal_comma: bool
) -> list[str]:
    """The result columns of one input row."""
    if state is None:
        return ["", "", "", "", "", "", "", "", "", "", "", "", "not read"]
    choice = state.choice
    own = [e.message for e in state.errors if e.row == row]
    if own:
        error = "; ".join(own)
    elif state.status == "invalid" and state.errors:
        error = "order set aside: " + state.errors[0].message
    elif state.status in ("failed", "no-rate", "unknown", "booking") and state.errors:
        error = state.error_text
    else:
        error = ""
    if state.owes_paperwork:
        missing = f"booked, paperwork missing: {state.paperwork_missing}"
        error = f"{error}; {missing}" if error else missing
    del order
    return [
        OUTPUT_STATUS[state.status],
        _neutral(plain(choice.carrier)) if choice else "",
        _neutral(plain(choice.service)) if choice else "",
        money_text(choice.total, decimal_comma) if choice else "",
        plain(choice.currency) if choice else "",
        str(choice.days) if choice and choice.days is not None else "",
        state.pickup_date,
        _neutral(plain(state.pro_number)),
        _neutral(plain(state.bol_number)),
        _neutral(plain(" ".join(state.tracking_numbers))),
        _neutral(plain(state.pickup_confirmation)),
        state.reference,
        _neutral(plain(error, limit=1000)),
    ]


def results_text(sheet: Sheet, orders: Sequence[Order], states: Mapping[str, OrderState]) -> str:
    """The results file's text (before encoding)."""
    by_row: dict[int, Order] = {}
    for order in orders:
        for number in order.rows:
            by_row[number] = order
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sheet.delimiter, lineterminator=sheet.line_ending)
    writer.writerow(result_headers(sheet))
    for row in sheet.rows:
        found = by_row.get(row.number)
        state = states.get(found.key) if found is not None else None
        writer.writerow([*row.cells, *result_cells(found, state, row.number, sheet.decimal_comma)])
    return out.getvalue()


def write_results(
    path: Path, sheet: Sheet, orders: Sequence[Order], states: Mapping[str, OrderState]
) -> None:
    """Write the results file in the input's encoding; replaced only when complete."""
    text = results_text(sheet, orders, states)
    encoding = sheet.encoding
    if encoding in ("utf-16-le", "utf-16-be"):
        data = text.encode(encoding)
    elif encoding == "utf-16":
        data = text.encode("utf-16")  # with its byte-order mark, as the input had
    else:
        data = text.encode(encoding, errors="replace")
    path = path.expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data, mode=0o600)
