"""One folder for a served session, and one download per action (tui.workspace)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from tui.workspace import OutsideWorkspace, confine, files_dir, inside, one_download


def test_a_served_session_stays_in_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "workspace"
    (folder / "orders").mkdir(parents=True)
    outside = tmp_path / "secret.csv"
    outside.write_text("key,secret\n", encoding="utf-8")
    (folder / "link.csv").symlink_to(outside)
    monkeypatch.setenv("FREIGHT_WORKSPACE", str(folder))
    assert confine("orders/day.csv") == folder / "orders" / "day.csv"
    assert confine(str(folder / "orders")) == folder / "orders"
    for escape in (str(outside), "../secret.csv", "~/x.csv", "/etc/passwd", "link.csv"):
        with pytest.raises(OutsideWorkspace, match="stay in the workspace folder"):
            confine(escape)
        assert not inside(escape)
    assert files_dir(tmp_path / "data") == folder.resolve()


def test_outside_a_browser_any_path_is_read_but_no_dotfile_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FREIGHT_WORKSPACE", raising=False)
    assert confine(str(tmp_path / "a.csv")) == tmp_path / "a.csv"
    assert confine(str(tmp_path / ".orders.csv")) == tmp_path / ".orders.csv"  # read: fine
    with pytest.raises(OutsideWorkspace, match="starts with a dot"):
        confine(str(tmp_path / ".bashrc"), writing=True)
    assert files_dir(tmp_path) == tmp_path


def test_several_files_go_to_the_browser_as_one_zip(tmp_path: Path) -> None:
    folder = tmp_path / "PRO 123"
    folder.mkdir()
    files = [folder / "bol.pdf", folder / "label.zpl"]
    files[0].write_bytes(b"%PDF-1.4")
    files[1].write_bytes(b"^XA^XZ")
    one = one_download(files[:1])
    assert (one.name, one.count, one.payload.read()) == ("bol.pdf", 1, b"%PDF-1.4")
    both = one_download(files)
    assert both.name == "PRO_123.zip"
    assert both.mime_type == "application/zip"
    assert both.sentence == "The browser was given PRO_123.zip (2 files)."
    with zipfile.ZipFile(io.BytesIO(both.payload.getvalue())) as archive:
        assert {n: archive.read(n) for n in archive.namelist()} == {
            "bol.pdf": b"%PDF-1.4",
            "label.zpl": b"^XA^XZ",
        }
