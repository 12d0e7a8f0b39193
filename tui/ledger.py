"""The booking ledger: every booking Freight sent and how it ended.

Freight keeps it in the store now (``tui.store.ledger.StoreLedger``, one row per booking and
one booking per order); this module holds the records both share, the ``Ledger`` interface
the booking engine writes to, and the JSON Lines ledger older Freights kept, read by
``freight store import`` (and still a working ``Ledger``).

Contract: one JSON Lines file (``bookings.jsonl``), one event per line, only ever appended.
Each event names a booking by the reference Freight generated for it; a booking's state is
its last event. A line is written with one ``write`` under an exclusive ``flock`` and synced,
so two Freight processes never interleave lines. A write that fails part-way (disk full, file
too large) is cut back off and raises ``OSError``: the caller must not send a booking whose
``sent`` line did not land. A crash may still leave a torn last line, which reading skips.
No Textual, no client: plain data in, plain data out.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from contextlib import suppress
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from tui.atomic import sync_dir

Outcome = Literal["sent", "booked", "unknown", "failed"]
"""sent: on its way (or the app stopped before an answer); booked: the service named the
shipment (or the user confirmed one a search found); unknown: no usable answer; failed: the
service refused it or it never went out."""

OUTCOMES: tuple[Outcome, ...] = ("sent", "booked", "unknown", "failed")
UNSETTLED: frozenset[Outcome] = frozenset({"sent", "unknown"})
"""Outcomes after which the booking may or may not exist."""

FILE_NAME = "bookings.jsonl"
REFERENCE_PREFIX = "FRT"
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32: no I, L, O, U


def order_reference(account: str, environment: str, number: str) -> str:
    """The reference of an order's booking: the same for the same order wherever it comes
    from (another file, another station), so that a store lost and made again can still ask
    the service for it. ``FRT`` + 10 letters and digits from a digest."""

    digest = hashlib.sha256(f"{account}\x1f{environment}\x1f{number}".encode()).digest()
    value = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(10):
        value, index = divmod(value, len(_ALPHABET))
        letters.append(_ALPHABET[index])
    return REFERENCE_PREFIX + "".join(letters)


def is_booking_reference(text: str | None) -> bool:
    """True when ``text`` has the shape of Freight's own booking reference (``FRT`` + 10 of
    Crockford's base 32), not a shipper's."""
    return (
        text is not None
        and len(text) == len(REFERENCE_PREFIX) + 10
        and text.startswith(REFERENCE_PREFIX)
        and all(c in _ALPHABET for c in text[len(REFERENCE_PREFIX) :])
    )


def new_reference() -> str:
    """A fresh booking reference, one word of 13 letters and digits (``FRT`` + 10 random)."""
    return REFERENCE_PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(10))


@dataclass(frozen=True)
class Priced:
    """What a booking was priced at, kept for the reports: the rate booked (``carrier``,
    ``total`` as exact decimal text, ``currency``, ``transitDays``, ``rateId``), the offers it
    was chosen from (the same shape) and the shipment's pounds."""

    rate: dict[str, Any]
    offers: tuple[dict[str, Any], ...] = ()
    pounds: str | None = None

    def columns(self) -> tuple[str, str, str | None]:
        """The ledger's ``rate``, ``offers`` and ``weights`` columns (JSON text)."""
        weights = json.dumps({"pounds": self.pounds}) if self.pounds is not None else None
        return json.dumps(self.rate), json.dumps(list(self.offers)), weights


@dataclass(frozen=True)
class Offer:
    """One bookable offer as the ledger keeps it (money exact, in its currency)."""

    rate_id: str
    carrier: str
    carrier_code: str | None
    total: Decimal
    currency: str
    transit_days: int | None

    def data(self) -> dict[str, Any]:
        """The offer as the ledger's JSON (the total as exact decimal text)."""
        return {
            "carrier": self.carrier,
            "scac": self.carrier_code or None,
            "total": str(self.total),
            "currency": self.currency,
            "transitDays": self.transit_days,
            "rateId": self.rate_id,
        }


def priced(choice: Offer, offers: Iterable[Offer], pounds: Decimal | None) -> Priced:
    """What a booking is priced at: the offer booked, the bookable offers it was chosen from
    (the booked one among them) and the shipment's pounds. The rate keeps the cheapest other
    offer in its currency (``nextTotal``, null when there was none) for the savings."""
    shown = list(offers)
    if all(o.rate_id != choice.rate_id for o in shown):
        shown.insert(0, choice)
    others = [
        o.total for o in shown if o.rate_id != choice.rate_id and o.currency == choice.currency
    ]
    rate = choice.data() | {"nextTotal": str(min(others)) if others else None}
    return Priced(rate, tuple(o.data() for o in shown), str(pounds) if pounds else None)


@dataclass(frozen=True)
class Lane:
    """Where a booking goes and with whom: how its shipment is recognised in a listing when a
    server does not find it by its reference. Every part is optional."""

    origin: str | None = None
    """Origin postal code."""
    destination: str | None = None
    """Destination postal code."""
    carrier: str | None = None
    """Carrier name as the rate gave it."""
    carrier_code: str | None = None
    """Carrier code (SCAC) as the rate gave it."""
    pickup_date: date | None = None
    """The pickup day asked for."""

    def to_data(self) -> dict[str, str]:
        """The lane as JSON-ready data (parts left out are not written)."""
        data = {key: value for key, value in asdict(self).items() if value is not None}
        if self.pickup_date is not None:
            data["pickup_date"] = self.pickup_date.isoformat()
        return data

    @classmethod
    def from_data(cls, data: Any) -> Lane | None:
        """A lane read leniently (parts of the wrong type left out); None when not an object."""
        if not isinstance(data, dict):
            return None

        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None

        day: date | None = None
        with suppress(TypeError, ValueError):
            day = date.fromisoformat(data.get("pickup_date"))  # type: ignore[arg-type]
        return cls(text("origin"), text("destination"), text("carrier"), text("carrier_code"), day)


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
    lane: Lane | None = None
    """Where it goes and with whom (to recognise its shipment in a listing)."""
    search_for: str | None = None
    """The reference the service got instead of this one, when every reference field of the
    booking held the user's own (searched for too; a hit on it is only a candidate)."""
    order_number: str | None = None
    """The order it books (a batch's), unique per account and environment in the store."""
    station: str | None = None
    """The station (host and terminal, or FREIGHT_STATION) that sent it."""

    @property
    def settled(self) -> bool:
        """True when the service's answer (or a search) said how it ended."""
        return self.outcome not in UNSETTLED

    def to_json(self) -> str:
        """The record as one JSON line (no line break)."""
        data = asdict(self)
        data["time"] = self.time.isoformat()
        data["sent_at"] = self.sent_at.isoformat() if self.sent_at else None
        data["lane"] = (self.lane.to_data() or None) if self.lane is not None else None
        data = {key: value for key, value in data.items() if value is not None}
        return json.dumps({"v": 1, **data}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str | bytes) -> BookingRecord | None:
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
            lane=Lane.from_data(data.get("lane")),
            search_for=text("search_for"),
            order_number=text("order_number"),
            station=text("station"),
        )


@dataclass(frozen=True)
class OrderClaim:
    """The order a booking is of: at most one booking per (account, environment, number)."""

    number: str
    batch_id: int | None = None
    ask_service: bool = False
    """The store is new (or was lost): ask the service by the reference before sending."""


def sent_record(
    profile: str,
    quote_id: str,
    rate_id: str,
    reference: str,
    *,
    lane: Lane | None = None,
    search_for: str | None = None,
    order: OrderClaim | None = None,
    station: str | None = None,
    now: datetime | None = None,
) -> BookingRecord:
    """The record of a booking about to be sent (outcome "sent", sent now), as every ledger
    writes it first."""
    moment = now or datetime.now(UTC)
    return BookingRecord(
        reference,
        profile,
        quote_id,
        rate_id,
        moment,
        "sent",
        sent_at=moment,
        lane=lane,
        search_for=search_for,
        order_number=order.number if order is not None else None,
        station=station,
    )


class AlreadySentError(Exception):
    """The reference was sent before (and not refused): it must not go out again."""

    def __init__(self, record: BookingRecord) -> None:
        super().__init__(f"booking {record.reference} was sent before ({record.outcome})")
        self.record = record


class OrderTakenError(AlreadySentError):
    """The order was booked (or is being booked) under another reference, maybe by another
    station: it must not go out again."""

    def __init__(self, record: BookingRecord) -> None:
        super().__init__(record)
        self.args = (
            f"order {record.order_number} was sent as {record.reference} by "
            f"{record.station or 'another station'} ({record.outcome})",
        )


class Ledger(ABC):
    """What the booking engine asks of the ledger (the store's, or the JSON Lines file): each
    writes a booking's ``sent`` and settled records its own way."""

    environment: str
    """The environment its bookings are in (part of an order's identity)."""
    station: str | None = None
    """The station that sends its bookings (None where the ledger does not keep it)."""

    def sent(
        self,
        profile: str,
        quote_id: str,
        rate_id: str,
        reference: str,
        *,
        lane: Lane | None = None,
        search_for: str | None = None,
        order: OrderClaim | None = None,
        priced: Priced | None = None,
    ) -> BookingRecord:
        """Record a booking about to be sent (before a byte goes out), claiming its order.

        Raises ``OSError`` when the record did not land (then nothing may be sent),
        ``AlreadySentError`` when the ledger already holds this reference sent or booked (by
        this or another process; a reference goes out at most once unless it was refused) and
        ``OrderTakenError`` when another booking of the order exists. ``priced`` is kept for
        the reports where the ledger has room for it (the store's)."""
        record = sent_record(
            profile,
            quote_id,
            rate_id,
            reference,
            lane=lane,
            search_for=search_for,
            order=order,
            station=self.station,
        )
        self._write_sent(record, order, priced)
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
        """Record how a booking ended, now (the answer, an error, or a search that found it):
        what the answer gave, else what the record already knew (the note is the answer's
        alone). Raises ``OSError`` when it cannot be written."""
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
        self._write_settled(settled)
        return settled

    @abstractmethod
    def _write_sent(
        self, record: BookingRecord, order: OrderClaim | None, priced: Priced | None
    ) -> None:
        """Write a ``sent`` record (and claim its order)."""

    @abstractmethod
    def _write_settled(self, settled: BookingRecord) -> None:
        """Write a settled record."""

    @abstractmethod
    def latest(self, reference: str) -> BookingRecord | None:
        """The booking of a reference, if the ledger has it."""

    @abstractmethod
    def bookings(self, profile: str | None = None) -> list[BookingRecord]:
        """Each booking's latest state (of one profile)."""

    @abstractmethod
    def for_rate(self, profile: str, quote_id: str, rate_id: str) -> list[BookingRecord]:
        """The bookings of one quote and rate in a profile, latest last."""

    @abstractmethod
    def marks(self, profile: str, quote_id: str) -> dict[str, Outcome]:
        """Rate id -> what the ledger knows of it in one quote."""


def rate_marks(records: Iterable[BookingRecord]) -> dict[str, Outcome]:
    """Rate id -> what these bookings (of one quote, oldest first) say of it: booked wins over
    unsettled; refused ones say nothing."""
    found: dict[str, Outcome] = {}
    for record in records:
        if record.outcome == "failed":
            continue
        if found.get(record.rate_id) != "booked":
            found[record.rate_id] = "booked" if record.outcome == "booked" else "unknown"
    return found


def _aware(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


@dataclass
class _Index:
    """What the file said up to `offset`: each booking's latest event, in the order of those."""

    inode: int
    offset: int = 0
    latest: dict[str, BookingRecord] = field(default_factory=dict)
    sent_at: dict[str, datetime] = field(default_factory=dict)


class BookingLedger(Ledger):
    """Appends booking events to one file and reads the bookings' states back.

    The file is read once and then only from where the last read stopped (it is only ever
    appended to), so asking for one booking's state stays cheap in a long batch. Safe to share
    between threads and tasks of one process; several processes share the file through its lock.
    """

    def __init__(self, path: Path, environment: str = "") -> None:
        self.path = path
        self.environment = environment
        self._lock = threading.Lock()
        self._index: _Index | None = None

    @classmethod
    def in_dir(cls, data_dir: Path) -> BookingLedger:
        """The ledger of a data dir (one file for every profile; records name their profile)."""
        return cls(data_dir / FILE_NAME)

    # -- writing ------------------------------------------------------------------------

    def _write_sent(
        self,
        record: BookingRecord,
        order: OrderClaim | None,
        priced: Priced | None,  # the file ledger keeps no prices: the store's does
    ) -> None:
        self._append(record, new=True)

    def _write_settled(self, settled: BookingRecord) -> None:
        self._append(settled)

    def _append(self, record: BookingRecord, *, new: bool = False) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = (record.to_json() + "\n").encode("utf-8")
        created = not self.path.exists()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                with self._lock:
                    index = self._caught_up(fd)
                    earlier = index.latest.get(record.reference)
                    if new and earlier is not None and earlier.outcome != "failed":
                        raise AlreadySentError(earlier)
                    self._write_line(fd, data)
                    self._caught_up(fd)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
        if created:  # the file's name, too, must survive a crash
            sync_dir(self.path.parent)

    @staticmethod
    def _write_line(fd: int, data: bytes) -> None:
        """Write and sync one line; on failure cut the file back to where it was and raise."""
        size = os.fstat(fd).st_size
        # A torn line left by a crash gets its own line end first, so it spoils only itself.
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except OSError:
            with suppress(OSError):  # a torn line would not be read; cut it off all the same
                os.ftruncate(fd, size)
            raise

    # -- reading ------------------------------------------------------------------------

    def _caught_up(self, fd: int) -> _Index:
        """The index, brought up to the file's last complete line (caller holds `_lock`)."""
        stat = os.fstat(fd)
        index = self._index
        if index is None or index.inode != stat.st_ino or stat.st_size < index.offset:
            index = self._index = _Index(stat.st_ino)
        if stat.st_size > index.offset:
            chunk = os.pread(fd, stat.st_size - index.offset, index.offset)
            end = chunk.rfind(b"\n") + 1
            for line in chunk[:end].splitlines():
                event = BookingRecord.from_json(line.decode("utf-8", "replace"))
                if event is None:
                    continue
                if event.sent_at is not None:
                    index.sent_at.setdefault(event.reference, event.sent_at)
                else:  # a later event written without it (by an older Freight)
                    event = replace(event, sent_at=index.sent_at.get(event.reference))
                index.latest.pop(event.reference, None)  # keep the order of the latest event
                index.latest[event.reference] = event
            index.offset += end
        return index

    def _latest(self, reference: str | None = None) -> dict[str, BookingRecord]:
        """Each booking's latest state, in the order of those states (a snapshot); with a
        reference, only that booking's (no copy of the rest)."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return {}
        try:
            with self._lock:
                latest = self._caught_up(fd).latest
                if reference is None:
                    return dict(latest)
                found = latest.get(reference)
                return {reference: found} if found is not None else {}
        finally:
            os.close(fd)

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

    def latest(self, reference: str) -> BookingRecord | None:
        """The booking of a reference as its last event left it, if the ledger has it."""
        return self._latest(reference).get(reference)

    def bookings(self, profile: str | None = None) -> list[BookingRecord]:
        """Each booking's latest state (of one profile when given), in the order of those states."""
        return [
            record
            for record in self._latest().values()
            if profile is None or record.profile == profile
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
        return rate_marks(r for r in self.bookings(profile) if r.quote_id == quote_id)


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
