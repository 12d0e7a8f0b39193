"""Plain-text output: aligned columns, money with its currency, progress on a terminal only.

Every cell and value goes through `plain`: server text never drives the terminal.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from decimal import Decimal
from typing import TextIO

from tui.domain.money import format_money
from tui.domain.safe_text import plain


def money(amount: Decimal | None, currency: str | None) -> str:
    """``1,234.50 USD`` exactly to the cent; the code is left out only when none is known."""
    if amount is None or not amount.is_finite():
        return ""

    text = format_money(amount)
    return f"{text} {currency}" if currency else text


def table(header: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO) -> None:
    """Columns padded to their widest cell, two spaces apart; the last column is not padded."""
    header = [plain(h) for h in header]
    rows = [[plain(cell) for cell in row] for row in rows]
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Sequence[str]) -> str:
        padded = [cell.ljust(widths[i]) for i, cell in enumerate(cells[:-1])]
        return "  ".join([*padded, cells[-1]]).rstrip()

    print(line(header), file=out)
    for row in rows:
        print(line(row), file=out)


def fields(pairs: Sequence[tuple[str, str]], out: TextIO) -> None:
    """``Label:  value`` lines, labels aligned; empty values are left out."""
    shown = [(label, plain(value)) for label, value in pairs if value]
    width = max((len(label) for label, _ in shown), default=0) + 2
    for label, value in shown:
        print(f"{label + ':':<{width}}{value}", file=out)


class Progress:
    """``Loaded N shipments…`` on stderr, at most ten times a second, only on a terminal."""

    def __init__(self, err: TextIO | None = None, noun: str = "shipments") -> None:
        self.err = err if err is not None else sys.stderr
        self.noun = noun
        self.enabled = self.err.isatty()
        self.shown = False
        self._last = 0.0

    def __call__(self, count: int) -> None:
        now = time.monotonic()
        if self.enabled and now - self._last >= 0.1:
            self._last = now
            self.shown = True
            self.err.write(f"\rLoaded {count} {self.noun}…")
            self.err.flush()

    def done(self) -> None:
        """Clear the progress line."""
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
