"""The Batch screen's results (``e``) for a workbook: an ``.xlsx`` order file gives an
``.xlsx`` results file beside it, whose long numbers Excel keeps as text."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook, load_workbook

from tests.ui.screen import wait_for
from tests.ui.test_batch import monday, open_file, rate, sandbox, session  # noqa: F401
from tui.app import make_app
from tui.screens.batch_results import BatchResultsDialog
from tui.session import Session

PO = "00412345678901234"  # 17 digits with leading zeros: Excel's number would lose them


def workbook_orders(folder: Path) -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Order", "Zip", "Weight", "Length", "Width", "Height", "Unit Type", "PO"])
    sheet.append(["W1", "30303", 800, 48, 40, 48, "Pallet", PO])
    sheet.append(["W1", "30303", 200, 40, 30, 36, "Crate", PO])
    path = folder / "orders.xlsx"
    book.save(path)
    return path


async def test_an_xlsx_order_file_gives_an_xlsx_results_file(
    session: Session,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = workbook_orders(tmp_path)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        await rate(pilot, screen)
        await pilot.press("e")
        written = path.with_name("orders-results.xlsx")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchResultsDialog), what="asked")
        await pilot.press("enter")
        await wait_for(pilot, written.exists, what="the results")
        batch = screen.current_batch
        assert batch is not None
        choice = batch.state("W1").choice
        assert choice is not None
    sheet = load_workbook(written).active
    assert sheet is not None
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    at = {name: n for n, name in enumerate(rows[0])}
    assert [row[at["PO"]] for row in rows[1:]] == [PO, PO]
    assert [row[at["Status"]] for row in rows[1:]] == ["rated", "rated"]
    assert [row[at["Total"]] for row in rows[1:]] == [float(choice.total), None]  # once


async def test_the_batch_asks_where_results_go_and_refuses_freights_own_folder(
    session: Session,  # noqa: F811
    tmp_path: Path,
) -> None:
    from textual.widgets import Input

    from tests.ui.screen import screen_text
    from tui.batch.results import PACKAGE

    path = workbook_orders(tmp_path)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_file(pilot, path)
        await rate(pilot, screen)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, BatchResultsDialog), what="asked")
        dialog = app.screen
        field = dialog.query_one("#batch-results-path", Input)
        assert field.value.endswith("orders-results.xlsx")
        field.value = str(PACKAGE / "batch" / "samples" / "orders-results.xlsx")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Freight's own folder" in screen_text(app), what="refused")
        assert app.screen is dialog  # still asking
        mine = tmp_path / "elsewhere.xlsx"
        field.value = str(mine)
        await pilot.press("enter")
        await wait_for(pilot, mine.exists, what="written where the user said")
    assert not (PACKAGE / "batch" / "samples" / "orders-results.xlsx").exists()
    assert not path.with_name("orders-results.xlsx").exists()
