"""One PDF of several: the day's bills of lading printed as one job.

pypdf reads each file whatever PDF version the carrier's system wrote (a classic
cross-reference table, cross-reference and object streams, incremental updates) and appends
every page, in order. A file it cannot read (damaged, encrypted with a password, not a PDF)
raises `CannotMerge`; the caller then prints the files as one job of several files.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from pypdf import PdfReader, PdfWriter
from pypdf.errors import PyPdfError


class CannotMerge(ValueError):
    """A PDF the merge cannot read (damaged, encrypted, not a PDF)."""


def merge_pdfs(files: Sequence[bytes]) -> bytes:
    """The files' pages, in order, as one PDF. Raises CannotMerge."""

    if not files:
        raise CannotMerge("no files")
    writer = PdfWriter()
    try:
        for n, data in enumerate(files, start=1):
            if not data.startswith(b"%PDF-"):
                raise CannotMerge(f"file {n} is not a PDF")
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted:
                raise CannotMerge(f"file {n} is encrypted")
            writer.append(reader)
        out = io.BytesIO()
        writer.write(out)
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as error:
        if isinstance(error, CannotMerge):
            raise
        raise CannotMerge(f"a file could not be read: {error}") from None
    return out.getvalue()


def page_count(data: bytes) -> int:
    """How many pages a PDF has. Raises CannotMerge when it cannot be read."""

    try:
        return len(PdfReader(io.BytesIO(data)).pages)
    except (PyPdfError, ValueError, KeyError, TypeError) as error:
        raise CannotMerge(f"not a readable PDF: {error}") from None
