"""Issue 37, item 3: the user's word that an order whose lines look hazardous is not
(``--not-hazardous ORDER``, or ``h`` on the Batch screen) is kept with its batch, for the lines
it was given of: reading the same file again does not ask again, unless those lines changed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.batch.conftest import demo_context, write
from tui.batch.engine import NOT_HAZARDOUS, Batch, source_id
from tui.batch.fields import guess_mapping
from tui.batch.source import read_file
from tui.batch.store import SharedBatchStore

HEADER = "Order,Ship From Zip,Zip,State,Qty,Unit Type,Weight,Dims,Description\n"
CLEANER = "H1,60607,30303,GA,1,Pail,40,12x12x14,Corrosive cleaner\n"
TABLES = "H2,60607,30303,GA,1,Pallet,400,48x40x48,Oak tables\n"
PAINT = "H3,60607,30303,GA,1,Pallet,400,48x40x48,Latex paint\n"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SharedBatchStore]:
    kept = SharedBatchStore.in_dir(tmp_path / "data")
    yield kept
    kept.close()


def _open(store: SharedBatchStore, path: Path, *said: str) -> Batch:
    sheet = read_file(path)
    context = demo_context(not_hazardous=frozenset(said))
    return Batch.open(store, "demo", source_id(path), sheet, guess_mapping(sheet.headers), context)


def _statuses(batch: Batch) -> dict[str, str]:
    return {order.key: batch.state(order.key).status for order in batch.orders}


def test_the_word_holds_on_the_next_run_until_the_lines_change(
    store: SharedBatchStore, tmp_path: Path
) -> None:
    path = write(tmp_path / "shop.csv", HEADER + CLEANER + TABLES + PAINT)
    first = _open(store, path)
    assert _statuses(first) == {"H1": "invalid", "H2": "pending", "H3": "invalid"}
    looks = first.order("H1")
    assert looks is not None
    assert looks.looks_hazardous is not None
    assert looks.looks_hazardous.words == "corrosive"

    said = _open(store, path, "H1")  # --not-hazardous H1
    assert _statuses(said)["H1"] == "pending"
    again = _open(store, path)  # the next run, without the flag
    assert _statuses(again) == {"H1": "pending", "H2": "pending", "H3": "invalid"}
    assert any("booked as not hazardous, as you said" in n for n in again.state("H1").notes)

    write(path, HEADER + CLEANER.replace("cleaner", "cleaner and lye") + TABLES + PAINT)
    changed = _open(store, path)  # its lines are not those the word was given of
    assert _statuses(changed)["H1"] == "invalid"


def test_the_screens_word_is_kept_for_the_orders_that_look_hazardous(
    store: SharedBatchStore, tmp_path: Path
) -> None:
    path = write(tmp_path / "shop.csv", HEADER + CLEANER + TABLES + PAINT)
    batch = _open(store, path)
    assert batch.say_not_hazardous(["H3", "H2"]) == ["H3"]  # H2 looks harmless: no word
    assert set(batch.info.settings[NOT_HAZARDOUS]) == {"H3"}
    reread = _open(store, path)
    assert _statuses(reread) == {"H1": "invalid", "H2": "pending", "H3": "pending"}
    reread.apply_rules(reread.rules)  # other settings kept later keep the word too
    assert _statuses(_open(store, path))["H3"] == "pending"
