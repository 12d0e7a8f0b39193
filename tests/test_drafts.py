"""Drafts: a saved form comes back with when it was saved; a damaged one is kept aside
(renamed beside it) and said, never silently overwritten by the next save."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.drafts import DraftStore, damaged_note


def test_a_draft_comes_back_with_when_it_was_saved(tmp_path: Path) -> None:
    store = DraftStore(tmp_path / "drafts")
    assert store.read("quote").data is None
    store.save("quote", {"dest_zip": "30303"})
    read = store.read("quote")
    assert read.data == {"dest_zip": "30303"}
    assert read.saved_at is not None
    assert read.saved_at.tzinfo is not None
    assert not read.damaged


@pytest.mark.parametrize(
    "content",
    [b'{"dest_zip": "303', b"\xff\xfe garbage", b"[1, 2]", b""],
    ids=["torn", "not-utf8", "not-an-object", "empty"],
)
def test_a_damaged_draft_is_kept_aside_and_said(tmp_path: Path, content: bytes) -> None:
    store = DraftStore(tmp_path / "drafts")
    store.directory.mkdir(parents=True)
    (store.directory / "quote.json").write_bytes(content)
    read = store.read("quote")
    assert read.damaged
    assert read.data is None
    assert read.set_aside is not None
    assert read.set_aside.name.startswith("quote.json.damaged-")
    assert read.set_aside.read_bytes() == content  # kept as it was
    assert f"it was kept as {read.set_aside.name}" in damaged_note("the quote", read)
    store.save("quote", {"dest_zip": "60607"})  # the next save does not touch it
    assert read.set_aside.read_bytes() == content
    assert store.load("quote") == {"dest_zip": "60607"}
