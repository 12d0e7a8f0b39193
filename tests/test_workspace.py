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
    assert confine(str(outside), also=[outside]) == outside  # Freight's own sample: read
    with pytest.raises(OutsideWorkspace):
        confine(str(outside), also=[outside], writing=True)


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


def test_two_served_tabs_keep_their_own_drafts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import subprocess
    import sys

    from tui import workspace

    drafts = tmp_path / "drafts" / "demo"
    other_tab = [
        sys.executable, "-c",
        "import sys; from pathlib import Path; from tui.workspace import draft_folder;"
        " print(draft_folder(Path(sys.argv[1])))", str(drafts),
    ]  # fmt: skip
    env = dict(os.environ, FREIGHT_SERVE_SESSION="b")
    monkeypatch.setattr(workspace, "_slots", {})
    monkeypatch.delenv("FREIGHT_SERVE_SESSION", raising=False)
    assert workspace.draft_folder(drafts) == drafts  # in a terminal: the one folder
    monkeypatch.setenv("FREIGHT_SERVE_SESSION", "a")
    assert workspace.draft_folder(drafts) == drafts  # the first tab: the usual drafts
    try:
        for _ in range(2):  # a second tab, and that tab reloaded: its own slot each time
            second = subprocess.run(other_tab, env=env, capture_output=True, text=True, check=True)
            assert second.stdout.strip() == str(drafts / "tab-2")
    finally:
        for _folder, fd in workspace._slots.values():
            os.close(fd)  # the first tab ends
    alone = subprocess.run(other_tab, env=env, capture_output=True, text=True, check=True)
    assert alone.stdout.strip() == str(drafts)  # its slot is free again
