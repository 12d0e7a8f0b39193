"""The one batch run: rating, booking and paperwork (fetch, save, print), as the command line
(``freight batch``) and the Batch screen both run them.

A caller gives the batch, a client (its own, with no 429 waiting: the run's pace waits for
all of its requests), the session's booking engine, and something that shows progress (a
``ProgressShown``: the command line's line on stderr, the screen's bar). Several stations
may run on one batch at once: a booking run claims its orders a few at a time under a lease
(``tui.batch.book``), so each is booked by one of them. No UI toolkit here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from tui.api.options import RetryPolicy
from tui.batch.book import (
    DEFAULT_BOOKING_CONCURRENCY,
    book_orders,
    documents_folder,
    paperwork_files,
    print_calls,
)
from tui.batch.pace import DEFAULT_MAX_RETRY_AFTER, Pace, WaitTooLongError
from tui.documents import run_print_job

if TYPE_CHECKING:
    from datetime import datetime

    from tui.api.client import FreightClient
    from tui.batch.engine import Batch
    from tui.batch.model import OrderState
    from tui.booking import BookingEngine
    from tui.documents import PrintJob, PrintOutcome

BATCH_RETRY: Final = RetryPolicy(rate_attempts=1, retry_after_cap=0.0)
"""The retries of a batch run's own client: none on a 429 that says how long to wait (the
run's one pace waits for all of its requests, documents included), the others as usual."""
DEFAULT_RATE: float = 20.0
"""Requests per second a run keeps to unless told otherwise (the service's limit)."""


class RunProgress(Protocol):
    """How far a run is (a rating run's ``Progress``, a booking run's ``BookProgress``)."""

    @property
    def done(self) -> int: ...
    @property
    def total(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def waiting(self) -> datetime | None:
        """When the pause a 429 asked for ends (None: not waiting)."""
        ...


class ProgressShown(Protocol):
    """What shows a run's progress: called with each new one (the command line's progress
    line, the screen's bar and line)."""

    def __call__(self, progress: RunProgress, /) -> None: ...


async def rate_run(
    batch: Batch,
    client: FreightClient,
    *,
    rate: float | None = None,
    concurrency: int | None = None,
    rerate: bool = False,
    keys: Sequence[str] | None = None,
    progress: ProgressShown | None = None,
    on_state: Callable[[OrderState], None] | None = None,
    max_wait: float | None = None,
) -> None:
    """Rate the orders that need it (``Batch.to_rate``), each saved as it is known.

    Raises FatalRatingError (every request would fail the same way: signed out, no
    connection), WaitTooLongError (a 429 asked to wait longer than ``max_wait`` seconds: the
    profile's cap)."""
    with _unwrapped():
        await batch.rate(
            client,
            pace=_pace(rate, max_wait, batch, client),
            concurrency=concurrency,
            progress=progress,
            rerate=rerate,
            keys=keys,
            on_state=on_state,
        )


async def book_run(
    batch: Batch,
    engine: BookingEngine,
    client: FreightClient,
    *,
    folder: Path | None,
    rate: float | None = None,
    concurrency: int | None = None,
    keys: Collection[str] | None = None,
    progress: ProgressShown | None = None,
    on_state: Callable[[OrderState], None] | None = None,
    max_wait: float | None = None,
    paperwork_only: bool = False,
) -> None:
    """Book the rated orders not booked yet (of ``keys``, when given) through the session's
    booking engine, each once under its own reference, and fetch and save their paperwork
    into ``folder`` (None: not saved), and the paperwork still owed by orders booked before
    (``paperwork_only``: only that), claiming them a few at a time (other stations may book
    the batch's other orders at the same time). Raises WaitTooLongError."""
    with _unwrapped():
        await book_orders(
            batch,
            engine,
            client,
            folder=folder,
            pace=_pace(rate, max_wait, batch, client),
            paperwork_only=paperwork_only,
            concurrency=concurrency or DEFAULT_BOOKING_CONCURRENCY,
            progress=progress,
            on_state=on_state,
            keys=keys,
        )


def _pace(rate: float | None, max_wait: float | None, batch: Batch, client: FreightClient) -> Pace:
    """The run's pace; its slots shared, through the store, with every process of the
    account (the profile, at the client's service) when the batch is kept in the store."""
    limit = rate if rate is not None else DEFAULT_RATE
    shared = None
    store = getattr(batch.store, "store", None)
    if limit and limit > 0 and store is not None:
        from tui.store.pace import StorePace

        shared = StorePace(store, batch.info.profile, str(client.base_url), limit)
    return Pace(
        limit,
        max_wait=max_wait if max_wait is not None else DEFAULT_MAX_RETRY_AFTER,
        shared=shared,
    )


@contextmanager
def _unwrapped() -> Iterator[None]:
    """A run stopped by a too-long Retry-After raises that error itself, not the group its
    workers raised it in."""
    try:
        yield
    except* WaitTooLongError as group:
        raise group.exceptions[0] from None


def paperwork_folder(documents: Path, batch: Batch) -> Path:
    """Where a batch's paperwork is saved: its own folder under ``documents``."""
    return documents_folder(documents, batch)


def saved_count(batch: Batch) -> int:
    """How many paperwork files the batch's orders have saved."""
    return sum(len(batch.state(order.key).documents) for order in batch.orders)


@dataclass(frozen=True)
class Printed:
    """What printing a batch's paperwork did."""

    files: int
    """The paperwork files found saved (0: nothing to print)."""
    outcomes: tuple[PrintOutcome, ...]
    """Each ``lp`` job's outcome: the PDFs as one job, the ZPL labels raw as another."""
    skipped: int
    """ZPL labels not printed: no ZPL label printer is set."""


async def print_paperwork(
    batch: Batch,
    folder: Path,
    *,
    document_printer: str | None,
    label_printer: str | None,
    label_format: str = "zpl",
    before_each: Callable[[PrintJob], None] | None = None,
) -> Printed:
    """Print every saved paperwork file of the batch with ``lp`` (``tui.documents``)."""

    files = await asyncio.to_thread(paperwork_files, batch, folder)
    jobs = print_calls(
        files,
        document_printer=document_printer,
        label_printer=label_printer,
        label_format=label_format,
    )
    outcomes = []
    for job in jobs:
        if before_each is not None:
            before_each(job)
        outcomes.append(await run_print_job(job))
    skipped = len(files) - sum(len(job.paths) for job in jobs)
    return Printed(len(files), tuple(outcomes), skipped)


def printed_line(outcome: PrintOutcome) -> str:
    """``printed: 12 files to office: request id is office-7`` (or ``not printed: …``)."""
    job = outcome.job
    where = job.printer or "the default printer"
    done = "printed" if outcome.ok else "not printed"
    return f"{done}: {len(job.paths)} files to {where}: {outcome.said}"
