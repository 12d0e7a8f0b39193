"""The Batch screen's results (``e``) for a workbook: an ``.xlsx`` order file gives an
``.xlsx`` results file beside it, whose long numbers Excel keeps as text."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook, load_workbook

from tests.ui.test_batch import monday, open_file, rate, sandbox, session  # noqa: F401
from tui.app import make_app
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
        await pilot.pause()
        batch = screen.current_batch
        assert batch is not None
        choice = batch.state("W1").choice
        assert choice is not None
    written = path.with_name("orders-results.xlsx")
    sheet = load_workbook(written).active
    assert sheet is not None
    rows = [[cell.value for cell in row] for row in sheet.iter_rows()]
    at = {name: n for n, name in enumerate(rows[0])}
    assert [row[at["PO"]] for row in rows[1:]] == [PO, PO]
    assert [row[at["Status"]] for row in rows[1:]] == ["rated", "rated"]
    assert [row[at["Total"]] for row in rows[1:]] == [float(choice.total), None]  # once
