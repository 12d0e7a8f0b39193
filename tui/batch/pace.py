"""One pace for every request of a batch: a steady rate, and a pause for everyone on a 429.

Requests start evenly spaced at a share of the limit ``rate`` (``tui.domain.pacing``: 18/s
for 20/s, the rest being room for a request that leaves late), and never more than the limit
within any second, documents included. A ``429 Too Many Requests`` stops every request of the
batch until its ``Retry-After`` has passed (or, without one, a back-off that doubles with each 429
in a row), and slows the pace down a little; a run of answers without one brings it back up
to its share of ``rate``. A ``Retry-After`` longer than the cap (``max_wait``, a profile
setting) stops the run with ``WaitTooLongError`` instead of holding it silently.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Final, Protocol, TypeVar

from tui.domain.pacing import WINDOW, paced_rate

MIN_RATE: Final = 0.5
"""Never slower than one request in two seconds."""
SLOW_DOWN: Final = 0.85
SPEED_UP_AFTER: Final = 40
"""Answers without a 429 before the pace goes back up a step."""
FIRST_BACKOFF: Final = 1.0
MAX_WAIT: Final = 60.0
"""The longest single back-off when a 429 names no Retry-After."""
DEFAULT_MAX_RETRY_AFTER: Final = 300.0
"""The longest Retry-After a run waits for (5 minutes) unless the profile says otherwise."""
WARM_UP: Final = 0.5
"""Seconds the first request of a run goes alone (until its answer, at most this): the
first connection's set-up would otherwise hold the next requests back and send them together
with it."""


class SharedSlots(Protocol):
    """The account's pace shared by every process (``tui.store.pace.StorePace``): a request's
    slot, and a pause every station honours."""

    def reserve(self) -> tuple[float, float]:
        """Take the next free slot: (seconds until it, seconds the account is paused for)."""
        ...

    def paused_for(self) -> float:
        """Seconds the account is still paused for (0: not paused)."""
        ...

    def pause(self, seconds: float) -> None:
        """A 429: every station waits ``seconds`` from now."""
        ...


class WaitTooLongError(Exception):
    """The service asked the run to wait longer than the cap: the run stops, with the reason."""

    def __init__(self, retry_after: float, cap: float) -> None:
        self.retry_after = retry_after
        self.cap = cap
        super().__init__(
            f"the service asked to wait {wait_text(retry_after)} (429 Too Many Requests, "
            f"Retry-After: {retry_after:g}), longer than the {wait_text(cap)} Freight waits "
            "(the profile's [limits] max_retry_after): stopped; what was done is kept, run it "
            "again later"
        )


def wait_text(seconds: float) -> str:
    """``45 s``, ``5 min``, ``27 h 47 min``."""
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{math.ceil(seconds)} s"
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


class Pace:
    """The shared gate of a batch's requests."""

    def __init__(
        self,
        rate: float | None = 20.0,
        *,
        max_wait: float = DEFAULT_MAX_RETRY_AFTER,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
        shared: SharedSlots | None = None,
    ) -> None:
        self.limit = rate if rate and rate > 0 else None
        self.paced = paced_rate(self.limit) if self.limit is not None else None
        """The pace the requests are spaced at: a share of the limit (``tui.domain.pacing``)."""
        self.rate = self.paced
        self.max_wait = max_wait
        self._clock = clock
        self._sleep = sleep
        self._wall = wall
        self._next = clock()
        self._paused_until = 0.0
        self._backoff = FIRST_BACKOFF
        self._calm = 0
        self._window = max(1, math.floor(self.limit)) if self.limit is not None else 0
        self._starts: deque[float] = deque(maxlen=self._window or 1)
        self.limited_count = 0
        """How many 429s the batch got."""
        self.waited = 0.0
        """Seconds the batch paused for 429s."""
        self.on_wait: Callable[[], None] | None = None
        """Called when a 429 starts (or lengthens) a pause: a run shows the wait."""
        self._first: float | None = None
        self._answered = False
        self.shared = shared
        """The account's pace in the store: this process's requests take their slots there
        too, so every station together stays under the account's limit."""

    async def turn(self) -> None:
        """Wait until this request may start."""
        while True:
            now = self._clock()
            start = max(self._next, self._paused_until)
            if self.limit is not None and len(self._starts) == self._window:
                start = max(start, self._starts[0] + WINDOW)
            if self._first is not None and not self._answered:
                start = max(start, min(now + 0.01, self._first + WARM_UP))
            if start <= now:
                if self._first is None:
                    self._first = now
                if self.rate is not None:
                    self._next = max(self._next, now) + 1.0 / self.rate
                    self._starts.append(now)
                break
            await self._sleep(start - now)
        if self.shared is not None and self.limit is not None:
            await self._shared_turn(self.shared)

    async def _shared_turn(self, shared: SharedSlots) -> None:
        """Wait for this request's slot in the account's shared pace; a pause another station
        was asked for is shown as this run's wait."""
        while True:
            delay, paused = await asyncio.to_thread(shared.reserve)
            if paused > 0:
                self._pause_for(paused)
            if delay <= 0:
                return
            await self._sleep(delay)
            if paused > 0:
                return  # the slot was given after the pause: it still holds
            paused = await asyncio.to_thread(shared.paused_for)
            if paused <= 0:
                return
            self._pause_for(paused)  # a 429 came while waiting: a slot after it

    def _pause_for(self, seconds: float) -> None:
        """Hold this process's requests ``seconds`` from now (a pause of the account)."""
        now = self._clock()
        until = now + seconds
        if until > self._paused_until + 0.5:
            self.waited += until - max(now, self._paused_until)
            self._paused_until = until
            if self.on_wait is not None:
                self.on_wait()
        else:
            self._paused_until = max(self._paused_until, until)

    def wait_end(self) -> datetime | None:
        """When the pause a 429 asked for ends (None: no pause now); timezone-aware."""
        left = self._paused_until - self._clock()
        return self._wall() + timedelta(seconds=left) if left > 0 else None

    def _first_answer(self) -> None:
        """The first answer: its request was surely at the server by now (its connection's
        set-up may have held it past its turn), so the window and the spacing count from
        here."""
        if self._answered:
            return
        self._answered = True
        now = self._clock()
        if self._starts:
            self._starts[-1] = max(self._starts[-1], now)
        if self.rate is not None:
            self._next = max(self._next, now + 1.0 / self.rate)

    def ok(self) -> None:
        """An answer that was not a 429."""
        self._first_answer()
        self._backoff = FIRST_BACKOFF
        self._calm += 1
        if self.paced is not None and self.rate is not None and self._calm >= SPEED_UP_AFTER:
            self._calm = 0
            self.rate = min(self.paced, self.rate / SLOW_DOWN)

    def limited(self, retry_after: float | None) -> float:
        """A 429: pause the whole batch; return the pause in seconds. Raises
        WaitTooLongError when its Retry-After is longer than ``max_wait``."""
        self.limited_count += 1
        self._first_answer()
        self._calm = 0
        if retry_after is not None and retry_after >= 0:
            if retry_after > self.max_wait:
                raise WaitTooLongError(retry_after, self.max_wait)
            wait = retry_after
        else:
            wait = self._backoff
            self._backoff = min(self._backoff * 2, MAX_WAIT)
        now = self._clock()
        same_moment = now < self._paused_until  # another answer of requests already paused
        until = now + wait
        if until > self._paused_until:
            self.waited += until - max(now, self._paused_until)
            self._paused_until = until
            if self.on_wait is not None:
                self.on_wait()
        if self.shared is not None:
            self.shared.pause(wait)
        if self.rate is not None and not same_moment:
            self.rate = max(MIN_RATE, self.rate * SLOW_DOWN)
        return wait


def waiting_text(end: datetime | None) -> str:
    """`` · waiting until 10:31:05 (the service said 429)`` in local time ("" with no wait)."""
    if end is None:
        return ""
    return f" · waiting until {end.astimezone():%H:%M:%S} (the service said 429: too many requests)"


T = TypeVar("T")


async def each(items: Sequence[T], concurrency: int, work: Callable[[T], Awaitable[None]]) -> None:
    """Run ``work`` on every item, in order taken, by at most ``concurrency`` workers at once;
    an error in one stops them all (the TaskGroup's ExceptionGroup)."""
    queue: asyncio.Queue[T] = asyncio.Queue()
    for item in items:
        queue.put_nowait(item)

    async def worker() -> None:
        while True:
            try:
                item = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            await work(item)

    async with asyncio.TaskGroup() as group:
        for _ in range(max(1, min(concurrency, len(items) or 1))):
            group.create_task(worker())
