"""One pace for every request of a batch: a steady rate, and a pause for everyone on a 429.

Requests start no faster than ``rate`` per second (evenly spaced). A ``429 Too Many
Requests`` stops every request of the batch until its ``Retry-After`` has passed (or, without
one, a back-off that doubles with each 429 in a row), and slows the pace down a little; a run of
answers without one brings it back up to ``rate``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Final, TypeVar

MIN_RATE: Final = 0.5
"""Never slower than one request in two seconds."""
SLOW_DOWN: Final = 0.85
SPEED_UP_AFTER: Final = 40
"""Answers without a 429 before the pace goes back up a step."""
FIRST_BACKOFF: Final = 1.0
MAX_WAIT: Final = 60.0
"""The longest single pause, whatever a Retry-After says."""


class Pace:
    """The shared gate of a batch's requests."""

    def __init__(
        self,
        rate: float | None = 20.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.limit = rate if rate and rate > 0 else None
        self.rate = self.limit
        self._clock = clock
        self._sleep = sleep
        self._next = clock()
        self._paused_until = 0.0
        self._backoff = FIRST_BACKOFF
        self._calm = 0
        self.limited_count = 0
        """How many 429s the batch got."""
        self.waited = 0.0
        """Seconds the batch paused for 429s."""

    async def turn(self) -> None:
        """Wait until this request may start."""
        while True:
            now = self._clock()
            start = max(self._next, self._paused_until)
            if start <= now:
                if self.rate is not None:
                    self._next = max(self._next, now) + 1.0 / self.rate
                return
            await self._sleep(start - now)

    def ok(self) -> None:
        """An answer that was not a 429."""
        self._backoff = FIRST_BACKOFF
        self._calm += 1
        if self.limit is not None and self.rate is not None and self._calm >= SPEED_UP_AFTER:
            self._calm = 0
            self.rate = min(self.limit, self.rate / SLOW_DOWN)

    def limited(self, retry_after: float | None) -> float:
        """A 429: pause the whole batch; return the pause in seconds."""
        self.limited_count += 1
        self._calm = 0
        if retry_after is not None and retry_after >= 0:
            wait = min(retry_after, MAX_WAIT)
        else:
            wait = self._backoff
            self._backoff = min(self._backoff * 2, MAX_WAIT)
        now = self._clock()
        same_moment = now < self._paused_until  # another answer of requests already paused
        until = now + wait
        if until > self._paused_until:
            self.waited += until - max(now, self._paused_until)
            self._paused_until = until
        if self.rate is not None and not same_moment:
            self.rate = max(MIN_RATE, self.rate * SLOW_DOWN)
        return wait


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
