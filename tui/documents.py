"""Save a booking's documents and labels to a folder, and print them with CUPS `lp`.

`save_and_print` is the one way a screen saves or prints paperwork.

A document's type, format and name come from the server: they only ever make a safe file name
(`tui.domain.safe_text.safe_file_name`), and a file whose resolved path would not lie directly
in the chosen folder is not written (`DocumentPathError`).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from tui.atomic import masked, write_atomically
from tui.domain.safe_text import plain, safe_file_name, safe_name_part
from tui.workspace import files_dir

if TYPE_CHECKING:
    from tui.api.models import Document
    from tui.config.settings import PrinterSettings

Downloader = Callable[[str], Awaitable[bytes]]
"""Fetches a document's bytes by URL (the client's `download_document`)."""

_KNOWN_FORMATS = ("pdf", "zpl", "png", "epl", "txt")
_FORMAT = re.compile(r"[a-z0-9]{1,10}")
LP_TIMEOUT = 30.0


class DocumentPathError(OSError):
    """A document's file would land outside the folder chosen for it: nothing was written."""

    def __init__(self, path: Path, folder: Path) -> None:
        super().__init__(
            f"Refused to save {path.name}: it would be written outside {folder} "
            f"(to {path}). Nothing was saved there."
        )
        self.path = path
        self.folder = folder


@dataclass(frozen=True)
class SavedDocument:
    """A document written to disk: where, what kind (`bol`, `label`) and in which format."""

    path: Path
    kind: str
    format: str


@dataclass(frozen=True)
class PrintJob:
    """One `lp` call: a file (or several, as one job) to a printer, raw (ZPL) or through the
    driver (PDF). The one way Freight prints: a booking's documents and a batch's paperwork."""

    printer: str | None
    """The CUPS destination; None: the system default (plain `lp`, no -d)."""
    path: Path
    raw: bool
    also: tuple[Path, ...] = ()
    """More files in the same job (a batch's PDFs go as one job)."""

    @property
    def paths(self) -> tuple[Path, ...]:
        """Every file of the job, in order."""
        return (self.path, *self.also)

    def command(self) -> list[str]:
        """The `lp` argv for this job."""
        argv = ["lp"] if self.printer is None else ["lp", "-d", self.printer]
        if self.raw:
            argv += ["-o", "raw"]
        return [*argv, "--", *(str(path) for path in self.paths)]


@dataclass(frozen=True)
class PrintOutcome:
    """What `lp` said about one job."""

    job: PrintJob
    ok: bool
    detail: str

    @property
    def said(self) -> str:
        """What `lp` said, as plain text of one line's length (its exit when it said nothing)."""
        return plain(self.detail, limit=200) or ("taken" if self.ok else "lp failed")


def default_folder(data_dir: Path, shipment_id: str) -> Path:
    """Where a shipment's paperwork goes unless the user says otherwise."""

    return files_dir(data_dir) / "documents" / (safe_name_part(shipment_id) or "shipment")


def document_format(document: Document) -> str:
    """The document's format, lower-case letters and digits only: as given (when that is a
    format name), else from the URL's extension, else pdf."""
    given = (document.format or "").strip().lower()
    if _FORMAT.fullmatch(given):
        return given
    suffix = _url_path(document.url).rsplit("/", 1)[-1].rpartition(".")[2].lower()
    return suffix if suffix in _KNOWN_FORMATS else "pdf"


def document_kind(document: Document, default: str) -> str:
    """The document's type (`bol`, `label`) made a safe name, or the default for its list."""
    return safe_name_part((document.type or "").strip().lower(), limit=24) or default


def file_name(document: Document, kind: str, fmt: str, taken: set[str]) -> str:
    """A safe file name for a document, unique within `taken` (which it extends).

    The server's name (else the URL's last segment) gives the stem, its type leads unless the
    name says it, its format is the extension — each cut to letters, digits, `.`, `-`, `_`.
    """
    name_text = document.name or _url_path(document.url).rsplit("/", 1)[-1]
    name = safe_file_name(name_text, kind, fmt)
    stem, _, extension = name.rpartition(".")
    counter = 2
    while name.lower() in taken:  # case-blind: two names one file on a Mac or a USB stick
        name = f"{stem}-{counter}.{extension}"
        counter += 1
    taken.add(name.lower())
    return name


def inside(folder: Path, name: str) -> Path:
    """``folder / name``, resolved; `DocumentPathError` unless it lies directly in the folder.

    A safe name cannot leave the folder; this also refuses a link planted in the folder under
    that name that points elsewhere.
    """
    base = folder.resolve()
    path = (base / name).resolve()
    if path.parent != base or path.name != name:
        raise DocumentPathError(path, base)
    return path


def _url_path(url: str) -> str:
    try:
        return urlsplit(url).path
    except ValueError:  # a malformed address (`http://[::1/…`): no name from it
        return ""


def planned_files(
    documents: Sequence[Document], default_kind: str = "document"
) -> list[tuple[Document, str, str, str]]:
    """Each document with its kind, format and the file name it is saved under."""
    taken: set[str] = set()
    planned: list[tuple[Document, str, str, str]] = []
    for document in documents:
        kind = document_kind(document, default_kind)
        fmt = document_format(document)
        planned.append((document, kind, fmt, file_name(document, kind, fmt, taken)))
    return planned


async def save_documents(
    download: Downloader,
    documents: Sequence[Document],
    folder: Path,
    *,
    default_kind: str = "document",
) -> list[SavedDocument]:
    """Download each document and write it into `folder` (created); returns what was written.

    Each file lies directly in the folder (its resolved path is checked before anything is
    downloaded); otherwise `DocumentPathError` and nothing more is written.
    """
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    planned = [
        (document, kind, fmt, inside(folder, name))
        for document, kind, fmt, name in planned_files(documents, default_kind)
    ]
    saved: list[SavedDocument] = []
    for document, kind, fmt, path in planned:
        content = await download(document.url)
        await asyncio.to_thread(_write_atomically, path, content)
        saved.append(SavedDocument(path=path, kind=kind, format=fmt))
    return saved


def print_jobs(
    saved: Sequence[SavedDocument],
    *,
    document_printer: str | None,
    label_printer: str | None,
    label_format: str = "zpl",
) -> list[PrintJob]:
    """Which file goes to which printer.

    ZPL goes raw to the label printer when it takes ZPL; PDF labels go to the label printer when
    it takes PDF, else to the document printer; every other document to the document printer.
    """
    jobs: list[PrintJob] = []
    for document in saved:
        if document.format == "zpl":
            if label_printer and label_format == "zpl":
                jobs.append(PrintJob(label_printer, document.path, raw=True))
        elif document.kind == "label" and label_printer:
            if label_format == "pdf" and document.format == "pdf":
                jobs.append(PrintJob(label_printer, document.path, raw=False))
        elif document_printer:
            jobs.append(PrintJob(document_printer, document.path, raw=False))
    return jobs


def default_printer_jobs(saved: Sequence[SavedDocument]) -> list[PrintJob]:
    """Jobs for the system default printer: every document but ZPL (which needs a label printer)."""
    return [
        PrintJob(None, document.path, raw=False) for document in saved if document.format != "zpl"
    ]


@dataclass(frozen=True)
class DocumentsReport:
    """What `save_and_print` did: files saved, `lp` outcomes, and which printer took them."""

    folder: Path
    saved: list[SavedDocument]
    outcomes: list[PrintOutcome]
    printer: str | None = None
    """The printer named to the user: a configured one, or the system default's name."""
    no_printer: bool = False
    """Printing was asked for but no printer is configured and CUPS has no default."""

    @property
    def failed(self) -> list[PrintOutcome]:
        """The jobs `lp` refused."""
        return [outcome for outcome in self.outcomes if not outcome.ok]

    def printer_phrase(self) -> str:
        """Which printer took the jobs, as the status line says it."""
        if self.outcomes and self.outcomes[0].job.printer is None:
            name = f" ({self.printer})" if self.printer else ""
            return f"the system default printer{name}"
        return self.printer or "the printer"


async def save_and_print(
    download: Downloader,
    documents: Sequence[Document],
    folder: Path,
    *,
    printers: PrinterSettings | None,
    default_kind: str = "document",
) -> DocumentsReport:
    """Save ``documents`` into ``folder``; with ``printers``, print them too.

    With no printer configured, the system default CUPS printer (`lpstat -d`) takes them
    through a plain `lp`; with none at all, nothing is saved and the report says so.
    """
    default: str | None = None
    if printers is not None and not (printers.document_printer or printers.label_printer):
        default = await system_default_printer()
        if default is None:
            return DocumentsReport(folder, [], [], no_printer=True)
    saved = await save_documents(download, documents, folder, default_kind=default_kind)
    folder = saved[0].path.parent if saved else folder  # where the files really are
    if printers is None:
        return DocumentsReport(folder, saved, [])
    if default is not None:
        jobs = default_printer_jobs(saved)
    else:
        jobs = print_jobs(
            saved,
            document_printer=printers.document_printer,
            label_printer=printers.label_printer,
            label_format=printers.label_format,
        )
    outcomes = [await run_print_job(job) for job in jobs]
    named = default if default is not None else (jobs[0].printer if jobs else None)
    return DocumentsReport(folder, saved, outcomes, printer=named)


async def system_default_printer() -> str | None:
    """The CUPS system default destination (`lpstat -d`), or None when there is none."""
    if shutil.which("lpstat") is None:
        return None
    try:
        process = await asyncio.create_subprocess_exec(
            "lpstat",
            "-d",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
        )
    except OSError:
        return None
    try:
        out, _ = await asyncio.wait_for(process.communicate(), LP_TIMEOUT)
    except TimeoutError:
        process.kill()
        await process.wait()
        return None
    text = out.decode(errors="replace").strip()
    if process.returncode != 0 or ":" not in text:
        return None  # "no system default destination", or CUPS is not running
    name = text.split(":", 1)[1].strip()
    return name or None


TMUX_CLIPBOARD_HINT = " If nothing was copied, run `tmux set -g set-clipboard on`."


def clipboard_hint(environ: Mapping[str, str] | None = None) -> str:
    """What to add to "Copied …" when the copy (OSC 52) may not have arrived.

    The app cannot see whether the terminal took it; inside tmux it is dropped unless tmux
    lets it through, so tmux users are told how.
    """
    env = os.environ if environ is None else environ
    return TMUX_CLIPBOARD_HINT if env.get("TMUX") else ""


def may_have_default_printer() -> bool:
    """Whether CUPS could name a system default printer here (`lpstat` is on PATH)."""
    return shutil.which("lpstat") is not None


def lp_available() -> bool:
    """Whether an `lp` executable is on PATH."""
    return shutil.which("lp") is not None


async def run_print_job(job: PrintJob) -> PrintOutcome:
    """Run `lp` for one job and report what it said."""
    try:
        process = await asyncio.create_subprocess_exec(
            *job.command(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as error:
        return PrintOutcome(job, ok=False, detail=f"cannot run lp: {error.strerror or error}")
    try:
        out, err = await asyncio.wait_for(process.communicate(), LP_TIMEOUT)
    except TimeoutError:
        process.kill()
        await process.wait()
        return PrintOutcome(job, ok=False, detail="lp did not answer in time")
    text = (out or err).decode(errors="replace").strip()
    if process.returncode != 0:
        return PrintOutcome(job, ok=False, detail=text or f"lp failed ({process.returncode})")
    return PrintOutcome(job, ok=True, detail=text)


def _write_atomically(path: Path, content: bytes) -> None:

    write_atomically(path, content, mode=masked(0o666))
