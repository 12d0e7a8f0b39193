"""The booking ledger: every booking Freight sent and how it ended, kept in the data dir.

Contract: one JSON Lines file (``bookings.jsonl``), one event per line, only ever appended.
Each event names a booking by the reference Freight generated for it; a booking's state is
its last event. A line is written with one ``write`` under an exclusive ``flock`` and synced,
so two Freight processes never interleave lines and a crash leaves at worst a torn last line,
which reading skips. No Textual, no client: plain data in, plain data out.
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Literal

Outcome = Literal["sent", "booked", "unknown", "failed"]
"""sent: on its way (or the app stopped before an answer); booked: the service named the
shipment; unknown: no usable answer; failed: the service refused it."""

OUTCOMES: tuple[Outcome, ...] = ("sent", "booked", "unknown", "failed")
UNSETTLED: frozenset[Outcome] = frozenset({"sent", "unknown"})
"""Outcomes after which the booking may or may not exist."""

FILE_NAME = "bookings.jsonl"
REFERENCE_PREFIX = "FRT"
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32: no I, L, O, U


def new_reference() -> str:
    """A fresh booking reference, one word of 13 letters and digits (``FRT`` + 10 random)."""
    return REFERENCE_PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(10))


@dataclass(frozen=True)
class BookingRecord:
    """One booking Freight sent, as its last event left it."""

    reference: str
    profile: str
    quote_id: str
    rate_id: str
    time: datetime
    """When this state was recorded (aware)."""
    outcome: Outcome
    sent_at: datetime | None = None
    """When the booking was sent (aware); None on a record read without its "sent" event."""
    shipment_id: str | None = None
    pro_number: str | None = None
    bol_number: str | None = None
    note: str | None = None
    """Why it failed, or how the outcome became known (e.g. found by a search)."""
    pickup_date: str | None = None
    """The pickup day the service gave (`YYYY-MM-DD`), which may not be the one asked for."""
    pickup_note: str | None = None
    """What the service said about the pickup day (e.g. moved off a holiday)."""

    @property
    def settled(self) -> bool:
        """True when the service's answer (or a search) said how it ended."""
        return self.outcome not in UNSETTLED

    def to_json(self) -> str:
        """The record as one JSON line (no line break)."""
        data = asdict(self)
        data["time"] = self.time.isoformat()
        data["sent_at"] = self.sent_at.isoformat() if self.sent_at else None
        data = {key: value for key, value in data.items() if value is not None}
        return json.dumps({"v": 1, **data}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> BookingRecord | None:
        """A record from one line, or None when the line is torn, foreign or of another kind."""
        try:
            data = json.loads(line)
        except ValueError:
            return None
        if not isinstance(data, dict) or data.get("outcome") not in OUTCOMES:
            return None
        texts = ("reference", "profile", "quote_id", "rate_id")
        if not all(isinstance(data.get(key), str) and data[key] for key in texts):
            return None
        time = _aware(data.get("time"))
        if time is None:
            return None

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None

        return cls(
            reference=data["reference"],
            profile=data["profile"],
            quote_id=data["quote_id"],
            rate_id=data["rate_id"],
            time=time,
            outcome=data["outcome"],
            sent_at=_aware(data.get("sent_at")),
            shipment_id=text("shipment_id"),
            pro_number=text("pro_number"),
            bol_number=text("bol_number"),
            note=text("note"),
            pickup_date=text("pickup_date"),
            pickup_note=text("pickup_note"),
        )


def _sync_dir(directory: Path) -> None:
    """Make a new directory entry durable (where the platform allows opening a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _aware(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


class BookingLedger:
    """Appends booking events to one file and reads the bookings' states back."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_dir(cls, data_dir: Path) -> BookingLedger:
        """The ledger of a data dir (one file for every profile; records name their profile)."""
        return cls(data_dir / FILE_NAME)

    # -- writing ------------------------------------------------------------------------

    def sent(self, profile: str, quote_id: str, rate_id: str, reference: str) -> BookingRecord:
        """Record a booking about to be sent (before a byte goes out)."""
        now = datetime.now(UTC)
        record = BookingRecord(reference, profile, quote_id, rate_id, now, "sent", sent_at=now)
        self._append(record)
        return record

    def settle(
        self,
        record: BookingRecord,
        outcome: Outcome,
        *,
        shipment_id: str | None = None,
        pro_number: str | None = None,
        bol_number: str | None = None,
        note: str | None = None,
        pickup_date: date | None = None,
        pickup_note: str | None = None,
    ) -> BookingRecord:
        """Record how a booking ended (the answer, an error, or a search that found it); a
        booked one with the pickup day the service gave and what it said about it."""
        settled = replace(
            record,
            time=datetime.now(UTC),
            outcome=outcome,
            shipment_id=shipment_id or record.shipment_id,
            pro_number=pro_number or record.pro_number,
            bol_number=bol_number or record.bol_number,
            note=note,
            pickup_date=pickup_date.isoformat() if pickup_date else record.pickup_date,
            pickup_note=pickup_note or record.pickup_note,
        )
        self._append(settled)
        return settled

    def _append(self, record: BookingRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = (record.to_json() + "\n").encode("utf-8")
        new = not self.path.exists()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                # A torn line left by a crash gets its own line end first, so it spoils
                # only itself.
                if os.fstat(fd).st_size and not self._ends_with_newline(fd):
                    data = b"\n" + data
                written = 0
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
        if new:  # the file's name, too, must survive a crash
            _sync_dir(self.path.parent)

    def _ends_with_newline(self, fd: int) -> bool:
        size = os.fstat(fd).st_size
        return os.pread(fd, 1, size - 1) == b"\n"

    # -- reading ------------------------------------------------------------------------

    def events(self) -> Iterator[BookingRecord]:
        """Every readable event, oldest first (torn or foreign lines skipped)."""
        try:
            with self.path.open("r", encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    record = BookingRecord.from_json(line)
                    if record is not None:
                        yield record
        except FileNotFoundError:
            return

    def bookings(self, profile: str | None = None) -> list[BookingRecord]:
        """Each booking's latest state (of one profile when given), in the order of those states."""
        latest: dict[str, BookingRecord] = {}
        sent_at: dict[str, datetime] = {}
        for event in self.events():
            if profile is not None and event.profile != profile:
                continue
            if event.sent_at is not None:
                sent_at.setdefault(event.reference, event.sent_at)
            latest.pop(event.reference, None)  # keep the order of the latest event
            latest[event.reference] = event
        return [
            record if record.sent_at else replace(record, sent_at=sent_at.get(record.reference))
            for record in latest.values()
        ]

    def for_rate(self, profile: str, quote_id: str, rate_id: str) -> list[BookingRecord]:
        """The bookings of one quote and rate in a profile, latest last."""
        return [
            record
            for record in self.bookings(profile)
            if record.quote_id == quote_id and record.rate_id == rate_id
        ]

    def marks(self, profile: str, quote_id: str) -> dict[str, Outcome]:
        """Rate id -> what the ledger knows of it in one quote: booked wins over unsettled."""
        found: dict[str, Outcome] = {}
        for record in self.bookings(profile):
            if record.quote_id != quote_id or record.outcome == "failed":
                continue
            if found.get(record.rate_id) != "booked":
                found[record.rate_id] = "booked" if record.outcome == "booked" else "unknown"
        return found


def needs_check(records: Iterable[BookingRecord]) -> BookingRecord | None:
    """The booking to look for before sending this quote and rate again, if any.

    Any booking of them that was not refused counts (booked, unknown, or sent with no
    answer recorded); the latest one is returned.
    """
    last: BookingRecord | None = None
    for record in records:
        if record.outcome != "failed":
            last = record
    return last
