"""The booking ledger in the store: one row per booking (its reference), sent before a byte
goes out and settled when its answer comes.

The row is the order's claim too: ``UNIQUE (account, environment, order_number)`` lets one
booking of an order exist (a refused one gives its number up), so two files, two terminals or
the TUI and a cron job can never both send it; the second is told who has it
(``OrderTakenError``). The account is the profile's name: stations share a profile by name.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import date
from typing import Any, Final

from tui.ledger import (
    OUTCOMES,
    AlreadySentError,
    BookingRecord,
    Lane,
    Ledger,
    OrderClaim,
    OrderTakenError,
    Outcome,
    Priced,
    rate_marks,
)
from tui.store.core import Store, now_text, parse_time
from tui.store.engine import Row, StoreError, Transaction

_COLUMNS: Final = (
    "reference, profile, quote_id, rate_id, updated, outcome, sent_at, shipment_id,"
    " pro_number, bol_number, note, pickup_date, pickup_note, lane, search_for,"
    " order_number, station"
)


def booked_shipments(
    store: Store, environment: str, account: str, shipment_ids: Collection[str] | None
) -> dict[str, tuple[str, str | None]]:
    """Shipment id -> (Freight's booking reference, the batch's order number or None) of the
    bookings of these shipments (None: of every shipment booked) in ``environment`` and
    ``account``, read by the shipment's index (``freight shipments`` and ``shipment`` name
    them, the Shipments screen's export all of them)."""
    found: dict[str, tuple[str, str | None]] = {}
    query = (
        "SELECT shipment_id, reference, order_number FROM bookings WHERE environment = ?"
        " AND account = ? AND outcome != 'failed' AND shipment_id "
    )
    if shipment_ids is None:
        chunks: list[list[str]] = [[]]
    else:
        ids = sorted(set(shipment_ids))
        chunks = [ids[at : at + 500] for at in range(0, len(ids), 500)]  # bounded parameters
    for chunk in chunks:
        marks = ", ".join("?" for _ in chunk)
        where = f"IN ({marks})" if shipment_ids is not None else "IS NOT NULL"
        for row in store.engine.read(query + where, (environment, account, *chunk)):
            found[str(row[0])] = (str(row[1]), str(row[2]) if row[2] is not None else None)
    return found


class StoreLedger(Ledger):
    """The ``Ledger`` the booking engine writes to, kept in a ``Store``."""

    station: str
    """The station that sends its bookings (host and terminal, or FREIGHT_STATION)."""

    def __init__(self, store: Store, station: str, environment: str) -> None:
        self.store = store
        self.station = station
        self.environment = environment

    def booked_shipments(
        self, account: str, shipment_ids: Collection[str] | None = None
    ) -> dict[str, tuple[str, str | None]]:
        """``booked_shipments`` of this ledger's environment."""
        return booked_shipments(self.store, self.environment, account, shipment_ids)

    # -- writing ----------------------------------------------------------------------------

    def _write_sent(
        self, record: BookingRecord, order: OrderClaim | None, priced: Priced | None
    ) -> None:
        """Record a booking about to be sent, and claim its order, in one transaction
        (``OrderTakenError`` names the station that has it, when, with its PRO)."""
        try:
            with self.store.engine.write() as tx:
                self._claim(tx, record, order)
                if priced is not None:
                    tx.run(
                        "UPDATE bookings SET rate = ?, offers = ?, weights = ? WHERE reference = ?",
                        (*priced.columns(), record.reference),
                    )
        except StoreError as error:
            raise OSError(str(error)) from None

    def _claim(self, tx: Transaction, record: BookingRecord, order: OrderClaim | None) -> None:
        if order is not None:
            rows = tx.run(
                f"SELECT {_COLUMNS}, batch_id FROM bookings WHERE account = ? AND"
                " environment = ? AND order_number = ?",
                (record.profile, self.environment, order.number),
            )
            holder = self._record(rows[0][:-1]) if rows else None
            theirs = holder is not None and (
                holder.reference != record.reference or rows[0][-1] != order.batch_id
            )
            if holder is not None and theirs and holder.outcome != "failed":
                raise OrderTakenError(holder)  # another batch, file or station has it
            if holder is not None and holder.reference != record.reference:
                tx.run(  # a refused booking gives its order up
                    "UPDATE bookings SET order_number = NULL WHERE reference = ?",
                    (holder.reference,),
                )
        rows = tx.run(f"SELECT {_COLUMNS} FROM bookings WHERE reference = ?", (record.reference,))
        earlier = self._record(rows[0]) if rows else None
        if earlier is not None and earlier.outcome != "failed":
            raise AlreadySentError(earlier)
        values = self._values(record)
        if earlier is not None:
            tx.run("DELETE FROM bookings WHERE reference = ?", (record.reference,))
        inserted = tx.run(
            "INSERT INTO bookings (reference, account, environment, order_number, batch_id,"
            " station, profile, quote_id, rate_id, sent_at, updated, outcome, lane, search_for)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING reference",
            (
                record.reference,
                record.profile,
                self.environment,
                record.order_number,
                order.batch_id if order is not None else None,
                self.station,
                record.profile,
                record.quote_id,
                record.rate_id,
                values["sent_at"],
                values["updated"],
                "sent",
                values["lane"],
                record.search_for,
            ),
        )
        if not inserted:  # another transaction got there between our look and our write
            holder = self._holder(tx, record)
            if holder.reference == record.reference:
                raise AlreadySentError(holder)
            raise OrderTakenError(holder)
        if order is not None and order.batch_id is not None:
            tx.run(
                "UPDATE orders SET station = ? WHERE batch_id = ? AND key = ?",
                (self.station, order.batch_id, order.number),
            )

    def _holder(self, tx: Transaction, record: BookingRecord) -> BookingRecord:
        rows = tx.run(
            f"SELECT {_COLUMNS} FROM bookings WHERE reference = ? OR (account = ? AND"
            " environment = ? AND order_number = ?)",
            (record.reference, record.profile, self.environment, record.order_number),
        )
        if not rows:
            raise OSError(f"the store {self.store.where} refused booking {record.reference}")
        return self._record(rows[0])

    def _write_settled(self, settled: BookingRecord) -> None:
        try:
            with self.store.engine.write() as tx:
                tx.run(
                    "UPDATE bookings SET outcome = ?, updated = ?, shipment_id = ?,"
                    " pro_number = ?, bol_number = ?, note = ?, pickup_date = ?,"
                    " pickup_note = ? WHERE reference = ?",
                    (
                        settled.outcome,
                        now_text(settled.time),
                        settled.shipment_id,
                        settled.pro_number,
                        settled.bol_number,
                        settled.note,
                        settled.pickup_date,
                        settled.pickup_note,
                        settled.reference,
                    ),
                )
        except StoreError as error:
            raise OSError(str(error)) from None

    # -- reading ----------------------------------------------------------------------------

    def _values(self, record: BookingRecord) -> dict[str, Any]:
        lane = record.lane.to_data() if record.lane is not None else None
        return {
            "sent_at": now_text(record.sent_at or record.time),
            "updated": now_text(record.time),
            "lane": json.dumps(lane) if lane else None,
        }

    def _record(self, row: Row) -> BookingRecord:
        """A record from its row; an unreadable one is an error, never "new"."""
        (reference, profile, quote_id, rate_id, updated, outcome, sent_at) = row[:7]
        (shipment_id, pro, bol, note, pickup_date, pickup_note, lane, search_for) = row[7:15]
        (order_number, station) = row[15:17]
        if outcome not in OUTCOMES:
            raise StoreError(
                f"the store {self.store.where} holds booking {reference} with an unreadable "
                f"outcome {outcome!r}; restore the store from a backup or set it right by hand"
            )
        lane_data: Any = None
        if lane:
            try:
                lane_data = json.loads(lane)
            except ValueError:
                raise StoreError(
                    f"the store {self.store.where} holds booking {reference} with an "
                    "unreadable lane"
                ) from None
        return BookingRecord(
            reference=reference,
            profile=profile,
            quote_id=quote_id,
            rate_id=rate_id,
            time=parse_time(updated, self.store.where),
            outcome=outcome,
            sent_at=parse_time(sent_at, self.store.where),
            shipment_id=shipment_id,
            pro_number=pro,
            bol_number=bol,
            note=note,
            pickup_date=pickup_date,
            pickup_note=pickup_note,
            lane=Lane.from_data(lane_data),
            search_for=search_for,
            order_number=order_number,
            station=station,
        )

    def latest(self, reference: str) -> BookingRecord | None:
        """The booking of a reference, if the store has it."""
        rows = self.store.engine.read(
            f"SELECT {_COLUMNS} FROM bookings WHERE reference = ?", (reference,)
        )
        return self._record(rows[0]) if rows else None

    def of_order(self, profile: str, number: str) -> BookingRecord | None:
        """The booking that holds an order (its number) in a profile, if any."""
        rows = self.store.engine.read(
            f"SELECT {_COLUMNS} FROM bookings WHERE account = ? AND environment = ?"
            " AND order_number = ?",
            (profile, self.environment, number),
        )
        return self._record(rows[0]) if rows else None

    def bookings(self, profile: str | None = None) -> list[BookingRecord]:
        """Each booking (of one profile), the latest changed last."""
        query = f"SELECT {_COLUMNS} FROM bookings"
        args: tuple[str, ...] = ()
        if profile is not None:
            query += " WHERE profile = ?"
            args = (profile,)
        return [self._record(r) for r in self.store.engine.read(query + " ORDER BY updated", args)]

    def on_day(
        self, day: date, shipment_ids: Collection[str] = (), account: str | None = None
    ) -> list[BookingRecord]:
        """The bookings (every station's) in this ledger's environment (and ``account``: a
        profile's name) whose pickup may be on ``day``: the ledger says so or knows no day
        yet, or their shipment is one of ``shipment_ids`` (the service lists it on that day);
        the latest changed last. Only these rows are read, by index (``freight day``)."""
        mine = "environment = ?" + (" AND account = ?" if account is not None else "")
        args: tuple[str, ...] = (self.environment,) + ((account,) if account is not None else ())
        found = {
            record.reference: record
            for record in map(
                self._record,
                self.store.engine.read(
                    f"SELECT {_COLUMNS} FROM bookings WHERE {mine} AND pickup_date = ?"
                    f" UNION ALL SELECT {_COLUMNS} FROM bookings WHERE {mine}"
                    " AND pickup_date IS NULL",
                    (*args, day.isoformat(), *args),
                ),
            )
        }
        ids = sorted(set(shipment_ids))
        for at in range(0, len(ids), 500):  # a bounded number of parameters per query
            chunk = ids[at : at + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = self.store.engine.read(  # by the shipment's index; theirs kept here
                f"SELECT {_COLUMNS}, environment, account FROM bookings"
                f" WHERE shipment_id IN ({marks})",
                tuple(chunk),
            )
            found.update(
                (record.reference, record)
                for record in (
                    self._record(row[:-2]) for row in rows if tuple(row[-2:])[: len(args)] == args
                )
            )
        return sorted(found.values(), key=lambda record: record.time)

    def for_rate(self, profile: str, quote_id: str, rate_id: str) -> list[BookingRecord]:
        """The bookings of one quote and rate in a profile, latest last."""
        rows = self.store.engine.read(
            f"SELECT {_COLUMNS} FROM bookings WHERE profile = ? AND quote_id = ?"
            " AND rate_id = ? ORDER BY updated",
            (profile, quote_id, rate_id),
        )
        return [self._record(r) for r in rows]

    def marks(self, profile: str, quote_id: str) -> dict[str, Outcome]:
        """Rate id -> what the ledger knows of it in one quote: booked wins over unsettled."""
        rows = self.store.engine.read(
            f"SELECT {_COLUMNS} FROM bookings WHERE profile = ? AND quote_id = ? ORDER BY updated",
            (profile, quote_id),
        )
        return rate_marks(map(self._record, rows))

    def count(self) -> int:
        """How many bookings the store holds."""
        return int(self.store.engine.read("SELECT COUNT(*) FROM bookings")[0][0])
