"""Saving a booking's documents to disk and printing them with `lp` (a fake one, first on PATH)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from tests.fake_lp import LpCall, install_fake_lp, install_fake_lpstat
from tui import documents
from tui.api.client import FreightClient
from tui.api.models import Document, RateItem, RateRequest
from tui.config.settings import PrinterSettings
from tui.demo import DEMO_TOKEN


def _saved(name: str, kind: str, fmt: str) -> documents.SavedDocument:
    return documents.SavedDocument(Path("/tmp") / name, kind, fmt)


def test_zpl_goes_raw_to_the_label_printer_and_pdfs_to_the_document_printer() -> None:
    saved = [
        _saved("bol.pdf", "bol", "pdf"),
        _saved("label.pdf", "label", "pdf"),
        _saved("label.zpl", "label", "zpl"),
    ]
    jobs = documents.print_jobs(saved, document_printer="office", label_printer="zebra")
    assert [(job.printer, job.path.name, job.raw) for job in jobs] == [
        ("office", "bol.pdf", False),
        ("zebra", "label.zpl", True),
    ]
    assert jobs[1].command() == ["lp", "-d", "zebra", "-o", "raw", "--", "/tmp/label.zpl"]


def test_without_a_label_printer_pdf_labels_go_to_the_document_printer() -> None:
    saved = [_saved("label.pdf", "label", "pdf"), _saved("label.zpl", "label", "zpl")]
    jobs = documents.print_jobs(saved, document_printer="office", label_printer=None)
    assert [(job.printer, job.path.name) for job in jobs] == [("office", "label.pdf")]


def test_a_pdf_label_printer_gets_the_pdf_label_not_the_zpl() -> None:
    saved = [_saved("label.pdf", "label", "pdf"), _saved("label.zpl", "label", "zpl")]
    jobs = documents.print_jobs(
        saved, document_printer=None, label_printer="dymo", label_format="pdf"
    )
    assert [(job.printer, job.path.name, job.raw) for job in jobs] == [("dymo", "label.pdf", False)]


def test_file_names_are_safe_and_unique() -> None:
    taken: set[str] = set()
    evil = Document(url="http://x/documents/a.pdf", name="../../etc/passwd", format="pdf")
    first = documents.file_name(evil, "bol", "pdf", taken)
    assert "/" not in first
    assert first == "bol-passwd.pdf"
    same = Document(url="http://x/documents/label", type="label", format="zpl")
    assert documents.file_name(same, "label", "zpl", taken) == "label.zpl"
    assert documents.file_name(same, "label", "zpl", taken) == "label-2.zpl"


def test_format_comes_from_the_url_when_not_given() -> None:
    assert documents.document_format(Document(url="http://x/d/label.ZPL")) == "zpl"
    assert documents.document_format(Document(url="http://x/d/thing")) == "pdf"


async def test_printing_runs_lp_with_the_printer_and_raw_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fake `lp` is a script placed first on PATH; it records its argv and the file's head.
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    label = tmp_path / "label.zpl"
    label.write_bytes(b"^XA^FO50,50^XZ")
    outcome = await documents.run_print_job(documents.PrintJob("zebra", label, raw=True))
    assert outcome.ok, outcome.detail
    assert "request id" in outcome.detail
    assert lp.calls() == [LpCall(["-d", "zebra", "-o", "raw", "--", str(label)], "^XA^FO50")]


async def test_a_failing_lp_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "lp"
    script.write_text("#!/bin/sh\necho 'lp: The printer or class does not exist.' >&2\nexit 1\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    outcome = await documents.run_print_job(
        documents.PrintJob("nope", tmp_path / "x.pdf", raw=False)
    )
    assert not outcome.ok
    assert "does not exist" in outcome.detail


async def test_booked_documents_are_saved_as_real_pdf_and_zpl(
    sandbox_transport: httpx.AsyncBaseTransport, sandbox_base_url: str, tmp_path: Path
) -> None:
    client = FreightClient(sandbox_base_url, DEMO_TOKEN, transport=sandbox_transport)
    try:
        quote = await client.get_rates(
            RateRequest(
                origin_postal_code="60607",
                dest_postal_code="30303",
                items=[
                    RateItem(
                        weight=Decimal(500),
                        length=Decimal(48),
                        width=Decimal(40),
                        height=Decimal(48),
                        quantity=2,
                        package="pallet",
                    )
                ],
            )
        )
        rate = next(r for r in quote.rates if r.is_ok and r.mode == "ltl")
        booking = await client.book(
            {
                "id": quote.id,
                "rateId": rate.id,
                "schedulePickup": True,
                "originCompany": "Acme Dock Co",
                "originAddress": "1200 W Lake St",
                "destCompany": "Peach Retail",
                "destAddress": "88 Peachtree St NE",
            }
        )
        folder = tmp_path / "papers" / (booking.shipment_id or "x")
        saved = await documents.save_documents(client.download_document, booking.documents, folder)
    finally:
        await client.aclose()
    formats = sorted(doc.format for doc in saved)
    assert "pdf" in formats
    assert "zpl" in formats
    for doc in saved:
        content = doc.path.read_bytes()
        assert doc.path.parent == folder
        if doc.format == "pdf":
            assert content.startswith(b"%PDF-")
        if doc.format == "zpl":
            assert content.lstrip().startswith(b"^XA")
            assert content.rstrip().endswith(b"^XZ")


PAPERS = [
    Document(url="http://x/d/bol.pdf", type="bol", format="pdf"),
    Document(url="http://x/d/label.zpl", type="label", format="zpl"),
]


async def _download(url: str) -> bytes:
    return b"%PDF-1.4 bol" if url.endswith(".pdf") else b"^XA^FO50^XZ"


async def test_with_no_printer_configured_the_system_default_prints_what_it_can(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    install_fake_lpstat(tmp_path / "bin", monkeypatch, "office-laser")
    report = await documents.save_and_print(
        _download, PAPERS, tmp_path / "out", printers=PrinterSettings()
    )
    assert [saved.path.name for saved in report.saved] == ["bol.pdf", "label.zpl"]
    pdf = str(tmp_path / "out" / "bol.pdf")
    assert lp.calls() == [LpCall(["--", pdf], "%PDF-1.4")], "plain lp, no -d; ZPL is not sent"
    assert report.printer_phrase() == "the system default printer (office-laser)"


async def test_with_no_printer_and_no_system_default_nothing_is_saved_and_it_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    install_fake_lpstat(tmp_path / "bin", monkeypatch, None)
    report = await documents.save_and_print(
        _download, PAPERS, tmp_path / "out", printers=PrinterSettings()
    )
    assert report.no_printer
    assert lp.calls() == []
    assert not (tmp_path / "out").exists()


async def test_a_configured_printer_wins_over_the_system_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    install_fake_lpstat(tmp_path / "bin", monkeypatch, "office-laser")
    report = await documents.save_and_print(
        _download, PAPERS, tmp_path / "out", printers=PrinterSettings(document_printer="front")
    )
    assert [call.argv[:2] for call in lp.calls()] == [["-d", "front"]]
    assert report.printer_phrase() == "front"


def test_the_copy_message_tells_tmux_users_how_to_let_it_through() -> None:
    hint = documents.clipboard_hint({"TMUX": "/tmp/tmux-1000/default,1,0"})
    assert "tmux set -g set-clipboard on" in hint
    assert documents.clipboard_hint({}) == ""


def _tree(root: Path) -> set[Path]:
    return {path for path in root.rglob("*")}


async def test_a_hostile_servers_documents_land_in_the_folder_and_nowhere_else(
    tmp_path: Path,
) -> None:
    """Types, formats and names that are paths (``/home/u/`` + ``bashrc``, ``../../``,
    ``.ssh/…``, ``CON``, escapes) make safe names in the chosen folder; nothing lands outside."""
    from tests.hostile_server import TOKEN, HostileServer

    server = HostileServer()
    disk = tmp_path / "disk"
    home = disk / "home" / "u"
    folder = home / "papers" / "PRO1"
    home.mkdir(parents=True)
    (home / ".bashrc").write_text("# mine\n")
    async with FreightClient(
        server.base_url, TOKEN, transport=httpx.ASGITransport(app=server.app())
    ) as client:
        detail = await client.get_shipment("shp_1")
        saved = await documents.save_documents(client.download_document, detail.documents, folder)
    assert (home / ".bashrc").read_text() == "# mine\n"
    assert _tree(disk) - _tree(folder) == {
        disk / "home",
        home,
        home / ".bashrc",
        home / "papers",
        folder,
    }
    names = sorted(doc.path.name for doc in saved)
    assert names == sorted(path.name for path in folder.iterdir())
    assert len(names) == len(detail.documents)
    for name in names:
        assert not name.startswith(".")
        assert name.split(".")[0].lower() not in {"con", "nul", "aux", "prn"}
        assert name.isascii()
    assert "home-u.bashrc" in names  # the type and the format are in the name, made safe


async def test_a_link_planted_in_the_folder_is_not_followed(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    (folder / "bol.pdf").symlink_to(outside)
    papers = [Document(url="http://x/d/bol.pdf", type="bol", format="pdf")]
    with pytest.raises(documents.DocumentPathError, match="outside") as refused:
        await documents.save_documents(_download, papers, folder)
    assert str(outside) in str(refused.value)  # it says where the file would have gone
    assert outside.read_text() == "keep me"
    assert sorted(p.name for p in folder.iterdir()) == ["bol.pdf"]  # no part file left


def test_a_malformed_document_url_still_gets_a_name() -> None:
    broken = Document(url="http://[::1/docs/bol.pdf", type="bol")
    assert documents.document_format(broken) == "pdf"
    assert documents.file_name(broken, "bol", "pdf", set()) == "bol.pdf"
