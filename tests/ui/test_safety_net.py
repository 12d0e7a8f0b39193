"""The app's safety net: a worker that dies of an error nothing caught is said, not swallowed."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tests.textual_probes import notifications
from tests.ui.screen import screen_text, settle
from tui.app import make_app
from tui.service_call import WorkerErrorsToHost
from tui.session import Session


class FailingProbeScreen(WorkerErrorsToHost, Screen[None]):
    """A screen whose worker raises outside any try: what a slip in a real screen would do."""

    def compose(self) -> ComposeResult:
        yield Static("probe")

    def on_mount(self) -> None:
        self.app.set_activity("probe", "probing…")  # type: ignore[attr-defined]
        self._probe()

    @work(group="probe", exit_on_error=False)
    async def _probe(self) -> None:
        raise RuntimeError("the probe slipped")


async def test_a_failed_worker_is_reported_and_its_activity_cleared(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(FailingProbeScreen())
        await settle(pilot)
        assert any("the probe slipped" in str(n.message) for n in notifications(app))
        assert "probing…" not in screen_text(app)
        assert app.is_running, "the app goes on"
