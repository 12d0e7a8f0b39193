"""Drafts: forms saved on every change so a crash or a dropped SSH session loses nothing."""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
BOOKED = "booked_reference"
"""The key of a draft that was booked: the booking ledger's reference of it."""


class DraftRead(NamedTuple):
    """What reading a draft found: its data, when it was saved, and a damaged one kept aside."""

    data: dict[str, Any] | None = None
    saved_at: datetime | None = None
    """When the draft was last written (aware), for the word that says it came back."""
    damaged: bool = False
    """The file was there but was no draft (torn, not JSON, not an object)."""
    set_aside: Path | None = None
    """Where the damaged file was moved (None: it could not be moved, or nothing was damaged)."""


class DraftStore:
    """Keeps one JSON document per draft name in a directory, written atomically."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, name: str) -> Path:
        if not _NAME.match(name):
            raise ValueError(f"not a draft name: {name!r}")
        return self.directory / f"{name}.json"

    def save(self, name: str, data: dict[str, Any]) -> None:
        """Write the draft; a crash mid-write leaves the previous version intact."""

        text = json.dumps(data, indent=1, sort_keys=True, default=str)
        write_atomically(self._path(name), text)

    def load(self, name: str) -> dict[str, Any] | None:
        """Return the saved draft, or None when there is none or it cannot be read (a damaged
        one is moved aside first: see `read`)."""
        return self.read(name).data

    def read(self, name: str) -> DraftRead:
        """The saved draft and when it was saved. A damaged draft is never left to be
        overwritten by the next save: it is renamed `<name>.json.damaged-<UTC time>` beside
        it, and the answer says so (the caller tells the user)."""
        path = self._path(name)
        try:
            raw = path.read_bytes()
            saved_at = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            return DraftRead()

        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError:  # not JSON, not UTF-8, torn
            data = None
        if isinstance(data, dict):
            return DraftRead(data, saved_at)
        return DraftRead(damaged=True, set_aside=_set_aside(path))

    def mark_booked(self, name: str, reference: str) -> None:
        """Note in a saved draft that its booking went through (``reference``: the booking
        ledger's), so the form it comes back into says so; nothing when there is none."""
        data = self.load(name)
        if data is not None:
            self.save(name, {**data, BOOKED: reference})

    def clear(self, name: str) -> None:
        """Forget the draft (after the form was used up, e.g. a booking went through)."""
        self._path(name).unlink(missing_ok=True)


class Marked(NamedTuple):
    """A writer's job: mark the draft on disk booked as ``reference``."""

    reference: str


_Job = dict[str, Any] | Marked | None
"""What a writer writes: the data, a mark on what is on disk, or None (remove the draft)."""


class DraftWriter:
    """Writes one draft (`name`) on a thread of its own, so the form being typed into never
    waits for the disk, in the order the writes were asked for.

    A write starts as soon as it is asked for. While one is on its way, only the newest
    asked after it is kept to follow (an older version is never written after a newer
    one); a removal (`clear`) is ordered the same way. Each write is atomic
    (`write_atomically`). `wait` blocks until everything asked for is on disk: for leaving
    the form and for the app's exit. The thread is not a daemon, so even an exit that skips
    `wait` does not end the process halfway through a write. Every part of the app that
    writes one draft goes through that draft's one writer (`draft_writer`), so the writes of
    the form and a booking's mark (`mark_booked`) keep the order they were asked in."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._turn = threading.Condition()
        self._next: tuple[DraftStore, _Job] | None = None
        """The newest write not yet started: the store and the data (None: remove it; a
        `Marked`: mark what is on disk)."""
        self._running = False

    def save(self, store: DraftStore, data: dict[str, Any]) -> None:
        """Write `data` as the draft in `store` (`data` is the writer's from here on)."""
        self._ask(store, data)

    def clear(self, store: DraftStore) -> None:
        """Remove the draft from `store`, after the writes asked for before."""
        self._ask(store, None)

    def mark_booked(self, store: DraftStore, reference: str) -> None:
        """Mark the draft booked (`DraftStore.mark_booked`) after the writes asked for before:
        a version still waiting its turn is written marked; else the one on disk is read and
        marked on the writer's thread. Nothing when there is no draft then."""
        with self._turn:
            pending = self._next
            job: _Job = Marked(reference)
            if pending is not None and pending[0].directory == store.directory:
                waiting = pending[1]
                if waiting is None:
                    job = None  # removed first: nothing left to mark
                elif not isinstance(waiting, Marked):
                    job = {**waiting, BOOKED: reference}
            self._queue(store, job)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every write asked for is done; False if `timeout` seconds passed."""
        with self._turn:
            return self._turn.wait_for(lambda: not self._running, timeout)

    @property
    def busy(self) -> bool:
        """True while a write is on its way or waiting its turn."""
        with self._turn:
            return self._running

    def _ask(self, store: DraftStore, data: dict[str, Any] | None) -> None:
        with self._turn:
            self._queue(store, data)

    def _queue(self, store: DraftStore, job: _Job) -> None:
        """Keep `job` as the next write and start the thread if none is at work (called
        holding `_turn`)."""
        self._next = (store, job)
        if self._running:
            return  # the thread at work takes it next
        self._running = True
        try:
            threading.Thread(target=self._run, name=f"draft-{self.name}", daemon=False).start()
        except RuntimeError:  # no new threads (the interpreter is shutting down): here
            self._run()  # (`_turn` is re-entrant)

    def _run(self) -> None:
        try:
            while True:
                with self._turn:
                    job, self._next = self._next, None
                    if job is None:  # ended under the lock: a write asked now starts a thread
                        self._running = False
                        self._turn.notify_all()
                        return
                self._write(*job)
        except BaseException:  # a bug: `wait` must not hang on a dead thread
            with self._turn:
                self._running = False
                self._turn.notify_all()
            raise

    def _write(self, store: DraftStore, data: _Job) -> None:
        try:
            if data is None:
                store.clear(self.name)
            elif isinstance(data, Marked):
                store.mark_booked(self.name, data.reference)
            else:
                store.save(self.name, data)
        except OSError as error:  # kept on screen; the next change tries again
            _LOG.warning("could not write the %s draft: %s", self.name, error.strerror)


_LOG = logging.getLogger("tui.drafts")

_WRITERS: dict[str, DraftWriter] = {}
_WRITERS_MADE = threading.Lock()


def draft_writer(name: str) -> DraftWriter:
    """The one writer of the draft ``name`` in this process: the form saving as it is typed
    and the booking marking it go through it, in the order they ask (see `DraftWriter`)."""
    with _WRITERS_MADE:
        writer = _WRITERS.get(name)
        if writer is None:
            writer = _WRITERS[name] = DraftWriter(name)
        return writer


def _set_aside(path: Path) -> Path | None:
    """Rename a damaged draft out of the way (`….damaged-20261125T143200Z`); None if it failed."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


def damaged_note(what: str, read: DraftRead) -> str:
    """What to tell the user of a damaged draft of `what` (`the quote`)."""
    if read.set_aside is not None:
        return f"The saved draft of {what} was damaged; it was kept as {read.set_aside.name}."
    return f"The saved draft of {what} was damaged and could not be kept aside."


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (private dir made if missing) so a crash keeps the old one."""
    from tui.atomic import write_atomically as write

    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write(path, text)
