"""Changes after a booking in the store: each cancel or pickup change is recorded before a
byte goes out and settled when its answer comes (``tui.booking.changes`` drives it).

A live cancel (sent, done or of unknown outcome) is unique per account, environment and
shipment: a second station, terminal or run finds it and never sends another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from tui.store.core import Store, now_text, parse_time
from tui.store.engine import Row, StoreError

ChangeOutcome = Literal["sent", "done", "refused", "unknown", "failed"]
LIVE: Final = ("sent", "done", "unknown")
"""A cancel in one of these stands: no other is sent for the shipment."""
_COLUMNS: Final = "id, shipment_id, kind, request, station, sent_at, updated, outcome, note"


@dataclass(frozen=True)
class ChangeRecord:
    """One change as the store keeps it."""

    id: int
    shipment_id: str
    kind: str
    request: dict[str, Any]
    station: str
    sent_at: datetime
    updated: datetime
    outcome: ChangeOutcome
    note: str | None


class CancelTakenError(Exception):
    """A live cancel of this shipment is already recorded (``record``)."""

    def __init__(self, record: ChangeRecord) -> None:
        super().__init__(f"shipment {record.shipment_id} has a cancel {record.outcome}")
        self.record = record


class ChangeLog:
    """The changes one station sends for one account (profile) in one environment."""

    def __init__(self, store: Store, account: str, environment: str, station: str) -> None:
        self.store = store
        self.account = account
        self.environment = environment
        self.station = station

    def sent(
        self, shipment_id: str, kind: str, request: dict[str, Any] | None = None
    ) -> ChangeRecord:
        """Record a change about to be sent. A cancel raises ``CancelTakenError`` when a live
        one exists; ``OSError`` when the store cannot be written (nothing may be sent)."""
        now = now_text()
        try:
            with self.store.engine.write() as tx:
                if kind == "cancel":
                    live = tx.run(
                        f"SELECT {_COLUMNS} FROM shipment_changes WHERE account = ?"
                        " AND environment = ? AND shipment_id = ? AND kind = 'cancel'"
                        " AND outcome IN ('sent', 'done', 'unknown')",
                        (self.account, self.environment, shipment_id),
                    )
                    if live:
                        raise CancelTakenError(self._record(live[0]))
                tx.run(
                    "INSERT INTO shipment_changes (account, environment, shipment_id, kind,"
                    " request, station, sent_at, updated, outcome)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'sent')",
                    (
                        self.account, self.environment, shipment_id, kind,
                        json.dumps(request or {}), self.station, now, now,
                    ),
                )  # fmt: skip
                rows = tx.run(
                    f"SELECT {_COLUMNS} FROM shipment_changes WHERE account = ?"
                    " AND environment = ? AND shipment_id = ? AND kind = ? AND sent_at = ?"
                    " ORDER BY id DESC",
                    (self.account, self.environment, shipment_id, kind, now),
                )
        except StoreError as error:
            live_now = self.live_cancel(shipment_id) if kind == "cancel" else None
            if live_now is not None:  # another station's insert won the unique index
                raise CancelTakenError(live_now) from None
            raise OSError(str(error)) from None
        return self._record(rows[0])

    def settle(
        self, record: ChangeRecord, outcome: ChangeOutcome, note: str | None = None
    ) -> ChangeRecord:
        """Record how a change ended."""
        now = now_text()
        try:
            with self.store.engine.write() as tx:
                tx.run(
                    "UPDATE shipment_changes SET outcome = ?, note = ?, updated = ? WHERE id = ?",
                    (outcome, note, now, record.id),
                )
        except StoreError as error:
            raise OSError(str(error)) from None
        return ChangeRecord(
            record.id, record.shipment_id, record.kind, record.request, record.station,
            record.sent_at, parse_time(now, "change"), outcome, note,
        )  # fmt: skip

    def live_cancel(self, shipment_id: str) -> ChangeRecord | None:
        """The shipment's live cancel, if one is recorded."""
        rows = self.store.engine.read(
            f"SELECT {_COLUMNS} FROM shipment_changes WHERE account = ? AND environment = ?"
            " AND shipment_id = ? AND kind = 'cancel' AND outcome IN ('sent', 'done', 'unknown')"
            " ORDER BY id DESC",
            (self.account, self.environment, shipment_id),
        )
        return self._record(rows[0]) if rows else None

    def of_shipment(self, shipment_id: str) -> list[ChangeRecord]:
        """Every change of a shipment, oldest first."""
        rows = self.store.engine.read(
            f"SELECT {_COLUMNS} FROM shipment_changes WHERE account = ? AND environment = ?"
            " AND shipment_id = ? ORDER BY id",
            (self.account, self.environment, shipment_id),
        )
        return [self._record(row) for row in rows]

    def canceled(self) -> set[str]:
        """The shipments whose cancel is done (what the Day, manifests and spend leave out)."""
        rows = self.store.engine.read(
            "SELECT shipment_id FROM shipment_changes WHERE account = ? AND environment = ?"
            " AND kind = 'cancel' AND outcome = 'done'",
            (self.account, self.environment),
        )
        return {str(row[0]) for row in rows}

    def _record(self, row: Row) -> ChangeRecord:
        (ident, shipment_id, kind, request, station, sent_at, updated, outcome, note) = row[:9]
        try:
            data = json.loads(request or "{}")
        except ValueError:
            raise StoreError(f"the store {self.store.where} holds an unreadable change") from None
        return ChangeRecord(
            int(ident), str(shipment_id), str(kind), data if isinstance(data, dict) else {},
            str(station), parse_time(sent_at, "change"), parse_time(updated, "change"),
            outcome, note,
        )  # fmt: skip
