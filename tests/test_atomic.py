"""Files written whole or not at all: a failed or stopped write leaves the old file and no
temporary; modes are set before a byte is written; never-overwrite means never."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tui.atomic import masked, replacing, replacing_text, write_atomically


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A data folder of its own (the test home sits beside it)."""
    path = tmp_path / "data"
    path.mkdir()
    return path


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_write_replaces_the_file_whole_and_leaves_nothing_beside_it(folder: Path) -> None:
    target = folder / "drafts.json"
    target.write_text("old", encoding="utf-8")
    write_atomically(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert [p.name for p in folder.iterdir()] == ["drafts.json"]


def test_a_write_that_fails_midway_keeps_the_old_content(folder: Path) -> None:
    target = folder / "results.csv"
    target.write_bytes(b"the old results\n")

    def write_then_fail() -> None:
        with replacing(target) as replacement:
            replacement.file.write(b"half of the new")
            raise RuntimeError("disk pulled")

    with pytest.raises(RuntimeError):
        write_then_fail()
    assert target.read_bytes() == b"the old results\n"
    assert [p.name for p in folder.iterdir()] == ["results.csv"]


def test_a_value_that_cannot_be_written_keeps_the_old_content(folder: Path) -> None:
    target = folder / "export.csv"
    target.write_text("a,b\n", encoding="utf-8")

    def write() -> None:
        with replacing_text(target, encoding="ascii") as out:
            out.file.write("café")

    with pytest.raises(UnicodeEncodeError):
        write()
    assert target.read_text(encoding="utf-8") == "a,b\n"
    assert [p.name for p in folder.iterdir()] == ["export.csv"]


def test_a_discarded_write_keeps_the_old_content(folder: Path) -> None:
    target = folder / "shipments.csv"
    target.write_text("kept\n", encoding="utf-8")
    with replacing_text(target, newline="") as out:
        out.file.write("stopped halfway\r\n")
        out.discard()
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert [p.name for p in folder.iterdir()] == ["shipments.csv"]


def test_a_secret_is_0600_even_where_the_old_file_and_the_umask_were_open(
    folder: Path,
) -> None:
    target = folder / "credentials.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o644)
    old = os.umask(0o000)
    try:
        write_atomically(target, '{"secret": "s"}')
    finally:
        os.umask(old)
    assert mode_of(target) == 0o600


def test_a_shared_file_gets_the_mode_asked_for(folder: Path) -> None:
    target = folder / "config.toml"
    old = os.umask(0o027)
    try:
        write_atomically(target, "x = 1\n", mode=masked(0o644))
    finally:
        os.umask(old)
    assert mode_of(target) == 0o640


def test_never_overwrite_leaves_an_existing_file_and_says_so(folder: Path) -> None:
    target = folder / "A1-bol.pdf"
    target.write_bytes(b"someone else's")
    with pytest.raises(FileExistsError):
        write_atomically(target, b"ours", overwrite=False)
    assert target.read_bytes() == b"someone else's"
    assert [p.name for p in folder.iterdir()] == ["A1-bol.pdf"]
    write_atomically(folder / "A1-bol-2.pdf", b"ours", overwrite=False)
    assert (folder / "A1-bol-2.pdf").read_bytes() == b"ours"


def test_a_symlink_at_the_target_is_replaced_never_followed(folder: Path) -> None:
    elsewhere = folder / "elsewhere"
    elsewhere.write_text("not ours to change", encoding="utf-8")
    target = folder / "index.json"
    target.symlink_to(elsewhere)
    write_atomically(target, "{}")
    assert not target.is_symlink()
    assert target.read_text(encoding="utf-8") == "{}"
    assert elsewhere.read_text(encoding="utf-8") == "not ours to change"
