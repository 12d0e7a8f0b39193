"""The Batch screen's opening of orders: a file's path or pasted rows read, their columns
reviewed when their headers are new (the mapping dialog and its preview), the batch opened on
the batch store; and, before anything is opened, the latest unfinished batch (or the demo's
sample) offered in the path field."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from tui.batch import sample_path
from tui.batch.engine import Batch, source_id
from tui.batch.fields import guess_mapping, looks_like_header, unguessed
from tui.batch.mappings import MappingStore
from tui.batch.orders import context_for, read_orders
from tui.batch.pasted import is_kept, kept_file, read_kept
from tui.batch.source import SourceError, parse_text, read_file
from tui.batch.view import latest_unfinished, preview_text, unfinished_text
from tui.domain.safe_text import plain, safe_name_part
from tui.host import Host, host_of
from tui.screens.batch_mapping import BatchMappingScreen
from tui.store.named import address_book
from tui.workspace import OutsideWorkspace, confine

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.batch.fields import ColumnMapping
    from tui.batch.source import Sheet
    from tui.batch.store import SharedBatchStore
    from tui.config.settings import Location
    from tui.widgets.batch_lines import BatchInfo, BatchStatus
    from tui.widgets.path_input import PathInput


def _mapping_name(path: Path | None) -> str:
    """The name a new mapping is saved under: the file's (``pasted`` for pasted rows)."""

    return safe_name_part(path.stem if path else "pasted", limit=60) or "orders"


class BatchOpening:
    """Opens orders, and keeps the batch store it opens them on: its workers and dialogs on
    ``node``, a path offered in ``field``, what is open or offered on ``info``, what went
    wrong on ``status``; each batch opened goes to ``opened``."""

    def __init__(
        self,
        node: Widget,
        clock: Callable[[], datetime],
        field: PathInput,
        info: BatchInfo,
        status: BatchStatus,
        opened: Callable[[Batch, Sheet], None],
    ) -> None:
        self.node = node
        self.clock = clock
        """The time ship dates are judged by."""
        self.field = field
        self.show_info = info.show_info
        self.say = status.say
        self.opened_batch = opened
        self.has_batch = False
        """A batch was opened (and handed to ``opened``)."""
        self._batch_store: SharedBatchStore | None = None
        self.book: list[Location] | None = None
        """The profile's address book as the store held it when orders were last read."""
        self.opened = False
        """A file or rows were opened (nothing is offered in the path field after that)."""

    @property
    def host(self) -> Host:
        """The app, as far as the opening may use it."""
        return host_of(self.node)

    def close(self) -> None:
        """Let go of the batch store."""
        if self._batch_store is not None:
            self._batch_store.close()
            self._batch_store = None

    # -- the store, and resuming ----------------------------------------------------------

    def store(self) -> SharedBatchStore:
        if self._batch_store is None:
            from tui.batch.store import SharedBatchStore

            session = self.host.session
            self._batch_store = SharedBatchStore(session.store(), owned=False)
        return self._batch_store

    async def offer_resume(self) -> None:
        """Offer the latest batch of this profile that was left unfinished (a crash, a dropped
        session): its path in the field, a word on what is left."""

        profile = self.host.session.profile_name
        info = await asyncio.to_thread(lambda: latest_unfinished(self.store(), profile))
        if self.has_batch or self.opened:
            return
        if info is None:
            self._offer_sample()
            return

        source = info.source
        kept = kept_file(self.host.session.data_dir, source)
        if kept is not None:  # pasted rows: offered when their text was kept
            if not await asyncio.to_thread(kept.exists):
                return
            source = str(kept)
        when = info.updated.astimezone().strftime("%a %H:%M")
        field = self.field
        if not field.value:
            field.value = source
            field.select_all()  # Enter goes on; typing another path replaces it
        self.show_info(f"Unfinished batch of {when}: {unfinished_text(info)}. Enter goes on.")

    def _offer_sample(self) -> None:
        """In the demo, the sample order file in the path field: Enter opens it."""
        if self.host.session.environment != "DEMO":
            return

        field = self.field
        if field.value:
            return
        field.value = str(sample_path())
        field.select_all()  # typing another path replaces it
        self.show_info("The demo's sample orders (10, two set aside): Enter opens them.")

    # -- opening --------------------------------------------------------------------------

    def open_path(self, text: str) -> None:
        """Read the file at ``text`` (the mapping reviewed first when its headers are new)."""

        self._opened_now()
        self.field.value = text
        path = Path(text).expanduser()
        if not is_kept(self.host.session.data_dir, path):  # else, pasted rows kept
            try:
                path = confine(text, also=[sample_path()])  # served: the workspace only
            except OutsideWorkspace as error:
                self.say(str(error), error=True)
                return
        if is_kept(self.host.session.data_dir, path):  # pasted rows kept: their own batch
            try:
                self.open_text(read_kept(path))
            except (OSError, UnicodeDecodeError) as error:
                self.say(f"{plain(text)}: {plain(str(error))}", error=True)
            return
        self.node.run_worker(
            self._read(path, None),
            group="batch-read",
            exclusive=True,
            exit_on_error=False,
        )

    def _opened_now(self) -> None:
        """Something is being opened: nothing is offered any more, and the line that offered
        it (an unfinished batch, the demo's sample) goes until the batch read says its own."""
        self.opened = True
        if not self.has_batch:
            self.show_info("")

    def open_text(self, text: str) -> None:
        """Read pasted rows of orders."""
        self._opened_now()
        self.field.value = ""  # no file: a path offered there is not what is read
        self.node.run_worker(
            self._read(None, text), group="batch-read", exclusive=True, exit_on_error=False
        )

    async def _read(self, path: Path | None, text: str | None) -> None:

        session = self.host.session
        profile = session.profile

        def read() -> tuple[Sheet, ColumnMapping, bool]:
            sheet = (
                read_file(path, is_header=looks_like_header)
                if path is not None
                else parse_text(text or "", is_header=looks_like_header)
            )
            shared = self.store().store
            self.book = address_book(shared, session.data_dir, profile)
            saved = MappingStore(shared, session.data_dir).for_headers(profile.name, sheet.headers)
            return sheet, saved or guess_mapping(sheet.headers), saved is not None

        self.host.set_activity("batch", "reading the orders…")
        try:
            sheet, mapping, saved = await asyncio.to_thread(read)
        except SourceError as error:
            where = plain(str(path)) if path is not None else "the pasted text"
            self.say(f"{where}: {error}", error=True)
            return
        except OSError as error:  # the store (StoreError): named, with what to do
            self.say(f"Not read: {plain(str(error))}", error=True)
            return
        finally:
            self.host.set_activity("batch", None)
        self.say("")
        if saved:
            await self._open(path, text, sheet, mapping)
            return
        self.review(path, text, sheet, mapping)

    def review(
        self, path: Path | None, text: str | None, sheet: Sheet, mapping: ColumnMapping
    ) -> None:

        def reviewed(result: ColumnMapping | None) -> None:
            if result is None:
                if not self.has_batch:
                    self.say("Not read: the columns were not confirmed (m to review them).")
                return
            self.node.run_worker(
                self._open(path, text, sheet, result, save=review.keep),
                group="batch-read",
                exclusive=True,
                exit_on_error=False,
            )

        moment = self.clock()
        profile = self.host.session.profile
        context = context_for(profile, moment.astimezone().date(), moment, self.book)

        def preview(candidate: ColumnMapping) -> tuple[str, bool]:
            return preview_text(read_orders(sheet, candidate, context))

        named = replace(mapping, name=mapping.name or _mapping_name(path))
        review = BatchMappingScreen(named, sheet, preview)
        self.node.app.push_screen(review, reviewed)

    def _tell_reading(self, batch: Batch, sheet: Sheet) -> None:
        """A notice of what the file's reading decided that no order's row shows: footer rows
        set aside, and where saved columns read otherwise than the guess (units first)."""

        told = list(sheet.set_aside)
        if batch.mapping.saved:
            found = unguessed(batch.mapping, guess_mapping(sheet.headers))
            if found:
                told.append(
                    f"columns {batch.mapping.name!r} (saved) are not the guess: " + "; ".join(found)
                )
        if told:
            self.node.app.notify(
                "\n".join(plain(line, limit=200) for line in told),
                severity="warning",
                timeout=10,
                markup=False,
            )

    async def _open(
        self,
        path: Path | None,
        text: str | None,
        sheet: Sheet,
        mapping: ColumnMapping,
        *,
        save: bool = False,
    ) -> None:
        """Open the batch of the sheet read with ``mapping``, saved first when ``save``."""

        session = self.host.session
        profile = session.profile
        name = mapping.name or _mapping_name(path)
        mapping = replace(mapping, name=name)

        def before() -> None:

            if save:
                MappingStore(self.store().store, session.data_dir).save(profile.name, name, mapping)
            if text is not None:
                from contextlib import suppress

                from tui.batch.pasted import keep

                with suppress(OSError):  # (not kept: the batch works, it is not offered again)
                    keep(session.data_dir, text)  # so the batch can be resumed like a file's

        batch = await self.read_again(source_id(path, text), sheet, mapping, before)
        if batch is not None:
            self._tell_reading(batch, sheet)

    async def read_again(
        self, source: str, sheet: Sheet, mapping: ColumnMapping, before: Callable[[], object]
    ) -> Batch | None:
        """Open the batch of ``source``, its orders read from ``sheet`` with ``mapping`` and
        the address book as the store holds it now, after ``before`` (a store call: all on a
        thread); handed to ``opened``. None when it could not be (the status line says why)."""

        session = self.host.session
        profile = session.profile

        def open_batch() -> Batch:

            before()
            self.book = address_book(self.store().store, session.data_dir, profile)
            moment = self.clock()
            context = context_for(profile, moment.astimezone().date(), moment, self.book)
            return Batch.open(self.store(), profile.name, source, sheet, mapping, context)

        self.host.set_activity("batch", "checking the orders…")
        try:
            batch = await asyncio.to_thread(open_batch)
        except (OSError, ValueError) as error:
            self.say(f"Not read: {plain(str(error))}", error=True)
            return None
        finally:
            self.host.set_activity("batch", None)
        self.has_batch = True
        self.opened_batch(batch, sheet)
        return batch
