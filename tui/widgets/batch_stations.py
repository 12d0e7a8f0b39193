"""Other stations' progress on the open batch, on the Batch screen: a line of each station's
counts, and the rows of the orders they book updated as they go. Followed as the command
line's ``freight batch status --watch`` follows it (``tui.batch.follow``): at once on
PostgreSQL's notifications (the listening connection's socket is watched by the event loop),
and every few seconds (all there is on SQLite)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from tui.batch.follow import QUIET, others_changes, stations_text
from tui.widgets.plain import Static

if TYPE_CHECKING:
    from textual.timer import Timer

    from tui.batch.engine import Batch
    from tui.batch.model import OrderState
    from tui.store.engine import Listener

POLL_S: Final = 2.0
"""Seconds between two reads of the store when no notification comes."""


class BatchStations(Static):
    """``Stations: pack-1 12 booked · pack-2 9 booked, 1 booking``, shown while another
    station has claimed or booked orders of the open batch."""

    DEFAULT_CSS = """
    BatchStations { height: 1; padding: 0 1; color: $text-muted; display: none; }
    BatchStations.-shown { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.followed: Batch | None = None
        self._show: Callable[[OrderState], None] = lambda _state: None
        self._timer: Timer | None = None
        self._changes: Listener | None = None
        self._looking = False
        self._again = False
        self._seen: dict[str, str] = {}
        """When each order another station holds last changed, as last read."""

    def follow(self, batch: Batch, show: Callable[[OrderState], None]) -> None:
        """Follow ``batch`` (the one followed before is let go); ``show`` gets each order
        another station changed."""
        if batch is self.followed:
            return
        self._stop()
        self.followed, self._show, self._seen = batch, show, {}
        self.update("")
        self.remove_class("-shown")
        self._timer = self.set_interval(POLL_S, self._look)
        self.run_worker(self._listen(batch), group="stations-listen", exit_on_error=False)
        self._look()

    async def _listen(self, batch: Batch) -> None:
        """Listen for the batch's notifications (PostgreSQL; nothing on SQLite)."""
        changes = await asyncio.to_thread(batch.store.listen, batch.info.id)
        if changes is None:
            return
        if batch is not self.followed or changes.fileno() < 0:
            changes.close()
            return
        try:
            asyncio.get_running_loop().add_reader(changes.fileno(), self._readable)
        except (NotImplementedError, ValueError, OSError):  # no socket watching: poll
            changes.close()
            return
        self._changes = changes

    def _readable(self) -> None:
        changes = self._changes
        if changes is None:
            return
        fileno = changes.fileno()
        if changes.poll():
            self._look()
        if changes.fileno() < 0:  # broken: reading the store every POLL_S goes on
            asyncio.get_running_loop().remove_reader(fileno)
            self._changes = None

    def _look(self) -> None:
        """Read the store (once more when a look is going: bookings notify in bursts)."""
        if self._looking:
            self._again = True
            return
        if self.followed is not None:
            self._looking = True
            look = self._look_at(self.followed, self._seen)
            self.run_worker(look, group="stations", exit_on_error=False)

    async def _look_at(self, batch: Batch, seen: dict[str, str]) -> None:

        try:
            while True:
                self._again = False
                stations, changed = await asyncio.to_thread(others_changes, batch, seen)
                if batch is not self.followed:
                    return
                for state in changed:
                    batch.states[state.key] = state
                    self._show(state)
                others = [name for name in stations if name != batch.store.station]
                if others:
                    self.update(f"Stations: {stations_text(stations)}")
                self.set_class(bool(others), "-shown")
                if not self._again:
                    return
                await asyncio.sleep(QUIET)
        finally:
            self._looking = False

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        changes, self._changes = self._changes, None
        if changes is not None:
            fileno = changes.fileno()
            if fileno >= 0:
                asyncio.get_running_loop().remove_reader(fileno)
            changes.close()

    def on_unmount(self) -> None:
        self._stop()
