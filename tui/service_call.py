"""One way for a screen or widget to call the service: worker, client, errors, stale answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Generic, TypeVar, cast

from textual.worker import Worker, WorkerState

from tui.host import host_of
from tui.textual_internals import is_leaving

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.timer import Timer
    from textual.widget import Widget

    from tui.api.client import FreightClient

T = TypeVar("T")


@dataclass(eq=False, repr=False)
class ServiceCall(Generic[T]):
    """Runs one kind of request for a screen or widget, one at a time.

    Each `start` runs the request in an exclusive worker (a newer start cancels the older
    one), shows `activity` in the header while it runs, and hands the answer to `on_answer`
    on the node's message loop. An error goes through the host's error handling (sign-in
    on 401, notices on 402/403) and its one-line message to `on_error`. An answer that
    arrives after a newer start or a `cancel` is dropped, and so is an answer or error for a
    node that is gone or going (removed, its screen closed, the app ending): its widgets
    may be gone already, and nobody is left to read it.
    """

    node: Widget
    group: str
    _: KW_ONLY
    on_answer: Callable[[T], object]
    on_error: Callable[[Exception, str], object]
    activity: str | None = None
    handled_here: tuple[type[Exception], ...] = ()
    """Errors the caller explains itself: passed on with no message, not to the host."""
    on_stopped: Callable[[], object] | None = None
    """Called at once when the request is stopped before its answer (a stop, node gone,
    quit). When `gone`, it resets only what outlives the node (the host's flags)."""
    own_client: bool = False
    """Each request gets a client of its own (``Session.batch_client``: it waits out no
    429, the request's own pace does), closed after it: a batch run."""
    generation: int = field(default=0, init=False)
    _running: int | None = field(default=None, init=False)
    _shown: str | None = field(default=None, init=False)
    _activity_timer: Timer | None = field(default=None, init=False)

    @property
    def gone(self) -> bool:
        """Whether the node has left, or is being taken off, the screen (removed, its screen
        closed, the app ending): nothing of it is to be updated any more."""
        return not self.node.is_attached or is_leaving(self.node)

    @property
    def in_flight(self) -> bool:
        """True from a start until its answer or error is delivered (or it is cancelled)."""
        return self._running is not None

    def start(
        self,
        request: Callable[[FreightClient], Awaitable[T]],
        *,
        activity: str | None = None,
        activity_after: float = 0.0,
    ) -> Worker[None]:
        """Send ``request`` (given the session's client); older answers will be dropped.

        ``activity``: the header's words for this one request, instead of the usual ones;
        ``activity_after``: seconds the request runs before they are shown (an answer that
        comes sooner paints no frame for them: a search as you type).
        """
        self.generation += 1
        generation = self._running = self.generation
        shown = activity or self.activity
        if self._activity_timer is not None:
            self._activity_timer.stop()
            self._activity_timer = None
        if activity_after > 0 and shown is not None:
            if self._shown is not None:  # (an older request's words, gone with it)
                host_of(self.node).set_activity(self.group, None)
            self._shown = None
            self._activity_timer = self.node.set_timer(
                activity_after, lambda: self._show_activity(generation, shown)
            )
        else:
            if shown is not None or self._shown is not None:
                host_of(self.node).set_activity(self.group, shown)
            self._shown = shown
        return self.node.run_worker(  # (a coroutine made when it runs: one stopped before
            partial(self._run, generation, request),  # it starts leaves none unawaited)
            group=self.group,
            exclusive=True,
            exit_on_error=False,
        )

    def _show_activity(self, generation: int, shown: str) -> None:
        self._activity_timer = None
        if generation == self._running and not self.gone:
            self._shown = shown
            host_of(self.node).set_activity(self.group, shown)

    def cancel(self) -> None:
        """Stop the request in flight; should its answer still come, it is dropped."""
        self.node.workers.cancel_group(self.node, self.group)
        self.generation += 1
        self._settle()

    async def _run(self, generation: int, request: Callable[[FreightClient], Awaitable[T]]) -> None:
        try:
            answer = await self._ask(request)
        except Exception as error:
            self.node.call_next(self._failed, generation, error)
            return
        except BaseException:  # cancelled: by a newer start, `cancel`, or the node going away
            if generation == self.generation:
                self._settle()
                if self.on_stopped is not None:
                    self.on_stopped()
            raise
        self.node.call_next(self._answered, generation, answer)

    async def _ask(self, request: Callable[[FreightClient], Awaitable[T]]) -> T:
        session = host_of(self.node).session
        if not self.own_client:
            return await request(await session.client())
        client = await session.batch_client()
        try:
            return await request(client)
        finally:
            await client.aclose()

    def _current(self, generation: int) -> bool:
        """Whether an answer for ``generation`` is to be delivered (else it is dropped)."""
        if generation != self.generation:
            return False
        if self.gone:  # the node went away: the request stopped for it
            self._settle()
            if self.on_stopped is not None:
                self.on_stopped()
            return False
        return True

    def _settle(self) -> None:
        self._running = None
        if self._activity_timer is not None:
            self._activity_timer.stop()
            self._activity_timer = None
        if self._shown is not None:
            self._shown = None
            host_of(self.node).set_activity(self.group, None)

    def _answered(self, generation: int, answer: T) -> None:
        if not self._current(generation):
            return
        self._settle()
        self.on_answer(answer)

    def _failed(self, generation: int, error: Exception) -> None:
        if not self._current(generation):
            return
        self._settle()
        if isinstance(error, self.handled_here):
            self.on_error(error, "")
        else:
            self.on_error(error, host_of(self.node).handle_api_error(error))


class WorkerErrorsToHost:
    """Mixin for screens and widgets: a worker of theirs that dies of an error is reported.

    Textual keeps a worker's state changes to the node that runs it; this hands a failed
    one to the app (the safety net), so an error no handler caught is never silent.
    """

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            host_of(cast("DOMNode", self)).worker_failed(event.worker)
