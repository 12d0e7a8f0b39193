"""Where the shipments list is in the pages of one search, and the title that says so."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.listing.rows import ShipmentRow


@dataclass(frozen=True)
class PageAnswer:
    """A page of results for the search numbered `generation`."""

    generation: int
    rows: list[ShipmentRow]
    continuation_token: str | None
    first: bool


@dataclass
class Paging:
    """Paging state of the current search; a new search bumps `generation`.

    Answers carry the generation they were asked for, so a late page for old filters is
    recognised and dropped.
    """

    generation: int = 0
    token: str | None = None
    complete: bool = False
    loading: bool = False
    pages: int = 0
    failed: bool = False
    failed_token: str | None = field(default=None)
    """The continuation token of the page that failed (None: the first page failed)."""
    asked: str | None = None
    """The continuation token of the page asked for last (None: the first page)."""
    first_in_flight: bool = False
    """The request in flight is a first page (a search, not the next page of one)."""
    search_waiting: bool = False
    """Filters changed while a first page was in flight: ask when it is answered."""

    def restart(self) -> int:
        """Start a new search: forget the pages, return its generation."""
        self.generation += 1
        self.token = None
        self.complete = False
        self.pages = 0
        self.failed = False
        self.failed_token = None
        return self.generation

    def requested(self, token: str | None = None, *, first: bool = True) -> None:
        """The page after `token` is asked for (the first page of a search when `first`)."""
        self.loading = True
        self.failed = False
        self.asked = token
        self.first_in_flight = first

    def ask_first(self, in_flight: bool) -> bool:
        """The filters changed: start a new search; True to ask for its first page now.

        With a first page `in_flight` the new one waits for its answer (see `answered`), so
        at most one search is in flight and one waiting, for the latest filters."""
        self.restart()  # answers for older filters are dropped from now on
        if in_flight and self.first_in_flight:
            self.search_waiting = True
            return False
        return True

    def answered(self) -> bool:
        """The request in flight was answered (or failed); True when a search waited for it
        and is to be asked now (the answer itself is then for older filters)."""
        self.first_in_flight = False
        waiting, self.search_waiting = self.search_waiting, False
        return waiting

    def current(self, generation: int) -> bool:
        """True if an answer for `generation` belongs to the search on screen."""
        return generation == self.generation

    def loaded(self, token: str | None) -> None:
        self.loading = False
        self.failed_token = None
        self.pages += 1
        self.token = token
        self.complete = token is None

    def failed_at(self, token: str | None) -> None:
        self.loading = False
        self.failed = True
        self.failed_token = token

    def failed_asked(self) -> None:
        """The page asked for last failed."""
        self.failed_at(self.asked)

    @property
    def can_load_more(self) -> bool:
        return self.token is not None and not self.loading and not self.failed

    @staticmethod
    def subtitle(sort_label: str | None, reverse: bool, auto_seconds: float | None) -> str:
        """`newest first` / `sorted by Status ▲`, and the auto-refresh when it is on."""
        if sort_label is None:
            subtitle = "newest first"
        else:
            subtitle = f"sorted by {sort_label} {'▼' if reverse else '▲'}"
        if auto_seconds is not None:
            subtitle += f" · auto-refresh {auto_seconds:g} s"
        return subtitle

    def title(self, count: int, described: str) -> str:
        """`Shipments · 150 loaded, more…` / `… 2,000 shipments, all loaded` / errors."""
        if self.failed:
            state = f"{count:,} loaded · error"
        elif self.loading and self.pages == 0:
            state = "searching…"
        elif self.complete:
            state = "no shipments match" if count == 0 else f"{count:,} shipments, all loaded"
        else:
            state = f"{count:,} loaded, more…"
        return f"Shipments · {state}" + (f" · {described}" if described else "")
