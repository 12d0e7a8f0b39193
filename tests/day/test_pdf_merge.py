"""The day's papers as PDFs: manifests print every name as written in columns that fit, and
the BOLs merge into one file whatever PDF version the carrier sent."""

from __future__ import annotations

import io
import zlib
from typing import Any

import pytest
from pypdf import PdfReader

from tui.day.manifest_pdf import FAMILY, FONTS, MARGIN, WIDTHS, manifest_pdf
from tui.day.pdf_merge import CannotMerge, merge_pdfs, page_count

NAMES = ("Łódź Québec — O’Neil’s Supply", "Société Générale d’Électricité Montréal-Nord Ltée")


def _texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def _row(n: int, consignee: str) -> list[str]:
    return [f"PRO-{n:04d}", f"BOL{n:06d}", "2", "1950", "70", "", consignee, "08:00-16:00"]


def test_a_manifest_prints_every_name_as_written() -> None:
    pdf = manifest_pdf("Manifest: Ålborg — Freight", ["Pickup day 2026-12-07"],
                       [_row(n, NAMES[n % 2]) for n in range(4)])  # fmt: skip
    text = "\n".join(_texts(pdf))
    assert "Manifest: Ålborg — Freight" in text
    assert "Łódź Québec — O’Neil’s Supply" in text
    assert "?" not in text  # nothing replaced
    assert "Driver's signature" in text


def test_every_cell_fits_its_column() -> None:
    from fpdf import FPDF

    rows = [_row(n, NAMES[n % 2] * (1 + n % 3)) for n in range(120)]  # long names, 3+ pages
    pdf = manifest_pdf("Manifest: Alpha", ["day"], rows)
    measure = FPDF(unit="pt")
    measure.add_font(FAMILY, "", FONTS / "DejaVuSansCondensed.ttf")
    measure.add_font(FAMILY, "B", FONTS / "DejaVuSansCondensed-Bold.ttf")
    starts = [MARGIN + sum(WIDTHS[:n]) for n in range(len(WIDTHS) + 1)]
    pieces: list[tuple[str, float, float]] = []

    def seen(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        if text.strip() and size == 8:
            pieces.append((text.strip(), float(tm[4]), size))

    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) >= 3
    for page in reader.pages:
        page.extract_text(visitor_text=seen)
    assert any("Société" in text for text, _, _ in pieces)
    for text, x, size in pieces:
        column = max(n for n, start in enumerate(starts[:-1]) if start <= x + 0.01)
        measure.set_font(FAMILY, "B" if text.isupper() else "", size)
        assert x + measure.get_string_width(text) <= starts[column + 1] + 0.5, (text, x)


def _carrier_pdf_with_streams(text: str) -> bytes:
    """A one-page PDF 1.5 as carriers' systems write them: the catalog, page tree, page and
    font in an object stream, and a cross-reference stream instead of a table."""
    content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    packed = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    numbers, body, offsets = (1, 2, 3, 5), b"", []
    for obj in packed:
        offsets.append(len(body))
        body += obj + b"\n"
    header = b" ".join(b"%d %d" % pair for pair in zip(numbers, offsets, strict=True)) + b"\n"
    stream = zlib.compress(header + body)
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    at: dict[int, int] = {}
    at[4] = len(out)
    out += (
        b"4 0 obj\n<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream\nendobj\n"
    )
    at[6] = len(out)
    packed_head = b"6 0 obj\n<< /Type /ObjStm /N 4 /First %d /Filter /FlateDecode /Length %d >>\n"
    out += (
        packed_head % (len(header), len(stream)) + b"stream\n" + stream + b"\nendstream\nendobj\n"
    )
    at[7] = len(out)
    rows = [(0, 0, 65535), (2, 6, 0), (2, 6, 1), (2, 6, 2), (1, at[4], 0), (2, 6, 3),
            (1, at[6], 0), (1, at[7], 0)]  # fmt: skip
    table = zlib.compress(b"".join(bytes([k]) + a.to_bytes(4, "big") + b.to_bytes(2, "big")
                                   for k, a, b in rows))  # fmt: skip
    xref_head = b"7 0 obj\n<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode"
    out += xref_head + b" /Length %d >>\nstream\n" % len(table) + table + b"\nendstream\nendobj\n"
    out += b"startxref\n%d\n%%%%EOF\n" % at[7]
    return bytes(out)


def test_bols_with_object_and_xref_streams_merge_with_every_page_in_order() -> None:
    carriers = _carrier_pdf_with_streams("Carrier BOL 1")
    assert b"/ObjStm" in carriers
    assert b"/XRef" in carriers
    assert _texts(carriers) == ["Carrier BOL 1"]  # a valid PDF
    manifest = manifest_pdf("Manifest: Beta", ["day"], [_row(n, NAMES[0]) for n in range(90)])
    merged = merge_pdfs([carriers, manifest, _carrier_pdf_with_streams("Carrier BOL 2")])
    texts = _texts(merged)
    assert len(texts) == 1 + page_count(manifest) + 1
    assert page_count(manifest) > 1
    assert texts[0] == "Carrier BOL 1"
    assert "PRO-0000" in texts[1]
    assert texts[-1] == "Carrier BOL 2"
    assert page_count(merge_pdfs([merged, carriers])) == len(texts) + 1  # merges again


def test_a_file_it_cannot_read_is_refused() -> None:
    with pytest.raises(CannotMerge):
        merge_pdfs([b"%PDF-1.7\n1 0 obj\n<< /Type /ObjStm >>\nendobj\n"])  # no xref, no pages
    with pytest.raises(CannotMerge):
        merge_pdfs([b"not a pdf"])
    with pytest.raises(CannotMerge):
        merge_pdfs([])
