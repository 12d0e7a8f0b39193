"""A day's manifest as a PDF: one carrier's shipments, a line each, and the driver's signature.

Written with fpdf2 in DejaVu Sans Condensed (shipped in ``tui/day/fonts``, its licence beside
it), embedded as a subset: every name prints as written (``—``, ``’``, ``Ł``, ``Québec``).
Cells wrap inside their column, so a long consignee takes two lines, never the next column
(drawn line by line: fpdf2's own table lays out ten times slower).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fpdf import FPDF

FONTS = Path(__file__).parent / "fonts"
FAMILY = "DejaVu"
MARGIN = 40.0
HEADER = ("PRO", "BOL", "PIECES", "LB", "CLASS", "HAZ", "CONSIGNEE", "WINDOW")
WIDTHS = (72, 72, 36, 44, 36, 26, 178, 68)
"""Column widths in points (US Letter less the margins: 532)."""


PAD = 2.0
LEADING = 10.0
"""Points between the baselines of a cell's lines."""


def manifest_pdf(
    title: str,
    heading: Sequence[str],
    rows: Sequence[Sequence[str]],
    created: datetime = datetime(2000, 1, 1, tzinfo=UTC),
) -> bytes:
    """A manifest: ``title`` and ``heading`` lines on top, a table of ``rows`` (the header
    repeated on each page), and after it the driver's signature, date and piece count lines.
    ``created`` is the file's creation date: the same day's manifest is the same bytes."""

    pdf = FPDF(unit="pt", format="letter")
    pdf.set_creation_date(created)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(False)
    pdf.add_font(FAMILY, "", FONTS / "DejaVuSansCondensed.ttf")
    pdf.add_font(FAMILY, "B", FONTS / "DejaVuSansCondensed-Bold.ttf")
    pdf.set_title(title)
    pdf.set_creator("Freight")
    pdf.add_page()
    pdf.set_font(FAMILY, "B", 14)
    y = MARGIN + 14
    pdf.text(MARGIN, y, title)
    pdf.set_font(FAMILY, "", 9)
    y += 18
    for line in heading:
        pdf.text(MARGIN, y, line)
        y += 12
    y = _table(pdf, y, rows)
    pdf.set_font(FAMILY, "", 9)
    if y > pdf.h - MARGIN - 100:
        pdf.add_page()
        y = MARGIN
    y += 36
    for label in ("Driver's signature", "Date and time", "Pieces received"):
        pdf.text(MARGIN, y, label)
        pdf.line(MARGIN + 110, y + 2, pdf.w - MARGIN, y + 2)
        y += 28
    return bytes(pdf.output())


def _table(pdf: Any, y: float, rows: Sequence[Sequence[str]]) -> float:
    """The header and the rows from ``y`` down, on as many pages as they take; the ``y``
    under the last row."""
    starts = [MARGIN + sum(WIDTHS[:n]) for n in range(len(WIDTHS))]
    bottom = pdf.h - MARGIN

    def laid(cells: Sequence[str], bold: bool) -> list[list[str]]:
        pdf.set_font(FAMILY, "B" if bold else "", 8)
        width_of = _measure(pdf)
        return [_wrap(width_of, cell, w - 2 * PAD) for cell, w in zip(cells, WIDTHS, strict=True)]

    def draw(lines: list[list[str]], y: float, bold: bool) -> float:
        pdf.set_font(FAMILY, "B" if bold else "", 8)
        height = max(len(cell) for cell in lines) * LEADING + 2 * PAD
        for x, cell in zip(starts, lines, strict=True):
            for n, text in enumerate(cell):
                if text:
                    pdf.text(x + PAD, y + PAD + 8 + n * LEADING, text)
        pdf.line(MARGIN, y + height, MARGIN + sum(WIDTHS), y + height)
        return y + height

    header = laid(HEADER, True)
    y = draw(header, y + 6, True)
    for row in rows:
        lines = laid([row[n] if n < len(row) else "" for n in range(len(HEADER))], False)
        if y + max(len(cell) for cell in lines) * LEADING + 2 * PAD > bottom:
            pdf.add_page()
            y = draw(header, MARGIN, True)
        y = draw(lines, y, False)
    return y


def _measure(pdf: Any) -> Callable[[str], float]:
    """The width in points of a text at the current font and size (fpdf2's per-character
    widths, as ``get_string_width`` sums them, without its per-call overhead)."""
    widths: dict[int, float] = pdf.current_font.cw
    scale = float(pdf.font_size_pt) / 1000

    def width_of(text: str) -> float:
        return float(sum(widths[ord(c)] for c in text)) * scale

    return width_of


def _wrap(width_of: Callable[[str], float], text: str, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``: broken between words, a word wider than the
    column broken where it must be."""
    if width_of(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if width_of(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in word:
            if width_of(line + char) > width and line:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return lines or [""]
