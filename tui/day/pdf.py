"""A day's manifest as a PDF: one carrier's shipments, a line each, and the driver's signature.

A tiny PDF 1.4 writer (Helvetica text and lines, uncompressed, a real xref): no new
dependency for a page of text. Text outside Latin-1 is written as ``?``.
"""

from __future__ import annotations

from collections.abc import Sequence

WIDTH, HEIGHT = 612.0, 792.0  # US Letter, in points
MARGIN = 40.0
LINE = 13.0


def _escape(text: str) -> str:
    safe = text.encode("latin-1", "replace").decode("latin-1")
    safe = "".join(c if c.isprintable() else "?" for c in safe)
    return safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _text(x: float, y: float, text: str, size: float = 9, bold: bool = False) -> str:
    font = "F2" if bold else "F1"
    return f"BT /{font} {size:g} Tf {x:.2f} {y:.2f} Td ({_escape(text)}) Tj ET"


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return f"0.8 w {x1:.2f} {y1:.2f} m {x2:.2f} {y2:.2f} l S"


def manifest_pdf(title: str, heading: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    """A manifest: ``title`` and ``heading`` lines on top, one line per row (cells in
    columns), pages as needed, and on the last page the driver's signature, date and
    piece count lines."""
    columns = (0, 80, 180, 225, 275, 315, 345, 455)
    pages: list[list[str]] = []
    ops: list[str] = []
    y = HEIGHT - MARGIN

    def new_page() -> None:
        nonlocal ops, y
        ops = []
        pages.append(ops)
        y = HEIGHT - MARGIN
        ops.append(_text(MARGIN, y, title, 14, bold=True))
        y -= 20
        for text in heading:
            ops.append(_text(MARGIN, y, text))
            y -= LINE
        y -= 4

    new_page()
    header = ("PRO", "BOL", "PIECES", "LB", "CLASS", "HAZ", "CONSIGNEE", "WINDOW")
    for row in (header, *rows):
        if y < MARGIN + 110:
            new_page()
        for x, cell in zip(columns, row, strict=False):
            ops.append(_text(MARGIN + x, y, cell[:24], 8, bold=row is header))
        y -= LINE
    y -= 30
    for label in ("Driver's signature", "Date and time", "Pieces received"):
        ops.append(_line(MARGIN + 110, y, WIDTH - MARGIN, y))
        ops.append(_text(MARGIN, y + 2, label))
        y -= 28
    return _render(pages, title)


def _render(pages: list[list[str]], title: str) -> bytes:
    objects: list[bytes] = [b"", b""]  # the catalog and the page tree, filled in last
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"
    )
    objects.append(f"<< /Title ({_escape(title)}) /Producer (Freight) >>".encode("latin-1"))
    kids = []
    for ops in pages:
        stream = "\n".join(ops).encode("latin-1", "replace")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content = len(objects)
        objects.append(
            (
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {WIDTH:g} {HEIGHT:g}] "
                f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {content} 0 R >>"
            ).encode()
        )
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = (
        f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>"
    ).encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 5 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
