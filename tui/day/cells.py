"""A day line's cells as the CLI table and the Day screen show them (plain text, unknown
empty), and how a table of them fits a narrow terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tui.day import DayLine
from tui.day.manifests import number, short_flags


def pro(line: DayLine) -> str:
    return line.booking.pro_number or line.booking.reference


def pieces(line: DayLine) -> str:
    facts = line.facts
    return str(facts.pieces) if facts and facts.pieces else ""


def weight(line: DayLine) -> str:
    return number(line.facts.weight_lb if line.facts else None) or ""


def freight_class(line: DayLine) -> str:
    return (line.facts.freight_class or "") if line.facts else ""


def hazmat(line: DayLine) -> str:
    return "yes" if line.facts and line.facts.hazmat else ""


def consignee(line: DayLine) -> str:
    return (line.facts.consignee or "") if line.facts else ""


def window(line: DayLine) -> str:
    return (line.facts.pickup_window or "") if line.facts else ""


def confirmation(line: DayLine) -> str:
    return (line.facts.confirmation or "no") if line.facts else "no"


def flags(line: DayLine) -> str:
    return " ".join(short_flags(line))


@dataclass(frozen=True)
class Cell:
    """One column of the day's table: its headers (wide, narrow) and how it reads a line."""

    key: str
    label: str
    short: str
    text: Callable[[DayLine], str]
    shrink_to: int = 0
    """Narrowest it may be cut to (with …) when the table is too wide; 0: never cut."""
    drop: int = 0
    """Dropped when still too wide, lowest first; 0: never dropped."""


CELLS: tuple[Cell, ...] = (
    Cell("pro", "PRO", "PRO", pro),
    Cell("pieces", "PIECES", "PCS", pieces),
    Cell("weight", "LB", "LB", weight),
    Cell("class", "CLASS", "CL", freight_class, drop=2),
    Cell("hazmat", "HAZ", "HZ", hazmat),
    Cell("consignee", "CONSIGNEE", "CONSIGNEE", consignee, shrink_to=10),
    Cell("window", "WINDOW", "WINDOW", window, drop=1),
    Cell("confirmation", "CONFIRMED", "PU#", confirmation, shrink_to=8),
    Cell("flags", "FLAGS", "FLAGS", flags),
)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut with an ellipsis."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


LETTERS = {"unconfirmed": "N", "no-papers": "P", "unsettled": "O", "moved": "M", "late": "L"}
"""The flags as one letter each, for a table that is too narrow for their words."""
LEGEND = "N unconfirmed  P no-papers  O unsettled  M moved  L late"


def fit(
    lines: Sequence[DayLine], width: int, gap: int = 2
) -> tuple[list[str], list[list[str]], str | None]:
    """The header and rows of ``lines`` in at most ``width`` columns where it can: short
    headers, then long cells cut (to no less than their `shrink_to`), then the least needed
    columns dropped (each try starts from the whole cells again), and at last the flags as
    letters, with the legend to print under the table (else None)."""
    full = [[cell.text(line) for cell in CELLS] for line in lines]
    labels = [cell.label for cell in CELLS]

    def widths(heads: list[str], rows: list[list[str]]) -> list[int]:
        return [max([len(head), *(len(row[i]) for row in rows)]) for i, head in enumerate(heads)]

    def total(heads: list[str], rows: list[list[str]]) -> int:
        return sum(widths(heads, rows)) + gap * (len(heads) - 1)

    if total(labels, full) <= width:
        return labels, full, None
    fitted = _fit(full, width, total, widths)
    if fitted is not None:
        return fitted[0], fitted[1], None
    letters = [[*row[:-1], "".join(LETTERS.get(w, "?") for w in row[-1].split())] for row in full]
    fitted = _fit(letters, width, total, widths)
    if fitted is None:  # as narrow as it gets: the last try
        fitted = _fit(letters, 0, total, widths) or ([], [])
    return fitted[0], fitted[1], LEGEND


Measure = Callable[[list[str], list[list[str]]], Any]


def _fit(
    full: list[list[str]], width: int, total: Measure, widths: Measure
) -> tuple[list[str], list[list[str]]] | None:
    """Short headers, cuts, then drops, until ``full`` fits ``width`` (else None; with 0,
    the narrowest table)."""
    levels = sorted({cell.drop for cell in CELLS if cell.drop})
    heads: list[str] = []
    rows: list[list[str]] = []
    for dropped in [0, *levels]:
        keep = [i for i, cell in enumerate(CELLS) if not (cell.drop and cell.drop <= dropped)]
        heads = [CELLS[i].short for i in keep]
        rows = [[row[i] for i in keep] for row in full]
        for at, i in enumerate(keep):
            over = total(heads, rows) - width
            if over > 0 and CELLS[i].shrink_to:
                to = max(CELLS[i].shrink_to, len(heads[at]), widths(heads, rows)[at] - over)
                rows = [[*row[:at], cut(row[at], to), *row[at + 1 :]] for row in rows]
        if total(heads, rows) <= width:
            return heads, rows
    return (heads, rows) if width == 0 else None


CellText = Callable[[DayLine], str]
"""How a day line's cell reads."""
