"""The Batch screen's runs: rating, booking and printing a batch through the one batch run
(``tui.batch.run``, the command line's too), each through a ``ServiceCall`` (its own worker,
the header's activity, the host's error handling), on the session's booking engine."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from tui.batch.book import (
    book_again,
    booking_totals,
    claimed,
    paperwork_bundle,
    paperwork_files,
    to_book,
)
from tui.batch.pace import WaitTooLongError
from tui.batch.paperwork import owing
from tui.batch.rating import FatalRatingError
from tui.batch.run import book_run, paperwork_folder, print_paperwork, printed_line, rate_run
from tui.domain.display_paths import display_path
from tui.domain.safe_text import plain
from tui.host import Host, host_of
from tui.screens.batch_confirm import BatchConfirmScreen
from tui.screens.book_check import BookingCheckScreen, CheckResult
from tui.service_call import ServiceCall
from tui.store import StoreError
from tui.workspace import files_dir

if TYPE_CHECKING:
    from pathlib import Path

    from textual.widget import Widget
    from textual.worker import Worker

    from tui.api.client import FreightClient
    from tui.batch.engine import Batch
    from tui.batch.model import OrderState
    from tui.ledger import BookingRecord
    from tui.widgets.batch_lines import BatchStatus
    from tui.widgets.batch_progress import BatchProgress


STATUS_PADDING = 2
"""The status line's padding (one column each side)."""
MIN_FOLDER = 24
"""The fewest columns a folder is shortened to."""


AnswerT = TypeVar("AnswerT")


def run_call(
    node: Widget,
    group: str,
    on_answer: Callable[[AnswerT], None],
    on_error: Callable[[Exception, str], None],
    on_stopped: Callable[[], None],
) -> ServiceCall[AnswerT]:
    """A batch run's call, on its own client: the store's, the rating's and the pace's errors
    are the run's to say, not the host's."""

    return ServiceCall(
        node,
        group,
        on_answer=on_answer,
        on_error=on_error,
        on_stopped=on_stopped,
        handled_here=(StoreError, FatalRatingError, WaitTooLongError),
        own_client=True,
    )


class BatchRuns:
    """One rating run and one booking run at a time, and printing: their workers on ``node``,
    their progress on ``progress``, each order's new state to ``show_state``, their last
    word on ``status``."""

    def __init__(
        self,
        node: Widget,
        progress: BatchProgress,
        status: BatchStatus,
        show_state: Callable[[OrderState], None],
    ) -> None:
        self.node = node
        self.progress = progress
        self.say = status.say
        self.show_state = show_state
        self.rating: ServiceCall[str] = run_call(
            node, "batch-rate", self._rated, self._rate_failed, self._rating_stopped
        )
        self.booking: ServiceCall[tuple[str, Batch, Path]] = run_call(
            node, "batch-book", self._booked, self._book_failed, self._booking_stopped
        )
        self._rating: Worker[None] | None = None
        self._booking: Worker[None] | None = None
        self.folder: Path | None = None

    @property
    def host(self) -> Host:
        """The app, as far as the runs may use it."""
        return host_of(self.node)

    @property
    def rating_worker(self) -> Worker[None] | None:
        """The last rating run's worker (None before the first)."""
        return self._rating

    @property
    def is_rating(self) -> bool:
        """True while a rating run is going."""
        return self._rating is not None and self._rating.is_running

    @property
    def is_booking(self) -> bool:
        """True while a booking run is going."""
        return self._booking is not None and self._booking.is_running

    def cancel(self) -> bool:
        """Stop the run going (what is done stays); False when none is."""
        for worker in (self._rating, self._booking):
            if worker is not None and worker.is_running:
                worker.cancel()
                return True
        return False

    # -- rating -----------------------------------------------------------------------------

    def start_rating(self, batch: Batch | None, *, rerate: bool) -> None:
        """Rate the open batch's orders not rated yet (``rerate``: all but the booked)."""
        if batch is None:
            self.node.notify("Open an order file first.", timeout=3)
            return
        if self.is_rating or self.is_booking:
            return
        if not batch.to_rate(rerate=rerate):
            self.node.notify("Every order is rated (R rates them all again).", timeout=4)
            return
        self.rate(batch, rerate=rerate)

    def rate(self, batch: Batch, *, rerate: bool) -> None:
        """Rate the orders not rated yet (with ``rerate``, every order not booked)."""

        total = len(batch.to_rate(rerate=rerate))
        self.progress.start(total)
        self.say("Esc stops; what is rated stays.")

        async def run(client: FreightClient) -> str:
            await rate_run(
                batch,
                client,
                progress=self.progress,
                rerate=rerate,
                on_state=self.show_state,
                rate=self.host.session.profile.limits.requests_per_second,
                max_wait=self.host.session.profile.limits.max_retry_after,
            )
            return self.progress.last_text("Rated.") + " · Enter on an order: its rates"

        self._rating = self.rating.start(run, activity=f"rating {total} orders…")

    def _rated(self, text: str) -> None:
        self.progress.stop()
        self.say(text)

    def _rate_failed(self, error: Exception, message: str) -> None:
        self.progress.stop()
        self._failed(error, message)

    def _rating_stopped(self) -> None:
        if self.rating.gone:
            return
        self.progress.stop()
        self.say(f"Stopped: {self.progress.done} rated and kept; r goes on.")

    async def rate_one(self, batch: Batch, key: str) -> OrderState:
        """Rate one order again (from its own view): its new state, shown here too."""

        client = await self.host.session.batch_client()
        try:
            await rate_run(batch, client, keys=[key], rerate=True, on_state=self.show_state)
        finally:
            await client.aclose()
        return batch.state(key)

    # -- booking ----------------------------------------------------------------------------

    def confirm_and_book(self, batch: Batch, keys: list[str] | None) -> None:
        """Book the batch's rated orders (of ``keys``, when given) once the confirmation says
        so; bookings to settle only are searched for without asking (nothing new is sent)."""

        if self.is_rating or self.is_booking:
            return
        if self.host.booking_in_flight:
            self.node.notify("A booking is in flight: wait for its answer.", timeout=4)
            return
        orders = to_book(batch, keys)
        if not orders and owing(batch, keys):  # only paperwork to fetch: nothing is sent
            self.book(batch, keys)
            return
        if not orders:
            self.node.notify(
                "Nothing to book: no order is rated and not booked (r rates).", timeout=4
            )
            return
        fresh = [o for o in orders if batch.state(o.key).status == "rated"]
        session = self.host.session

        def decided(go: bool | None) -> None:
            if go:
                self.book(batch, keys)
            elif keys is not None:
                self.say("Not booked: b books it with the others.")

        if not fresh:  # only bookings to settle: nothing new is sent
            decided(True)
            return
        self.node.app.push_screen(
            BatchConfirmScreen(
                len(fresh),
                booking_totals(batch, fresh),
                session.environment,
                session.profile_name,
            ),
            decided,
        )

    def check_unknown(self, batch: Batch, key: str, otherwise: Callable[[], None]) -> None:
        """An order whose booking got no answer: search for it and let the user say which
        shipment is it, or that none is and it is to be booked again (the booking check the
        Book screen uses); ``otherwise`` when the ledger has no record of its booking. The
        ledger is read and written in a worker thread, never on the event loop."""

        session = self.host.session
        reference = batch.state(key).reference

        def latest() -> BookingRecord | None:
            try:
                return session.ledger().latest(reference) if reference else None
            except OSError:
                return None

        async def look() -> None:
            record = await asyncio.to_thread(latest)
            if record is None:
                otherwise()
            else:
                self.node.app.push_screen(BookingCheckScreen(record, just_sent=False), checked)

        def checked(chosen: CheckResult | None) -> None:
            if chosen in ("mine", "again"):
                self.node.run_worker(
                    settle(chosen == "again"), group="batch-check", exit_on_error=False
                )

        async def settle(again: bool) -> None:

            if not again:
                record = await asyncio.to_thread(latest)
                if record is not None:
                    self.show_state(await asyncio.to_thread(claimed, batch, key, record))
                return
            try:
                after = await asyncio.to_thread(
                    lambda: book_again(batch, key, reference, session.ledger())
                )
            except (ValueError, OSError) as error:
                self.say(str(error), error=True)
                return
            self.show_state(after)
            self.confirm_and_book(batch, [key])

        self.node.run_worker(look(), group="batch-check", exit_on_error=False)

    def book(self, batch: Batch, keys: list[str] | None) -> None:
        """Book the batch's rated orders (of ``keys``, when given), confirmed before."""

        host = self.host
        session = host.session
        self.progress.start(len(to_book(batch, keys)) + len(owing(batch, keys)))
        host.booking_in_flight = True
        self.say("Booking: each order once, under its own reference.")
        folder = self.folder = paperwork_folder(files_dir(session.data_dir) / "documents", batch)

        async def run(client: FreightClient) -> tuple[str, Batch, Path]:
            await book_run(
                batch,
                session.booking_engine(client),
                client,
                folder=folder,
                keys=keys,
                progress=self.progress,
                on_state=self.show_state,
                rate=session.profile.limits.requests_per_second,
                max_wait=session.profile.limits.max_retry_after,
            )
            return self.progress.last_text("Booked."), batch, folder

        self._booking = self.booking.start(run, activity="booking the batch…")

    def _booked(self, answer: tuple[str, Batch, Path]) -> None:

        text, batch, folder = answer
        self._book_ended()
        missing = owing(batch)
        if missing:
            why = plain(batch.state(missing[0].key).paperwork_missing, limit=80)
            self.say(
                f"{text} · paperwork missing for {len(missing)} (b tries again): {why}",
                error=True,
            )
            return
        self.say(paperwork_line(text, folder, self.node.size.width))
        self.node.run_worker(
            self._deliver_paperwork(batch, folder), group="batch-deliver", exit_on_error=False
        )

    def _book_failed(self, error: Exception, message: str) -> None:
        self._book_ended()
        self._failed(error, message)

    def _booking_stopped(self) -> None:
        self._book_ended()
        if self.booking.gone:
            return
        self.say(
            "Stopped: what was booked stays; b goes on (a booking in flight is searched for first)."
        )

    async def _deliver_paperwork(self, batch: Batch, folder: Path) -> None:
        """In a browser, the batch's paperwork goes to it too, as one zip (kept beside the
        folder on this machine)."""
        host = self.host
        if not host.delivers_files:
            return

        files = await asyncio.to_thread(paperwork_files, batch, folder)
        if not files:
            return
        try:
            bundle = await asyncio.to_thread(paperwork_bundle, files, folder)
        except OSError as error:
            self.say(f"Paperwork not bundled: {error.strerror or error}", error=True)
            return
        given = host.file_saved(bundle, mime_type="application/zip")
        self.node.notify(given, timeout=6)

    # -- the end of a run -------------------------------------------------------------------

    def _book_ended(self) -> None:
        self.host.booking_in_flight = False
        if not self.booking.gone:  # (the screen's widgets go first when it is taken down)
            self.progress.stop()

    def _failed(self, error: Exception, message: str) -> None:

        if isinstance(error, FatalRatingError):
            cause = error.__cause__ if isinstance(error.__cause__, Exception) else error
            message = self.host.handle_api_error(cause)
        self.say(message or str(error), error=True)

    # -- printing ---------------------------------------------------------------------------

    def print(self, batch: Batch) -> None:
        """Print the batch's saved paperwork: its PDFs as one job, its ZPL labels as another."""
        self.node.run_worker(
            self._print(batch), group="batch-print", exclusive=True, exit_on_error=False
        )

    async def _print(self, batch: Batch) -> None:

        host = self.host
        session = host.session
        folder = paperwork_folder(files_dir(session.data_dir) / "documents", batch)
        if not await asyncio.to_thread(paperwork_files, batch, folder):
            self.node.notify("No paperwork yet: b books the batch and saves it.", timeout=4)
            return
        printers = session.config.printers
        host.set_activity("print", "printing…")
        try:
            printed = await print_paperwork(
                batch,
                folder,
                document_printer=printers.document_printer,
                label_printer=printers.label_printer,
                label_format=printers.label_format,
            )
        finally:
            host.set_activity("print", None)
        if not printed.outcomes:
            self.node.notify("Nothing to print: ZPL labels need a label printer.", timeout=5)
        for outcome in printed.outcomes:
            line = printed_line(outcome)
            self.node.notify(
                line[:1].upper() + line[1:],
                severity="information" if outcome.ok else "error",
                timeout=6,
            )


def paperwork_line(text: str, folder: Path, width: int) -> str:
    """``Booked 3 of 3 · paperwork in ~/.local/share/…/batch-orders · p prints it`` in a
    status line ``width`` wide: the folder's start and its own name stay in view (home as
    ``~``, shortened in the middle), never cut off at the line's end."""

    head, tail = f"{text} · paperwork in ", " · p prints it"
    room = width - STATUS_PADDING - len(head) - len(tail)
    if room < MIN_FOLDER:  # the folder matters more than the hint
        tail = ""
        room = max(MIN_FOLDER, width - STATUS_PADDING - len(head))
    return head + plain(display_path(folder, room)) + tail
