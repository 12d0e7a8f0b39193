"""The day's BOLs as one PDF: every page of every file, in order, in a file that reads back."""

from __future__ import annotations

import re

import pytest

from tui.day.pdf import manifest_pdf
from tui.day.pdf_merge import CannotMerge, merge_pdfs, objects_of


def _pages(data: bytes) -> list[bytes]:
    """The page objects of a PDF, in order, walking its page tree from the catalog."""
    objects, root = objects_of(data)

    def ref(body: bytes, key: bytes) -> int:
        found = re.search(key + rb"\s+(\d+) 0 R", body)
        assert found is not None, body
        return int(found.group(1))

    def walk(number: int) -> list[bytes]:
        body = objects[number]
        if b"/Type /Pages" not in body:
            return [body]
        kids = re.search(rb"/Kids \[([^\]]*)\]", body)
        assert kids is not None
        numbers = [int(n) for n in re.findall(rb"(\d+) 0 R", kids.group(1))]
        return [page for kid in numbers for page in walk(kid)]

    return walk(ref(objects[root], b"/Pages"))


def test_every_page_of_every_file_in_order() -> None:
    first = manifest_pdf("Manifest: Alpha", ["day"], [["PRO-A1", "B1"], ["PRO-A2", "B2"]])
    many = [[f"PRO-B{n}", "B"] for n in range(90)]  # more than a page
    second = manifest_pdf("Manifest: Beta", ["day"], many)
    merged = merge_pdfs([first, second])
    pages = _pages(merged)
    assert len(_pages(second)) > 1
    assert len(pages) == len(_pages(first)) + len(_pages(second))
    objects, _ = objects_of(merged)
    texts = []
    for page in pages:
        contents = re.search(rb"/Contents (\d+) 0 R", page)
        assert contents is not None
        texts.append(objects[int(contents.group(1))])
    assert b"(PRO-A1) Tj" in texts[0]
    assert b"(PRO-B0) Tj" in texts[1]
    assert b"(Driver's signature) Tj" in texts[-1]
    assert f"/Count {len(pages)}".encode() in merged
    assert len(_pages(merge_pdfs([merged, first]))) == len(pages) + 1  # merges again


def test_a_file_it_cannot_read_is_refused() -> None:
    with pytest.raises(CannotMerge):
        merge_pdfs([b"%PDF-1.7\n1 0 obj\n<< /Type /ObjStm >>\nendobj\n"])
    with pytest.raises(CannotMerge):
        merge_pdfs([b"not a pdf"])
    with pytest.raises(CannotMerge):
        merge_pdfs([])
