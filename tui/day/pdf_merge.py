"""One PDF of several: the day's bills of lading printed as one job.

A small merge for PDFs with a classic cross-reference table (what the service and Freight's
own writers make): every object of each file is renumbered past the ones before it, and a
new page tree holds each file's page tree as a kid (so what a file's pages inherit from
their tree stays theirs). A file it cannot read that way (a cross-reference stream, object
streams, encryption) raises `CannotMerge`; the caller then prints the files as one job of
several files.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_SECTION = re.compile(rb"(\d+)\s+(\d+)\s*\r?\n")
_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_OBJ = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
_REF = re.compile(rb"(?<![\d.])(\d+)\s+(\d+)\s+R\b")
_ROOT = re.compile(rb"/Root\s+(\d+)\s+\d+\s+R")
_PAGES = re.compile(rb"/Pages\s+(\d+)\s+\d+\s+R")
_COUNT = re.compile(rb"/Count\s+(\d+)")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_STREAM = re.compile(rb"stream\r?\n")


class CannotMerge(ValueError):
    """A PDF this merge cannot read (not a classic cross-reference table, say)."""


def objects_of(data: bytes) -> tuple[dict[int, bytes], int]:
    """Each object's body by number (generation 0 only), and the catalog's number."""
    if not data.startswith(b"%PDF-"):
        raise CannotMerge("not a PDF")
    if b"/Encrypt" in data or b"/ObjStm" in data:
        raise CannotMerge("encrypted, or objects in streams")
    tail = _STARTXREF.search(data[-64:])
    if tail is None:
        raise CannotMerge("no startxref at the end")
    at = int(tail.group(1))
    if not data.startswith(b"xref", at):
        raise CannotMerge("a cross-reference stream")
    position = at + 4
    offsets: dict[int, int] = {}
    while True:
        while data[position : position + 1] in (b" ", b"\r", b"\n"):
            position += 1
        section = _SECTION.match(data, position)
        if section is None:
            break
        first, count = int(section.group(1)), int(section.group(2))
        position = section.end()
        for number in range(first, first + count):
            entry = _ENTRY.match(data, position)
            if entry is None:
                raise CannotMerge("a damaged cross-reference table")
            if entry.group(3) == b"n" and int(entry.group(2)) == 0:
                offsets[number] = int(entry.group(1))
            position = entry.end() + 2
    trailer = data[position:]
    if not trailer.startswith(b"trailer") or b"/Prev" in trailer.split(b"startxref")[0]:
        raise CannotMerge("an updated file (several cross-reference sections)")
    root = _ROOT.search(trailer)
    if root is None:
        raise CannotMerge("no catalog")
    return {number: _body(data, offset, number) for number, offset in offsets.items()}, int(
        root.group(1)
    )


def _body(data: bytes, offset: int, number: int) -> bytes:
    head = _OBJ.match(data, offset)
    if head is None or int(head.group(1)) != number:
        raise CannotMerge(f"object {number} is not where the table says")
    start = head.end()
    end = data.find(b"endobj", start)
    stream = _STREAM.search(data, start, end if end != -1 else len(data))
    if stream is not None:
        length = _LENGTH.search(data, start, stream.start())
        if length is None:
            raise CannotMerge("a stream whose length is not given directly")
        close = data.find(b"endstream", stream.end() + int(length.group(1)))
        end = data.find(b"endobj", close)
    if end == -1:
        raise CannotMerge(f"object {number} has no end")
    return data[start:end].strip()


def _renumber(body: bytes, shift: int) -> bytes:
    """References shifted by ``shift`` (the stream's bytes, if any, left as they are)."""
    stream = _STREAM.search(body)
    head, rest = (body, b"") if stream is None else (body[: stream.start()], body[stream.start() :])
    head = _REF.sub(lambda m: b"%d 0 R" % (int(m.group(1)) + shift), head)
    return head + rest


def merge_pdfs(files: Sequence[bytes]) -> bytes:
    """The pages of ``files``, in order, as one PDF 1.4 (CannotMerge when one cannot be
    read)."""
    if not files:
        raise CannotMerge("no files")
    objects: dict[int, bytes] = {}
    trees: list[int] = []
    pages = 0
    shift = 2  # 1: the new catalog, 2: the new page tree
    for data in files:
        found, root = objects_of(data)
        catalog = found.get(root, b"")
        tree = _PAGES.search(catalog)
        if tree is None or int(tree.group(1)) not in found:
            raise CannotMerge("no page tree")
        tree_number = int(tree.group(1))
        count = _COUNT.search(found[tree_number])
        if count is None:
            raise CannotMerge("a page tree with no count")
        pages += int(count.group(1))
        for number, body in found.items():
            if number == root:
                continue  # the file's catalog gives way to the new one
            body = _renumber(body, shift)
            if number == tree_number:
                body = body.replace(b"<<", b"<< /Parent 2 0 R", 1)
            objects[number + shift] = body
        trees.append(tree_number + shift)
        shift = max(objects) if objects else shift
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join(f"{number} 0 R" for number in trees)
    objects[2] = f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode()
    size = max(objects) + 1
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        if number in offsets:
            out += b"%010d 00000 n \n" % offsets[number]
        else:
            out += b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)
