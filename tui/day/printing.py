"""The day's paperwork in two print jobs: every BOL in one PDF, every ZPL label in one raw job.

Each shipment's bill of lading (PDF) and ZPL labels are fetched and saved beside each other
(`tui.documents.save_documents`), the BOLs merged into one PDF (`tui.day.pdf_merge`), the
labels joined into one file (ZPL is a stream of labels), and each sent through the project's
one print path (`tui.documents.run_print_job`). `freight day --print` and the Day screen's
`p` both print here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tui.atomic import write_atomically
from tui.day import pdf_merge
from tui.day.messages import Part, extra, fixed, name, path, text_of
from tui.documents import (
    PrintJob,
    PrintOutcome,
    SavedDocument,
    document_format,
    document_kind,
    run_print_job,
    save_documents,
    system_default_printer,
)
from tui.domain.safe_text import safe_name_part

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Document
    from tui.config.settings import PrinterSettings
    from tui.day import Day


@dataclass
class DayPrint:
    """What printing a day did: the files made, the jobs' outcomes, what was left out."""

    folder: Path | None = None
    """Where the day's paperwork was saved (each shipment's files, the joined ones)."""
    bols: Path | None = None
    labels: Path | None = None
    bol_count: int = 0
    label_count: int = 0
    outcomes: list[PrintOutcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was not printed, and why (no label printer, shipments with no paperwork)."""

    @property
    def ok(self) -> bool:
        return bool(self.outcomes) and all(outcome.ok for outcome in self.outcomes)

    @property
    def printed(self) -> list[str]:
        """Each job that `lp` took, as the close records it (``bols-DAY.pdf (3 BOLs)``)."""
        return [
            f"{outcome.job.path.name} ({self._what(outcome.job)})"
            for outcome in self.outcomes
            if outcome.ok
        ]

    def _what(self, job: PrintJob) -> str:
        if job.raw:
            return f"{self.label_count} label file{'s' * (self.label_count != 1)}"
        return f"{self.bol_count} BOL{'s' * (self.bol_count != 1)}"

    def message(self) -> list[Part]:
        """What went to which printer, what did not, where the files are, and why anything
        was left out: ``Printed 2 BOLs to office, 2 label files to zebra; files in ~/…/day-…``
        (fit it to a width with `tui.day.messages.fit`)."""
        parts: list[Part] = []
        done = [outcome for outcome in self.outcomes if outcome.ok]
        for index, outcome in enumerate(done):
            said = ("Printed " if index == 0 else ", ") + self._what(outcome.job)
            parts += [fixed(f"{said} to "), name(outcome.job.printer or "the default printer")]
        for outcome in self.outcomes:
            if not outcome.ok:
                parts += [fixed(("; " if parts else "") + f"{self._what(outcome.job)} NOT ")]
                parts += [fixed("printed ("), name(outcome.job.printer or "default printer")]
                parts += [fixed(")"), extra(outcome.said, ": ")]
        if not parts:
            parts.append(fixed("Nothing printed"))
        parts += [extra(note) for note in self.notes]
        if self.folder is not None:
            parts.append(path(self.folder, "; files in "))
        return parts

    @property
    def said(self) -> str:
        """The whole message, nothing shortened (the command line prints it)."""
        return text_of(self.message())


def _wanted(document: Document) -> bool:
    """A bill of lading as PDF, or labels as ZPL: what the day's two jobs print."""
    fmt = document_format(document)
    kind = document_kind(document, "document")
    return (kind == "bol" and fmt == "pdf") or fmt == "zpl"


async def fetch_paperwork(
    client: FreightClient, day: Day, folder: Path
) -> tuple[list[SavedDocument], list[str]]:
    """Each shipment's BOL (PDF) and ZPL labels saved in ``folder``/<shipment>, in the day's
    order; and the PROs of the shipments that have none."""

    saved: list[SavedDocument] = []
    without: list[str] = []
    for group in day.carriers:
        for line in group.lines:
            shipment_id = line.booking.shipment_id
            name = line.booking.pro_number or line.booking.reference
            if not shipment_id:
                without.append(name)
                continue
            detail = await client.get_shipment(shipment_id)
            documents = [document for document in detail.documents if _wanted(document)]
            if not documents:
                without.append(name)
                continue
            place = folder / (safe_name_part(shipment_id) or "shipment")
            saved += await save_documents(client.download_document, documents, place)
    return saved, without


def _join(saved: list[SavedDocument], folder: Path, day: Day) -> tuple[Path | None, Path | None]:
    """The BOLs as one PDF, the labels as one ZPL file, in ``folder`` (blocking)."""

    bols = [doc.path for doc in saved if doc.format == "pdf"]
    labels = [doc.path for doc in saved if doc.format == "zpl"]
    stem = day.day.isoformat()
    bols_path = labels_path = None
    if bols:
        try:
            merged = pdf_merge.merge_pdfs([path.read_bytes() for path in bols])
        except pdf_merge.CannotMerge:
            merged = None
        if merged is not None:
            bols_path = folder / f"bols-{stem}.pdf"
            write_atomically(bols_path, merged)
    if labels:
        labels_path = folder / f"labels-{stem}.zpl"
        write_atomically(labels_path, b"\n".join(path.read_bytes().strip() for path in labels))
    return bols_path, labels_path


async def print_day(
    client: FreightClient, day: Day, folder: Path, printers: PrinterSettings
) -> DayPrint:
    """Fetch, join and print the day's paperwork: one PDF job of every BOL (the document
    printer, else the system default), one raw job of every ZPL label (the label printer,
    when it takes ZPL). The files stay in ``folder``."""
    result = DayPrint(folder)
    saved, without = await fetch_paperwork(client, day, folder)
    bol_files = [doc.path for doc in saved if doc.format == "pdf"]
    result.bol_count = len(bol_files)
    result.label_count = sum(1 for doc in saved if doc.format == "zpl")
    result.bols, result.labels = await asyncio.to_thread(_join, saved, folder, day)
    jobs: list[PrintJob] = []
    document_printer = printers.document_printer
    if bol_files:
        if document_printer is None and await system_default_printer() is None:
            result.notes.append("no printer for the BOLs (set [printers] document_printer)")
        elif result.bols is not None:
            jobs.append(PrintJob(document_printer, result.bols, raw=False))
        else:  # a BOL the merge cannot read: the same files, still one job
            jobs.append(PrintJob(document_printer, bol_files[0], False, tuple(bol_files[1:])))
    if result.labels is not None:
        if printers.label_printer and printers.label_format == "zpl":
            jobs.append(PrintJob(printers.label_printer, result.labels, raw=True))
        else:
            result.notes.append("labels saved, not printed (no ZPL label printer)")
    if without:
        more = f" and {len(without) - 3} more" if len(without) > 3 else ""
        result.notes.append(f"no paperwork for {', '.join(without[:3])}{more}")
    for job in jobs:
        result.outcomes.append(await run_print_job(job))
    return result
