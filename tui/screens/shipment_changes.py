"""Change a booked shipment from a screen: move its pickup (or ask for one), cancel the
pickup, cancel the shipment.

Split by job: `PickupDialog` and `CancelDialog` only return values; `send_change` runs one
change through the CLI's `ChangeEngine` given a client and those values (recorded in the
store before it is sent; the store calls are off the event loop); `ShipmentChanger` ties
them to a screen through a `ServiceCall` worker and hands back what to say and what
changed. A refusal (picked up, past the cut-off) is the service's message, shown as plain
text where the action was asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, time, timedelta
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Final, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input

from tui.api.changes import ShipmentChanges
from tui.api.models.changes import PickupChange, PickupResult
from tui.booking.changes import ChangeEngine
from tui.domain.safe_text import plain, plain_lines
from tui.host import host_of
from tui.screens.modal import FreightDialog
from tui.screens.yes_no import YesNo, YesNoDialog
from tui.service_call import ServiceCall
from tui.store.changes import ChangeLog
from tui.widgets.plain import Label, Static

if TYPE_CHECKING:
    from textual.widget import Widget

    from tui.api.client import FreightClient
    from tui.session import Session

CANCEL_PICKUP: Final = "cancel-pickup"
CANCEL_SHIPMENT: Final = "cancel-shipment"
Wish = PickupChange | Literal["cancel-pickup", "cancel-shipment"]
"""One change asked for: a pickup (moved to, or asked for), or a cancel."""

PRODUCTION_WORD: Final = "CANCEL"
"""What must be typed to cancel a shipment in PRODUCTION (as a booking asks for BOOK)."""


@dataclass(frozen=True)
class ChangeDone:
    """How one change ended, with the sentence to show."""

    shipment_id: str
    wish: Wish
    ok: bool
    message: str
    pickup: PickupResult | None = None

    @property
    def canceled(self) -> bool:
        """The shipment is canceled (by this change or before it)."""
        return self.ok and self.wish == CANCEL_SHIPMENT


def change_log(session: Session) -> ChangeLog:
    """The change log of the session's profile and environment (the CLI's account).
    Blocking: call it from a worker."""
    ledger = session.ledger()
    return ChangeLog(ledger.store, session.profile_name, ledger.environment, ledger.station)


async def send_change(
    client: FreightClient, log_of: Callable[[], ChangeLog], shipment_id: str, wish: Wish
) -> ChangeDone:
    """Send one change of ``shipment_id`` through the change engine, as the CLI does."""
    engine = ChangeEngine(ShipmentChanges(client), await asyncio.to_thread(log_of))
    if wish == CANCEL_SHIPMENT:
        cancel = await engine.cancel(shipment_id)
        return ChangeDone(shipment_id, wish, cancel.ok, cancel.message)
    change = None if wish == CANCEL_PICKUP else wish
    outcome = await engine.pickup(shipment_id, change)
    return ChangeDone(shipment_id, wish, outcome.ok, outcome.message, outcome.result)


async def send_changes(
    client: FreightClient, log_of: Callable[[], ChangeLog], ids: Sequence[str], wish: Wish
) -> list[ChangeDone]:
    """The same change of each shipment, one after the other (a day's bulk action)."""
    return [await send_change(client, log_of, sid, wish) for sid in ids]


def next_business_day(today: date) -> date:
    """The day a new pickup is first offered for: the next weekday after ``today``."""
    day = today + timedelta(days=1)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def pickup_values(day: str, ready: str, close: str) -> PickupChange | str:
    """The dialog's fields as a pickup, or a sentence saying what is wrong."""
    try:
        when = date.fromisoformat(day.strip())
    except ValueError:
        return "Give the day as YYYY-MM-DD."
    try:
        opens, shuts = time.fromisoformat(ready.strip()), time.fromisoformat(close.strip())
    except ValueError:
        return "Give the ready and close times as HH:MM."
    if shuts <= opens:
        return "The close time must be after the ready time."
    return PickupChange(pickup_date=when, ready=opens, close=shuts)


class PickupDialog(FreightDialog["Wish | None"]):
    """The pickup's day and window: Enter moves it there (or asks for one), ctrl+x cancels
    the pickup, Esc leaves it."""

    TITLE = "Pickup"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+x", "cancel_pickup", "Cancel pickup", id="pickup.cancel", priority=True,
                tooltip="Cancel the pickup (the shipment stays booked)"),
        Binding("escape", "leave", "Back", id="pickup.back", tooltip="Leave the pickup as it is"),
    ]  # fmt: skip

    DEFAULT_CSS = """
    PickupDialog > Vertical { width: 60; border: thick $accent; }
    PickupDialog Horizontal { height: 1; margin: 0 0 1 0; }
    PickupDialog Label { width: 8; }
    PickupDialog Input { width: 14; }
    PickupDialog #pickup-problem { color: $text-error; height: auto; }
    """

    def __init__(self, shipment: str, day: date | None, default: date) -> None:
        super().__init__()
        self.shipment = shipment
        self.day = day
        """The pickup day now (None: the booking has none: one is asked for)."""
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Text(f"Pickup of {plain(self.shipment, limit=30)}")
            box.border_subtitle = "enter move · ctrl+x cancel pickup · esc back"
            now = f"now {self.day:%a %Y-%m-%d}" if self.day else "none yet: one is asked for"
            yield Static(Text(f"Pickup {now}"), id="pickup-now")
            for label, name, value in (
                ("Day", "day", (self.day or self.default).isoformat()),
                ("Ready", "ready", "08:00"),
                ("Close", "close", "16:00"),
            ):
                with Horizontal():
                    yield Label(label)
                    yield Input(value, id=f"pickup-{name}", compact=True, max_length=10)
            yield Static("", id="pickup-problem")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        fields = [self.query_one(f"#pickup-{n}", Input).value for n in ("day", "ready", "close")]
        wish = pickup_values(*fields)
        if isinstance(wish, str):
            self.query_one("#pickup-problem", Static).update(Text(wish))
            return
        self.dismiss(wish)

    def action_cancel_pickup(self) -> None:
        self.dismiss(CANCEL_PICKUP)

    def action_leave(self) -> None:
        self.dismiss(None)


class CancelDialog(YesNoDialog):
    """Cancel shipments? y (Enter) goes on, n (Esc) leaves them; in PRODUCTION only after
    typing CANCEL, as a booking asks for BOOK."""

    TITLE = "Cancel shipment"

    ANSWERS: ClassVar[YesNo] = YesNo(
        "cancel_confirm", "Cancel them", "Cancel the shipment", "Keep", "Keep it booked"
    )
    BINDINGS: ClassVar[list[BindingType]] = ANSWERS.bindings()

    DEFAULT_CSS = """
    CancelDialog.-production > Vertical { border: thick #d70000; }
    CancelDialog #cancel-hint { color: $text-muted; }
    """

    def __init__(self, what: str, environment: str) -> None:
        super().__init__("Cancel the shipment", plain_lines(what))
        self.what = what
        self.production = environment == "PRODUCTION"

    def compose_more(self) -> ComposeResult:
        if self.production:
            yield Input(placeholder=f"type {PRODUCTION_WORD} to cancel for real",
                        id="cancel-word", max_length=10)  # fmt: skip
        yield Static(
            "Refused once picked up, or after the carrier's cut-off on the pickup day.",
            id="cancel-hint",
        )

    def on_mount(self) -> None:
        self.set_class(self.production, "-production")

    @on(Input.Submitted, "#cancel-word")
    def action_yes(self) -> None:
        if self.production and not self._word_typed(
            PRODUCTION_WORD, "#cancel-word", "#cancel-hint", "cancel"
        ):
            return
        super().action_yes()


class ShipmentChanger:
    """The pickup and cancel actions of one screen: asks (a dialog), sends (a worker), and
    hands the outcomes to ``done``, one per shipment (a refusal or failure included: ``ok``
    False)."""

    def __init__(self, node: Widget, done: Callable[[list[ChangeDone]], object]) -> None:
        self.node = node
        self.done = done
        self._call: ServiceCall[list[ChangeDone]] = ServiceCall(
            node, "shipment-change", activity="changing…", on_answer=self._answered,
            on_error=self._failed,
        )  # fmt: skip
        self._ids: list[str] = []
        self._wish: Wish = CANCEL_SHIPMENT

    @property
    def busy(self) -> bool:
        return self._call.in_flight

    def pickup(self, ids: Sequence[str], day: date | None, default: date, name: str = "") -> None:
        """Ask for the pickup's day and window (or its cancel), then send it for each
        shipment of ``ids`` (``name``: what the dialog calls them)."""
        dialog = PickupDialog(name or ", ".join(ids), day, default)
        self.node.app.push_screen(dialog, partial(self._chosen, list(ids)))

    def cancel(self, ids: Sequence[str], what: str) -> None:
        """Ask to confirm, then cancel each shipment of ``ids``."""
        environment = host_of(self.node).session.environment
        chosen = partial(self._chosen, list(ids))
        self.node.app.push_screen(
            CancelDialog(what, environment),
            lambda yes: chosen(CANCEL_SHIPMENT if yes else None),
        )

    def _chosen(self, ids: list[str], wish: Wish | None) -> None:
        if wish is not None:
            self.send(ids, wish)

    def send(self, ids: Sequence[str], wish: Wish) -> None:
        """Send ``wish`` for each shipment (no question asked: the caller asked)."""
        session = host_of(self.node).session
        chosen = list(ids)
        self._ids, self._wish = chosen, wish
        log_of = partial(change_log, session)
        self._call.start(lambda client: send_changes(client, log_of, chosen, wish))

    def _answered(self, outcomes: list[ChangeDone]) -> None:
        self.done(outcomes)

    def _failed(self, _error: Exception, text: str) -> None:
        self.done([ChangeDone(sid, self._wish, False, f"{sid}: {text}") for sid in self._ids])
