"""The Day screen: one pickup day per carrier, what needs a hand, manifests, print, close.

The store's part (every station's bookings, the day's close) shows first; the service's
records (pieces, pounds, confirmations, moved pickups) fill it in when they come. Nothing
here blocks on the store or the service: both are read in a worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable, Sequence
from datetime import date
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content

from tui.api.errors import FreightError
from tui.day import FLAG_CANCELED, FLAG_NOT_CONFIRMED, facts, pickup_day
from tui.day.facts import day_from, facts_for, listed_on
from tui.day.manifests import ManifestsThere, write_manifests
from tui.day.messages import (
    Part,
    day_closed,
    extra,
    fit,
    fixed,
    manifests_written,
    printed_summary,
    spare,
    text_of,
)
from tui.day.moves import step_day
from tui.day.printing import print_day
from tui.domain.safe_text import plain
from tui.host import Hosted
from tui.screens.day_dialogs import CarrierClose, DayConfirm, ManifestsDialog
from tui.screens.modal import FreightScreen
from tui.screens.shipment_changes import ChangeDone, ShipmentChanger, next_business_day
from tui.service_call import WorkerErrorsToHost
from tui.store.days import close_day
from tui.widgets.day_table import DayRow, DayTable, day_rows
from tui.widgets.footer import FreightFooter
from tui.widgets.header import FreightHeader
from tui.widgets.plain import Static, show_status
from tui.workspace import files_dir

if TYPE_CHECKING:
    from tui.day import Day
    from tui.day.facts import StoredDay
    from tui.screens.day_dialogs import ManifestsAnswer
    from tui.store.ledger import StoreLedger


def today() -> date:
    """The local date the screen starts from (tests replace it)."""
    return date.today()


class DayScreen(Hosted, WorkerErrorsToHost, FreightScreen[None]):
    """The shipments picked up on one day, per carrier; Enter opens one."""

    TITLE = "Day"

    HELP: ClassVar[str | None] = """\
## Day

The shipments whose pickup is on the day (today, or the next business day), from every
station's bookings, grouped by carrier: PRO, pieces, pounds, class, hazmat, consignee,
pickup window, pickup number and flags (`unconfirmed` pickup, `no-papers`, `unsettled`
booking, pickup `moved` by the service, `late`: booked after the day's or its carrier's
close). `…` waits for the service; `?` means it did not answer.
`←`/`→` previous / next business day, `m` manifests (CSV and PDF per carrier), `p` print the
day's paperwork (every BOL in one PDF, every ZPL label in one raw job), `c` close the
highlighted carrier (`y`) or the whole day (`a`),
`r` refresh, Enter the shipment. `u` moves the highlighted shipment's pickup (or asks for
one; ctrl+x in it cancels the pickup), `U` asks for a pickup for every `unconfirmed` one of
the day at once, `x` cancels the highlighted shipment (it leaves the day's pickups and
manifests; a day already closed shows it `canceled`).
"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "left,comma",
            "previous_day",
            "Prev",
            id="day.previous",
            key_display="←",
            tooltip="The previous business day",
        ),
        Binding(
            "right,full_stop",
            "next_day",
            "Next",
            id="day.next",
            key_display="→",
            tooltip="The next business day",
        ),
        Binding(
            "m",
            "manifests",
            "Manifests",
            id="day.manifests",
            tooltip="One CSV and one PDF manifest per carrier",
        ),
        Binding(
            "p",
            "print",
            "Print",
            id="day.print",
            tooltip="Every BOL in one PDF job, every ZPL label in one raw job",
        ),
        Binding(
            "c",
            "close_day",
            "Close",
            id="day.close",
            tooltip="Close the highlighted carrier, or the whole day (who, when, what was printed)",
        ),
        Binding("r", "refresh", "Refresh", id="day.refresh", tooltip="Read the day again"),
        Binding("u", "change('pickup')", "Pickup", show=False, id="day.pickup",
                tooltip="Move the highlighted shipment's pickup, ask for one, or cancel it"),
        Binding("U", "change('pickups')", "Pickups", show=False, id="day.pickups",
                tooltip="Ask for a pickup for every unconfirmed shipment of the day"),
        Binding("x", "change('cancel')", "Cancel", show=False, id="day.cancel",
                tooltip="Cancel the highlighted shipment (before its pickup)"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    DayScreen {
        & #day-table {
            border: round $primary-darken-1;
            border-title-color: $text;
            border-subtitle-color: $text-muted;
            scrollbar-size-vertical: 1;
            padding: 0;
        }
        & #day-table:focus {
            border: heavy $accent;
            border-subtitle-color: $accent;
        }
        & #day-status { height: 1; padding: 0 1; color: $text-muted; }
        & #day-status.-error { color: $text-error; }
    }
    """

    def __init__(self, day: date | None = None) -> None:
        super().__init__()

        self.day = day or pickup_day(today())
        self.shown: Day | None = None
        """The day on screen (None until the store answered)."""
        self.facts_state = "pending"
        """``pending`` while the service is asked, ``known`` once it answered, else ``offline``."""
        self._stored: StoredDay | None = None
        self._read_before: dict[date, StoredDay] = {}
        """The store's part of the days around the one shown, as last read: ←/→ show it at
        once while the day is read again."""
        self._printed: dict[date, list[str]] = {}
        """What this screen printed or wrote per day (the close records it)."""
        self._note: list[Part] = []
        """Said before the day's summary once it is read again (after a close)."""
        self._reading: date | None = None
        """The day whose bookings the store is reading (its title says so until then)."""
        self._changes = ShipmentChanger(self, self._changed)

    def compose(self) -> ComposeResult:
        yield FreightHeader("Day")
        yield DayTable(id="day-table")
        yield Static("", id="day-status")
        yield FreightFooter()

    @property
    def table(self) -> DayTable:
        return self.query_one("#day-table", DayTable)

    @property
    def reading(self) -> bool:
        """True while the store or the service is being read."""
        return any(
            worker.group == "day-load" and not worker.is_finished for worker in self.workers
        )  # fmt: skip

    def on_mount(self) -> None:
        self.table.focus()
        self.load()

    # ---------------------------------------------------------------- loading

    def load(self) -> None:
        """Read the day: the store's part at once, then the service's records."""
        self.facts_state = "pending"
        self._reading = self.day
        self._title()
        self.run_worker(self._load(self.day), group="day-load", exclusive=True, exit_on_error=False)

    async def _ledger(self) -> StoreLedger:
        return await asyncio.to_thread(self.host.session.ledger)

    async def _load(self, day: date) -> None:

        host = self.host
        stored = await self._read(day)
        if stored is None:
            return
        self._show(day_from(day, stored), "pending")
        self.say("asking the service about the day's shipments…")
        host.set_activity("day", "reading the day…")
        try:
            client = await host.session.client()
            listed = await listed_on(client, day)
            known = {record.shipment_id for record in stored.bookings}
            if listed.keys() - known:  # a pickup the service moved onto the day: its booking too
                stored = await self._read(day, listed) or stored
            facts = await facts_for(client, day, stored.bookings, listed)
        except FreightError as error:
            message = host.handle_api_error(error)
            self._show(day_from(day, stored), "offline")
            said = fixed("No answer from the service: the store's part only (r tries again).")
            self.say([said, extra(message, " ")], error=True)
            self._read_ahead(day)
            return
        finally:
            host.set_activity("day", None)
        self._show(day_from(day, stored, facts), "known")
        note, self._note = self._note, []
        self.say([*note, spare(self._summary())] if note else self._summary())
        self._read_ahead(day)

    def _read_ahead(self, day: date) -> None:
        self.run_worker(
            self._read_around(day), group="day-around", exclusive=True, exit_on_error=False
        )

    async def _read(self, day: date, listed: Collection[str] = ()) -> StoredDay | None:
        """The store's part of the day (in a thread), or None when it could not be read."""

        try:
            ledger = await self._ledger()
            account = self.host.session.profile_name
            stored = await asyncio.to_thread(
                facts.read_stored,
                ledger.store,
                day,
                ledger.environment,
                ledger.station,
                listed,
                account,
            )
        except OSError as error:  # the store (StoreError is one)
            self._read_done(day)
            self.say([fixed("The store could not be read"), extra(error, ": ")], error=True)
            return None
        self._read_before[day] = stored
        if day == self.day:
            self._stored = stored
        self._read_done(day)
        return stored

    def _read_done(self, day: date) -> None:
        if self._reading == day:
            self._reading = None
            self._title()

    async def _read_around(self, day: date) -> None:
        """Read the days before and after ``day`` ahead of ←/→ (what is kept: those three)."""

        around = (step_day(day, -1), day, step_day(day, 1))
        for kept in [d for d in self._read_before if d not in around]:
            del self._read_before[kept]
        for near in (around[0], around[2]):
            if near not in self._read_before and await self._read(near) is None:
                return

    def _show(self, day: Day, facts: str) -> None:
        self.shown, self.facts_state = day, facts
        stored = self._stored
        closes = stored.closes if stored is not None else None
        self.table.show_day(day_rows(day, facts, closes))
        self._title()

    def _title(self) -> None:
        table = self.table
        title = f"Pickups {self.day.strftime('%a')} {self.day.isoformat()}"
        shown = self.shown if self.shown is not None and self.shown.day == self.day else None
        if shown is not None:
            count = sum(len(group.lines) for group in shown.carriers)
            title += f" · {count} shipment{'s' * (count != 1)}"
        elif self._reading == self.day:
            title += " · reading…"
        close = self._stored.close if self._stored is not None else None
        if close is not None and close.day == self.day:
            when = close.closed_at.astimezone().strftime("%H:%M")
            title += f" · closed {when} by {close.station}"
        table.border_title = Content(plain(title))  # a station's name: never markup
        table.border_subtitle = "←/→ day"

    def _summary(self) -> str:
        day = self.shown
        if day is None or not day.carriers:
            return "No pickups on this day."
        flagged = sum(
            1 for group in day.carriers for line in group.lines
            if line.flags or line.late_addition
        )  # fmt: skip
        carriers = len(day.carriers)
        said = f"{carriers} carrier{'s' * (carriers != 1)}"
        if flagged:
            return f"{said} · {flagged} need{'s' * (flagged == 1)} a hand"
        return f"{said} · nothing needs a hand"

    def say(self, message: str | Sequence[Part], *, error: bool = False) -> None:
        """One line on the status line, fit to its width (names and paths shortened, what
        was done and its counts kept); when even that leaves something out, the whole
        message also comes as a notice."""
        parts = [extra(message, "")] if isinstance(message, str) else list(message)
        status = self.query_one("#day-status", Static)
        width = status.content_region.width or self.app.size.width - 2
        line, whole = fit(parts, max(width, 20))
        show_status(self, "#day-status", line, error=error)
        if not whole:
            self.notify(text_of(parts), severity="error" if error else "information", timeout=12)

    # ---------------------------------------------------------------- moving

    def go_to(self, day: date) -> None:
        """Show another pickup day: as last read at once, if it was, while it is read again."""

        self.day = day
        self.shown = None
        before = self._read_before.get(day)
        self._stored = before
        if before is None:
            self.table.set_rows([])
        else:
            self._show(day_from(day, before), "pending")
        self.load()

    def action_previous_day(self) -> None:

        self.go_to(step_day(self.day, -1))

    def action_next_day(self) -> None:

        self.go_to(step_day(self.day, 1))

    def action_refresh(self) -> None:
        self.load()

    @on(DayTable.RowSelected, "#day-table")
    def _row_selected(self, message: DayTable.RowSelected) -> None:
        row: DayRow = message.row
        if row.line is None:
            return
        shipment_id = row.line.booking.shipment_id
        if shipment_id:
            self.host.open_shipment(shipment_id)
        else:
            self.say("No shipment yet: the booking's outcome is not known.", error=True)

    # ---------------------------------------------------------------- changes

    def action_change(self, what: str) -> None:
        """The highlighted shipment's pickup (``pickup``) or cancel (``cancel``); or a pickup
        asked for every unconfirmed shipment of the day (``pickups``)."""
        if what == "pickups":
            lines = [line for group in (self.shown.carriers if self.shown else ())
                     for line in group.lines if FLAG_NOT_CONFIRMED in line.flags]  # fmt: skip
            ids = [line.booking.shipment_id for line in lines if line.booking.shipment_id]
            if not ids:
                self.say("No unconfirmed pickup on this day.", error=True)
                return
            name = f"{len(ids)} unconfirmed shipment{'s' * (len(ids) != 1)}"
            self._changes.pickup(ids, self.day, self.day, name)
            return
        row = self.table.cursor_value
        line = row.line if row is not None else None
        sid = line.booking.shipment_id if line is not None else None
        if line is None or not sid:
            self.say("Highlight a shipment with a shipment id first.", error=True)
        elif FLAG_CANCELED in line.flags:
            self.say(f"{sid} is canceled.", error=True)
        elif what == "pickup":
            day = line.facts.pickup_date if line.facts is not None else None
            name = line.booking.pro_number or sid
            self._changes.pickup([sid], day or self.day, next_business_day(today()), name)
        else:
            name = plain(line.booking.pro_number or sid, limit=30)
            self._changes.cancel([sid], f"Cancel shipment {name}? It leaves the day's pickups.")

    def _changed(self, outcomes: list[ChangeDone]) -> None:
        """Say how the changes ended; the day is read again when one was made."""
        failed = [outcome for outcome in outcomes if not outcome.ok]
        made = len(outcomes) - len(failed)
        text = outcomes[0].message if len(outcomes) == 1 else f"{made} of {len(outcomes)} changed"
        if failed and len(outcomes) > 1:
            text += f"; not: {failed[0].message}"
        self.say(text, error=bool(failed))
        if made:
            self._note = [extra(text, "")]
            self.load()

    # ---------------------------------------------------------------- paperwork

    def _ready(self, *, service: bool = True) -> Day | None:
        """The day on screen with the service's records (``service``; else the store's part
        is enough), or None (and says why)."""
        day = self.shown
        if day is None or day.day != self.day or (service and self.facts_state == "pending"):
            self.say("The day is still being read.", error=True)
            return None
        if not service:
            return day
        if self.facts_state == "offline":
            self.say("Not without the service: the service's part is missing (r).", error=True)
            return None
        if not day.carriers:
            self.say("No pickups on this day: nothing to write.", error=True)
            return None
        return day

    def action_manifests(self) -> None:

        day = self._ready()
        if day is None:
            return
        folder = files_dir(self.host.session.data_dir) / "manifests"

        def chosen(answer: ManifestsAnswer | None) -> None:
            if answer is not None:
                self.run_worker(self._write(day, answer), group="day-write", exit_on_error=False)

        self.app.push_screen(ManifestsDialog(day, folder), chosen)

    async def _write(self, day: Day, answer: ManifestsAnswer) -> None:

        try:
            written = await asyncio.to_thread(write_manifests, day, answer.folder, answer.replace)
        except ManifestsThere as there:  # made meanwhile: still never replaced unasked
            self.say([fixed("Not written"), extra(there, ": ")], error=True)
            return
        except OSError as error:
            self.say([fixed("Not written"), extra(error.strerror or error, ": ")], error=True)
            return
        self._printed.setdefault(day.day, []).extend(path.name for path in written)
        given = self.host.file_saved(*written)
        said = manifests_written(written, len(day.carriers), answer.folder)
        self.say([*said, extra(given, ". ")] if given else said)

    def action_print(self) -> None:

        day = self._ready()
        if day is None:
            return
        count = sum(len(group.lines) for group in day.carriers)

        def decided(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._print(day), group="day-print", exit_on_error=False)

        self.app.push_screen(
            DayConfirm(
                f"Print {day.day.isoformat()}",
                f"The paperwork of {count} shipment{'s' * (count != 1)}: every BOL in one PDF "
                "job, every ZPL label in one raw job to the label printer. Print?",
            ),
            decided,
        )

    async def _print(self, day: Day) -> None:

        host = self.host
        session = host.session
        folder = files_dir(session.data_dir) / "documents" / f"day-{day.day.isoformat()}"
        host.set_activity("day-print", "printing the day…")
        self.say("Fetching the day's paperwork…")
        try:
            client = await session.client()
            done = await print_day(client, day, folder, session.config.printers)
        except (FreightError, OSError) as error:
            message = (
                host.handle_api_error(error) if isinstance(error, FreightError) else str(error)
            )
            self.say([fixed("Not printed"), extra(message, ": ")], error=True)
            return
        finally:
            host.set_activity("day-print", None)
        self._printed.setdefault(day.day, []).extend(done.printed)
        self.say(done.message(), error=not done.ok)

    def action_close_day(self) -> None:
        """Close the highlighted carrier (its shipment's or heading's), or the whole day."""
        day = self._ready(service=False)  # a close needs only the store
        if day is None:
            return
        done = printed_summary(self._printed.get(day.day, []))
        what = f"Written here: {done}." if done else "Nothing written or printed here yet."
        named = f"{day.day.strftime('%a')} {day.day.isoformat()}"
        row = self.table.cursor_value
        group = next(
            (g for g in day.carriers if row is not None and g.carrier == row.carrier), None
        )
        if group is None:
            text = f"Close {named}? Bookings sent after now show as late additions. {what}"
            dialog: DayConfirm | CarrierClose = DayConfirm(f"Close {named}", plain(text))
        else:
            text = (
                f"Close {group.carrier} for {named}? Its bookings sent after now show as late "
                f"additions; the other carriers stay open. {what}"
            )
            dialog = CarrierClose(f"Close {named}", plain(text))

        def decided(yes: bool | None) -> None:
            if not yes:
                return
            if group is None or (isinstance(dialog, CarrierClose) and dialog.whole):
                count, carrier = sum(len(g.lines) for g in day.carriers), None
            else:
                count, carrier = len(group.lines), group.carrier
            close = self._close(day.day, count, carrier)
            self.run_worker(close, group="day-close", exit_on_error=False)

        self.app.push_screen(dialog, decided)

    async def _close(self, day: date, shipments: int, carrier: str | None) -> None:

        try:
            ledger = await self._ledger()
            printed = tuple(self._printed.get(day, []))
            closed = await asyncio.to_thread(
                close_day,
                ledger.store,
                day,
                ledger.environment,
                ledger.station,
                printed,
                carrier=carrier,
            )
        except OSError as error:
            said = fixed("Not closed: the store could not be written")
            self.say([said, extra(error, ": ")], error=True)
            return
        self._note = day_closed(day, shipments, closed.printed, carrier)
        self.say(self._note)
        self.load()

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand(
            "Day: manifests", "One CSV and PDF per carrier (m)", self.action_manifests
        )
        yield SystemCommand("Day: print", "Every BOL and label of the day (p)", self.action_print)
        yield SystemCommand(
            "Day: close", "Close the highlighted carrier or the day (c)", self.action_close_day
        )
        yield SystemCommand("Day: next day", "The next business day (→)", self.action_next_day)
        yield SystemCommand(
            "Day: previous day", "The previous business day (←)", self.action_previous_day
        )
