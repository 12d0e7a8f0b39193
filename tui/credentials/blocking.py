"""Run a call that may hang (a keyring over D-Bus) in a daemon thread, with a time limit.

A daemon thread, not ``run_worker(thread=True)`` or ``asyncio.to_thread``: a call still blocked
there would hold up the app's exit (see shared/reference/keyring.md).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")

DEFAULT_TIMEOUT = 5.0
"""Seconds to wait for a keyring before calling it unresponsive."""


class TimedOut(Exception):
    """The call did not return in time; it may still be running in its thread."""


def _start(fn: Callable[[], T], name: str) -> concurrent.futures.Future[T]:
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            result = fn()
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
        else:
            if not future.done():
                future.set_result(result)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


def call(fn: Callable[[], T], limit: float = DEFAULT_TIMEOUT, name: str = "keyring") -> T:
    """Return ``fn()``, or raise TimedOut after ``limit`` seconds (the thread is left)."""
    try:
        return _start(fn, name).result(limit)
    except concurrent.futures.TimeoutError:
        raise TimedOut(f"no answer in {limit:g} s") from None


async def acall(fn: Callable[[], T], limit: float = DEFAULT_TIMEOUT, name: str = "keyring") -> T:
    """Await ``fn()`` run in a daemon thread; TimedOut after ``limit`` seconds."""
    future = _start(fn, name)
    try:
        return await asyncio.wait_for(asyncio.wrap_future(future), limit)
    except TimeoutError:
        raise TimedOut(f"no answer in {limit:g} s") from None


def to_the_end(call: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    """The blocking form of an async ``call``, for the command line: run to its end in an
    event loop of its own."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        return asyncio.run(call(*args, **kwargs))

    return run
