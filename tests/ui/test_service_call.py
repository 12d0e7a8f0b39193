"""ServiceCall and a node being taken down: the request stops, and nothing of the node that is
already gone is touched (a screen's widgets go before the screen's workers are stopped)."""

from __future__ import annotations

import asyncio
import gc
import warnings

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tests.ui.screen import wait_for
from tui.api.client import FreightClient
from tui.app import make_app
from tui.service_call import ServiceCall
from tui.session import Session


class Calling(Screen[None]):
    """A screen with one request in flight that never answers until it is stopped."""

    def __init__(self) -> None:
        super().__init__()
        self.sent = asyncio.Event()
        self.stopped: list[bool] = []
        self.answers: list[object] = []
        self.call: ServiceCall[str] = ServiceCall(
            self,
            "probe",
            on_answer=self.answers.append,
            on_error=lambda error, _: self.answers.append(error),
            on_stopped=self._stopped,
        )

    def compose(self) -> ComposeResult:
        yield Static("waiting", id="line")

    def _stopped(self) -> None:
        self.stopped.append(self.call.gone)
        if not self.call.gone:
            self.query_one("#line", Static).update("stopped")

    async def _request(self, client: FreightClient) -> str:
        self.sent.set()
        await asyncio.Event().wait()  # an answer that comes only after the screen is gone
        return "never"

    def send(self) -> None:
        self.call.start(self._request)


async def test_a_call_whose_screen_is_taken_down_is_stopped_as_gone(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = Calling()
        await app.push_screen(screen)
        screen.send()
        await asyncio.wait_for(screen.sent.wait(), 60)
        assert not screen.call.gone
        app.pop_screen()
        await wait_for(pilot, lambda: bool(screen.stopped), what="the request stopped")
        # Its widgets went first: the call knew its node was leaving, though still attached.
        assert screen.stopped == [True]
        assert screen.answers == []
        assert not screen.call.in_flight
        assert app.is_running


async def test_a_call_stopped_on_a_screen_still_shown_is_not_gone(ui_session: Session) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = Calling()
        await app.push_screen(screen)
        screen.send()
        await asyncio.wait_for(screen.sent.wait(), 60)
        screen.workers.cancel_group(screen, "probe")  # a stop from the screen (its own key)
        await wait_for(pilot, lambda: bool(screen.stopped), what="the request stopped")
        assert screen.stopped == [False]
        assert "stopped" in str(screen.query_one("#line", Static).content)


async def test_words_shown_after_a_while_come_only_while_the_request_runs(
    ui_session: Session,
) -> None:
    app = make_app(ui_session)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = Calling()
        await app.push_screen(screen)
        answer = asyncio.Event()

        async def request(client: FreightClient) -> str:
            screen.sent.set()
            await answer.wait()
            return "answered"

        screen.call.start(request, activity="probing…", activity_after=0.05)
        assert "probing" not in app.activity_text  # a quick answer would paint no words
        await wait_for(pilot, lambda: "probing…" in app.activity_text, what="the words")
        answer.set()
        await wait_for(pilot, lambda: screen.answers == ["answered"], what="the answer")
        assert "probing" not in app.activity_text


async def test_calls_started_one_after_another_at_once_leave_no_coroutine_unawaited(
    ui_session: Session,
) -> None:
    # Each start stops the one before; one stopped before it ran must leave nothing behind
    # (Python would say "coroutine ... was never awaited" on stderr, at any moment later).
    app = make_app(ui_session)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = Calling()
            await app.push_screen(screen)

            async def request(client: FreightClient) -> str:
                return "answered"

            for _ in range(5):  # in one go: the first four are stopped before they run
                screen.call.start(request)
            await wait_for(pilot, lambda: screen.answers == ["answered"], what="the last answer")
        gc.collect()
    assert [str(w.message) for w in caught if "never awaited" in str(w.message)] == []
