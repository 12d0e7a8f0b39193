"""The Batch screen's plain parts: the choices of a path, how orders read with a mapping, and
pasted rows kept so their batch can be resumed."""

from __future__ import annotations

from pathlib import Path

from tests.batch.conftest import WMS_EXPORT, demo_context
from tui.batch.engine import source_id
from tui.batch.fields import guess_mapping
from tui.batch.mappings import name_problem
from tui.batch.orders import read_orders
from tui.batch.pasted import is_kept, keep, kept_file, read_kept
from tui.batch.source import read_file
from tui.batch.view import complete_path, path_choices, preview_text


def test_the_names_that_fit_a_path_folders_and_order_files_only(tmp_path: Path) -> None:
    (tmp_path / "week").mkdir()
    for name in ("wms-1.csv", "wms-2.xlsx", "wms-notes.pdf", ".wms-hidden.csv"):
        (tmp_path / name).write_text("")
    assert path_choices(f"{tmp_path}/w") == ["week/", "wms-1.csv", "wms-2.xlsx"]
    assert path_choices(f"{tmp_path}/wm") == ["wms-1.csv", "wms-2.xlsx"]
    assert complete_path(f"{tmp_path}/wm") == f"{tmp_path}/wms-"
    assert complete_path(f"{tmp_path}/we") == f"{tmp_path}/week/"
    assert path_choices(f"{tmp_path}/zz") == []
    assert path_choices("") == []


def test_the_preview_counts_the_orders_ready_and_names_the_first_problem() -> None:
    sheet = read_file(WMS_EXPORT)
    orders = read_orders(sheet, guess_mapping(sheet.headers), demo_context())
    text, problem = preview_text(orders)
    assert problem
    assert text.startswith("120 orders: 113 ready · 7 set aside (first: row 24, Zip: is blank")


def test_pasted_rows_are_kept_byte_for_byte_and_name_their_batch_again(tmp_path: Path) -> None:
    text = "Order\tZip\r\nP1\t30303\r\nP2\t75207\r\n"
    kept = keep(tmp_path, text)
    assert kept == kept_file(tmp_path, source_id(None, text))
    assert read_kept(kept) == text  # CRLF and all: the same digest, the same batch
    assert source_id(None, read_kept(kept)) == source_id(None, text)
    assert is_kept(tmp_path, kept)
    assert not is_kept(tmp_path, tmp_path / "orders.csv")
    assert keep(tmp_path, text) == kept  # once per text
    assert kept_file(tmp_path, "/home/me/orders.csv") is None
    assert kept_file(tmp_path, "pasted:../../etc") is None  # never a path out of the folder


def test_a_mapping_name_is_checked_before_it_is_saved() -> None:
    assert name_problem("Dock 3 export") == ""
    assert "up to 60" in name_problem("../../x")
    assert "up to 60" in name_problem("")
