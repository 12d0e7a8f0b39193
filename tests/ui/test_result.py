"""The result screen after a real sandbox booking: copy, save, print (fake `lp`), navigate."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_lp import install_fake_lp, install_fake_lpstat
from tests.ui.booking_flow import book_to_result, parcel_request, value_after
from tests.ui.screen import screen_text, settle, wait_for
from tui.app import make_app
from tui.domain.display_paths import display_path
from tui.screens.result import KEY_BOUNCE_SECONDS, ResultScreen
from tui.session import Session


def squash(text: str) -> str:
    """Text without any whitespace, to find a message the screen wrapped (long paths)."""
    return "".join(text.split())


async def test_number_keys_copy_each_number(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await book_to_result(pilot)
        assert isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        pro, bol = value_after(text, "PRO"), value_after(text, "BOL")
        pickup = value_after(text, "Pickup conf.")
        await pilot.press("2")
        assert app.clipboard == bol
        assert f"Copied BOL {bol}." in screen_text(app)
        await pilot.press("3")
        assert app.clipboard == pickup
        await pilot.press("y")
        assert app.clipboard == pro


async def test_saving_writes_the_bol_and_labels_to_the_folder(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(100, 30)) as pilot:
        await book_to_result(pilot)
        shipment_id = value_after(screen_text(app), "Shipment")
        await pilot.press("s")
        await settle(pilot)
        folder = ui_session.data_dir / "documents" / shipment_id
        files = sorted(folder.iterdir())
        assert {path.suffix for path in files} == {".pdf", ".zpl"}
        for path in files:
            head = path.read_bytes()[:5]
            assert head == b"%PDF-" if path.suffix == ".pdf" else head.startswith(b"^XA")
        shown = display_path(folder, 50)  # home as ~, a long folder shortened in the middle
        assert squash(f"Saved {len(files)} files to {shown}") in squash(screen_text(app))


async def test_saving_to_a_folder_typed_by_the_user(ui_session: Session, tmp_path: Path) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await book_to_result(pilot, parcel_request(), mode="parcel")
        await pilot.press("f")
        field = app.screen.query_one("#result-folder")
        field.value = ""  # type: ignore[attr-defined]
        target = tmp_path / "labels here"
        await pilot.press(*str(target), "enter")
        await settle(pilot)
        saved = sorted(path.suffix for path in target.iterdir())
        assert saved == [".pdf", ".zpl"]


async def test_printing_sends_pdf_to_the_document_printer_and_zpl_raw_to_the_label_printer(
    ui_session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `lp` here is a fake: a script first on PATH that records its argv (tests/fake_lp.py).
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    ui_session.config.printers.document_printer = "office"
    ui_session.config.printers.label_printer = "zebra"
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await book_to_result(pilot)
        await pilot.press("p")
        await settle(pilot)
        calls = lp.calls()
        office = [call for call in calls if call.argv[:2] == ["-d", "office"]]
        zebra = [call for call in calls if call.argv[:2] == ["-d", "zebra"]]
        assert office
        assert all(call.argv[-1].endswith(".pdf") for call in office)
        assert all(call.head.startswith("%PDF-") for call in office)
        assert len(zebra) == 1
        assert zebra[0].argv == ["-d", "zebra", "-o", "raw", "--", zebra[0].argv[-1]]
        assert zebra[0].head.startswith("^XA")
        assert squash(f"Sent {len(calls)} to the printer.") in squash(screen_text(app))


async def test_print_without_a_printer_says_how_to_set_one(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await book_to_result(pilot)
        await pilot.press("p")
        await pilot.pause()
        text = squash(screen_text(app))
        assert squash("No printer configured") in text
        assert squash("under [printers] in the config") in text  # the section name kept


async def test_enter_opens_the_shipment_and_n_starts_a_new_quote(ui_session: Session) -> None:
    from tui.domain.quote_form import ItemDraft
    from tui.screens.quote import QuoteScreen

    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        quote = app.screen
        assert isinstance(quote, QuoteScreen)
        await quote.editor.add_row(ItemDraft(quantity="2", weight="800", description="Old load"))
        await pilot.pause()
        assert any(item.description == "Old load" for item in quote.editor.values())
        await book_to_result(pilot)
        assert isinstance(app.screen, ResultScreen)
        result = app.screen
        await pilot.pause(KEY_BOUNCE_SECONDS)
        await pilot.press("enter")
        await pilot.pause()
        from tui.screens.shipment_detail import ShipmentDetailScreen

        assert isinstance(app.screen, ShipmentDetailScreen)
        assert app.screen.shipment_id == result.booking.shipment_id
        app.switch_mode("quote")
        await pilot.pause()
        assert app.screen is result
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is quote
        await wait_for(pilot, lambda: all(item.is_blank() for item in quote.editor.values()))
        assert "Old load" not in screen_text(app)


async def test_print_without_a_configured_printer_uses_the_system_default_and_names_it(
    ui_session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lp = install_fake_lp(tmp_path / "bin", monkeypatch)
    install_fake_lpstat(tmp_path / "bin", monkeypatch, "office-laser")
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await book_to_result(pilot)
        await pilot.press("p")
        await settle(pilot)
        calls = lp.calls()
        assert calls
        assert all(call.argv[0] == "--" for call in calls), "plain lp: no -d"
        text = squash(screen_text(app))
        assert squash("to the system default printer (office-laser).") in text


async def test_copying_inside_tmux_says_how_to_let_the_copy_through(
    ui_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,1,0")
    app = make_app(ui_session)
    async with app.run_test(size=(120, 40)) as pilot:
        await book_to_result(pilot)
        await pilot.press("1")
        await pilot.pause()
        assert squash("run `tmux set -g set-clipboard on`") in squash(screen_text(app))
