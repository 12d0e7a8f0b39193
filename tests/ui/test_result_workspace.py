"""Served (`freight serve`), the Result screen's Folder field stays inside the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.booking_flow import book_to_result, parcel_request
from tests.ui.screen import screen_text, settle
from tui.app import make_app
from tui.session import Session
from tui.widgets.plain import Static


def squash(text: str) -> str:
    return "".join(text.split())


async def test_a_served_result_screen_saves_only_inside_the_workspace(
    ui_session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (workspace / "planted").symlink_to(elsewhere)  # a link in the folder, pointing out
    monkeypatch.setenv("FREIGHT_WORKSPACE", str(workspace))
    app = make_app(ui_session)
    async with app.run_test(size=(100, 30)) as pilot:
        await book_to_result(pilot, parcel_request(), mode="parcel")
        field = app.screen.query_one("#result-folder")
        status = app.screen.query_one("#result-status", Static)
        for outside in (str(elsewhere), "../elsewhere", str(workspace / "planted"), "~"):
            await pilot.press("f")
            field.value = outside  # type: ignore[attr-defined]
            await pilot.press("enter")
            await settle(pilot)
            shown = squash(str(status.render()))
            assert squash("files stay in the workspace folder") in shown, outside
            assert app.focused is field  # the field, to correct it
        assert not list(elsewhere.iterdir())
        # A folder inside it (relative to it) is fine.
        await pilot.press("f")
        field.value = "labels"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        saved = sorted(path.suffix for path in (workspace / "labels").iterdir())
        assert saved == [".pdf", ".zpl"], screen_text(app)
