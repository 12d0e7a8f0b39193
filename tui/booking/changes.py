"""Cancel a shipment, or ask for, move or cancel its pickup: recorded in the store before it
is sent, as a booking is.

A cancel of a shipment whose cancel is done is not sent again; one left ``sent`` by a crash
(or of unknown outcome) is settled by asking the service for the shipment before anything is
sent: canceled there, it is done; not canceled, the old record fails and a new cancel goes
out. Only the shipment named is ever touched: the engine works on the id it is given, never
on a search's best match. Asking the user (production) is the caller's: the CLI's ``--yes``,
a screen's confirmation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tui.api.changes import ShipmentChanges
from tui.api.errors import ChangeRefusedError, FreightError
from tui.api.models.changes import PickupChange, PickupResult
from tui.store.changes import CancelTakenError, ChangeLog, ChangeOutcome, ChangeRecord

CancelState = Literal["canceled", "already", "refused", "unknown", "failed"]


@dataclass(frozen=True)
class CancelOutcome:
    """How one cancel ended, with a sentence for the user."""

    shipment_id: str
    state: CancelState
    message: str

    @property
    def ok(self) -> bool:
        """The shipment is canceled (now or before)."""
        return self.state in ("canceled", "already")


@dataclass(frozen=True)
class PickupOutcome:
    """How one pickup change ended."""

    shipment_id: str
    ok: bool
    message: str
    result: PickupResult | None = None
    reason: str | None = None


class ChangeEngine:
    """Sends changes after booking for one account, recording each in ``log``."""

    def __init__(self, changes: ShipmentChanges, log: ChangeLog) -> None:
        self.changes = changes
        self.log = log

    async def cancel(self, shipment_id: str) -> CancelOutcome:
        """Cancel one shipment, once."""
        live = await asyncio.to_thread(self.log.live_cancel, shipment_id)
        if live is not None:
            settled = await self._settle_live(live)
            if settled is not None:
                return settled
        try:
            record = await asyncio.to_thread(self.log.sent, shipment_id, "cancel")
        except CancelTakenError as taken:  # another station got there between the two reads
            return CancelOutcome(
                shipment_id, "already", f"{shipment_id}: a cancel was already sent "
                f"by {taken.record.station} at {taken.record.sent_at:%Y-%m-%d %H:%M}.",
            )  # fmt: skip
        try:
            result = await self.changes.cancel(shipment_id)
        except ChangeRefusedError as refused:
            await self._settle(record, "refused", refused.message)
            return CancelOutcome(shipment_id, "refused", f"{shipment_id}: {refused.message}")
        except FreightError as error:
            return await self._after_failure(record, error)
        note = "canceled before" if result.already else None
        await self._settle(record, "done", note)
        if result.already:
            return CancelOutcome(shipment_id, "already", f"{shipment_id}: already canceled.")
        return CancelOutcome(shipment_id, "canceled", f"{shipment_id}: canceled.")

    async def _settle(self, record: ChangeRecord, outcome: ChangeOutcome, note: str | None) -> None:
        """Settle ``record`` in the store, off the event loop (it syncs to disk)."""
        await asyncio.to_thread(self.log.settle, record, outcome, note)

    async def _settle_live(self, live: ChangeRecord) -> CancelOutcome | None:
        """A live cancel found: done stays done; sent/unknown is settled by asking the
        service (None: it did not cancel; a new cancel may go out)."""
        sid = live.shipment_id
        if live.outcome == "done":
            return CancelOutcome(sid, "already", f"{sid}: canceled before (recorded).")
        asked = await self._ask_service(
            live, lambda status: f"the service shows it {status or 'not canceled'}"
        )
        if isinstance(asked, FreightError):
            return CancelOutcome(
                sid, "unknown", f"{sid}: an earlier cancel's outcome is unknown and the "
                f"service could not be asked ({asked.message}); nothing was sent.",
            )  # fmt: skip
        if asked:
            return CancelOutcome(sid, "already", f"{sid}: canceled (an earlier cancel did it).")
        return None

    async def _after_failure(self, record: ChangeRecord, error: FreightError) -> CancelOutcome:
        """No usable answer: ask the service whether the shipment is canceled."""
        sid = record.shipment_id
        asked = await self._ask_service(record, lambda _status: error.message)
        if isinstance(asked, FreightError):
            await self._settle(record, "unknown", error.message)
            return CancelOutcome(
                sid, "unknown", f"{sid}: the cancel was sent but its outcome is unknown "
                f"({error.message}); the next cancel of it asks the service first.",
            )  # fmt: skip
        if asked:
            return CancelOutcome(sid, "canceled", f"{sid}: canceled.")
        return CancelOutcome(sid, "failed", f"{sid}: not canceled: {error.message}")

    async def _ask_service(
        self, record: ChangeRecord, not_canceled: Callable[[str], str]
    ) -> bool | FreightError:
        """Ask the service whether a cancel's shipment is canceled and settle the cancel by
        the answer: True (done), False (failed, noted ``not_canceled(status)``), or the error
        when the service could not be asked (the cancel left as it was)."""
        try:
            detail = await self.changes.client.get_shipment(record.shipment_id)
        except FreightError as error:
            return error
        if detail.status == "canceled":
            await self._settle(record, "done", "settled by asking the service")
            return True
        await self._settle(record, "failed", not_canceled(detail.status))
        return False

    async def pickup(self, shipment_id: str, change: PickupChange | None) -> PickupOutcome:
        """Move the pickup to ``change`` (asking for one where there is none), or cancel it
        (``change`` None)."""
        kind = "pickup_cancel" if change is None else "pickup_change"
        request = {} if change is None else change.model_dump(mode="json")
        record = await asyncio.to_thread(self.log.sent, shipment_id, kind, request)
        try:
            if change is None:
                result = await self.changes.cancel_pickup(shipment_id)
            else:
                try:
                    result = await self.changes.change_pickup(shipment_id, change)
                except ChangeRefusedError as none:
                    if none.reason != "no-pickup":
                        raise
                    result = await self.changes.request_pickup(shipment_id, change)
        except ChangeRefusedError as refused:
            await self._settle(record, "refused", refused.message)
            return PickupOutcome(
                shipment_id, False, f"{shipment_id}: {refused.message}", reason=refused.reason
            )
        except FreightError as error:
            await self._settle(record, "failed", error.message)
            raise
        await self._settle(record, "done", result.pickup_confirmation)
        if change is None:
            return PickupOutcome(shipment_id, True, f"{shipment_id}: pickup canceled.", result)
        conf = f" (confirmation {result.pickup_confirmation})" if result.pickup_confirmation else ""
        day = result.pickup_date or change.pickup_date
        return PickupOutcome(
            shipment_id, True, f"{shipment_id}: pickup on {day}, "
            f"{change.ready:%H:%M}-{change.close:%H:%M}{conf}.", result,
        )  # fmt: skip
