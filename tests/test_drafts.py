"""Drafts: a saved form comes back with when it was saved; a damaged one is kept aside
(renamed beside it) and said, never silently overwritten by the next save."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tui.drafts import BOOKED, DraftStore, DraftWriter, damaged_note, draft_writer


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


class GatedStore(DraftStore):
    """A real store whose first write waits at a gate, and which notes every write it makes
    (the data and the thread it ran on)."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.writes: list[tuple[dict[str, Any] | None, str]] = []

    def save(self, name: str, data: dict[str, Any]) -> None:
        self.entered.set()
        assert self.gate.wait(30), "the test never opened the gate"
        super().save(name, data)
        self.writes.append((data, threading.current_thread().name))

    def clear(self, name: str) -> None:
        super().clear(name)
        self.writes.append((None, threading.current_thread().name))


def test_the_writer_writes_on_its_own_thread_and_never_an_older_draft_after_a_newer(
    tmp_path: Path,
) -> None:
    store = GatedStore(tmp_path / "drafts")
    writer = DraftWriter("quote")
    writer.save(store, {"dest_zip": "1"})
    assert store.entered.wait(30)  # the first write is under way, held at the gate
    assert writer.busy
    for text in ("12", "123", "1234"):  # typed meanwhile: only the newest waits its turn
        writer.save(store, {"dest_zip": text})
    assert not store.writes, "save returned before the disk was touched"
    store.gate.set()
    assert writer.wait(30)
    assert [data for data, _thread in store.writes] == [{"dest_zip": "1"}, {"dest_zip": "1234"}]
    assert {thread for _data, thread in store.writes} == {"draft-quote"}
    assert store.read("quote").data == {"dest_zip": "1234"}


def test_a_clear_asked_after_a_save_is_done_after_it(tmp_path: Path) -> None:
    store = GatedStore(tmp_path / "drafts")
    writer = DraftWriter("quote")
    writer.save(store, {"dest_zip": "30303"})
    assert store.entered.wait(30)
    writer.clear(store)
    store.gate.set()
    assert writer.wait(30)
    assert [data for data, _thread in store.writes] == [{"dest_zip": "30303"}, None]
    assert store.read("quote").data is None
    writer.save(store, {"dest_zip": "60607"})  # a write after the thread ended starts another
    assert writer.wait(30)
    assert store.read("quote").data == {"dest_zip": "60607"}


def test_a_mark_keeps_the_order_of_the_writes_asked_before_it(tmp_path: Path) -> None:
    """A booking's mark goes through the draft's writer: a version waiting its turn is
    written marked (never the older one on disk marked, then overwritten unmarked)."""
    store = GatedStore(tmp_path / "drafts")
    writer = DraftWriter("quote")
    writer.save(store, {"dest_zip": "3"})
    assert store.entered.wait(30)
    writer.save(store, {"dest_zip": "30303"})  # typed while the first write is on its way
    writer.mark_booked(store, "FR-1")
    store.gate.set()
    assert writer.wait(30)
    marked = {"dest_zip": "30303", BOOKED: "FR-1"}
    assert [data for data, _thread in store.writes] == [{"dest_zip": "3"}, marked]
    assert {thread for _data, thread in store.writes} == {"draft-quote"}
    assert store.load("quote") == marked


def test_a_mark_reads_the_draft_on_the_writers_thread(tmp_path: Path) -> None:
    store = GatedStore(tmp_path / "drafts")
    store.gate.set()
    writer = DraftWriter("quote")
    writer.mark_booked(store, "FR-2")  # no draft: nothing written
    assert writer.wait(30)
    assert store.writes == []
    DraftStore(store.directory).save("quote", {"dest_zip": "60607"})
    writer.mark_booked(store, "FR-3")
    assert writer.wait(30)
    assert store.writes == [({"dest_zip": "60607", BOOKED: "FR-3"}, "draft-quote")]
    writer.save(store, {"dest_zip": "1"})
    assert store.entered.wait(30)
    writer.clear(store)
    writer.mark_booked(store, "FR-4")  # after a removal: nothing left to mark
    assert writer.wait(30)
    assert store.load("quote") is None


def test_each_draft_has_one_writer() -> None:
    assert draft_writer("quote") is draft_writer("quote")
    assert draft_writer("quote") is not draft_writer("book")
