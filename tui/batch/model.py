"""What a batch is made of: orders read from the file, their problems, and each one's state."""

from __future__ import annotations

import hashlib
import json
import pickle
import zlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Literal

from tui.domain.safe_text import plain

if TYPE_CHECKING:
    from tui.api.models import RateRequest

Status = Literal["invalid", "pending", "rated", "no-rate", "failed", "booking", "booked", "unknown"]
"""invalid: a line of it is wrong in the file (set aside whole); pending: not rated yet;
rated: a rate is chosen; no-rate: rated, but no rate fits the rules; failed: the service failed
(retryable); booking: a booking was sent and no answer recorded yet; booked; unknown: a booking
whose outcome could not be known (searched for before anything is sent again)."""

STATUSES: Final[tuple[Status, ...]] = (
    "invalid", "pending", "rated", "no-rate", "failed", "booking", "booked", "unknown"
)  # fmt: skip
DONE_STATUSES: Final[frozenset[Status]] = frozenset({"rated", "booked"})
BOOKED_OR_MAYBE: Final[frozenset[Status]] = frozenset({"booking", "booked", "unknown"})
"""A booking may exist: never sent again without finding out."""


def to_rate_statuses(rerate: bool) -> tuple[Status, ...]:
    """Statuses of the orders a rating run asks for: pending and failed ones (with
    ``rerate``, also the rated ones not booked)."""
    return ("pending", "failed", "rated", "no-rate") if rerate else ("pending", "failed")


PAPERWORK_NOT_SAVED: Final = "not saved yet"
"""Why paperwork is owed when nothing was tried yet (booked, then stopped before saving)."""

OUTPUT_STATUS: dict[Status, str] = {
    "invalid": "invalid",
    "pending": "pending",
    "rated": "rated",
    "no-rate": "no-rate",
    "failed": "failed",
    "booking": "unknown",
    "booked": "booked",
    "unknown": "unknown",
}
"""The status a user reads: a booking sent with no answer yet is ``unknown`` until settled."""


@dataclass(frozen=True, slots=True)
class RowError:
    """One problem of the file: its row, column and value, and why it is wrong."""

    row: int | None
    column: str | None
    value: str | None
    reason: str

    @property
    def message(self) -> str:
        """``row 91, Class: 73 is not a freight class`` (file text shown as plain text)."""

        where = ", ".join(
            part
            for part in (
                f"row {self.row}" if self.row is not None else "",
                plain(self.column, limit=60),
            )
            if part
        )
        value = plain(self.value, limit=80)
        text = f"{value} {self.reason}" if value else self.reason
        text = plain(text)
        return f"{where}: {text}" if where else text

    def to_json(self) -> dict[str, Any]:
        """As the JSON output and the batch store write it."""
        return {"row": self.row, "column": self.column, "value": self.value, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Any) -> RowError | None:
        """A stored error (None when unreadable)."""
        if not isinstance(data, dict) or not isinstance(data.get("reason"), str):
            return None
        row = data.get("row")
        column = data.get("column")
        value = data.get("value")
        return cls(
            row if isinstance(row, int) else None,
            column if isinstance(column, str) else None,
            value if isinstance(value, str) else None,
            data["reason"],
        )


@dataclass(frozen=True, slots=True)
class Flags:
    """What an order asks beyond the dock: shown in the review, sent as accessorials."""

    hazmat: bool = False
    liftgate: bool = False
    appointment: bool = False
    inside: bool = False
    residential: bool = False
    limited_access: bool = False

    def short(self) -> str:
        """``HZ LG AP`` for the review table."""
        names = (
            ("hazmat", "HZ"),
            ("liftgate", "LG"),
            ("appointment", "AP"),
            ("inside", "IN"),
            ("residential", "RES"),
            ("limited_access", "LTD"),
        )
        return " ".join(code for name, code in names if getattr(self, name))


@dataclass(frozen=True, slots=True)
class HazardLook:
    """Lines of an order that look hazardous (their words say so) and give no UN number."""

    words: str
    """The words that looked hazardous: ``paint, flammable``."""
    lines: str
    """A digest of those lines' descriptions: the user's word that the order is not
    hazardous holds for these lines, and is asked again when they change."""
    rows: tuple[int, ...] = ()
    """The file's rows of those lines."""

    @property
    def rows_text(self) -> str:
        """``row 3`` or ``rows 3, 4``."""
        numbers = ", ".join(str(row) for row in dict.fromkeys(self.rows))
        return f"row{'s' if len(set(self.rows)) > 1 else ''} {numbers}"


@dataclass(frozen=True, slots=True)
class Order:
    """One order of the file: the rows it came from and what they say, or why they cannot.

    Its rate request is kept packed (a pickle compressed against the first request this
    process packed, which says most of what every other one says: about 180 bytes, a tenth
    of the model's size): a file of 100,000 orders must fit in a few hundred megabytes.
    ``Order.of`` packs it; ``request`` unpacks a fresh copy each time it is read."""

    key: str
    rows: tuple[int, ...]
    errors: tuple[RowError, ...] = ()
    notes: tuple[str, ...] = ()
    """What was read differently from the file (ship date moved, ZIP restored…)."""
    packed: bytes = b""
    """The rate request, packed (empty when the order is invalid)."""
    dictionary: bytes = field(default=b"", repr=False, compare=False)
    """What ``packed`` was compressed against (one object shared by every order)."""
    fingerprint: str = ""
    """A digest of what its rates depend on: a changed one must be rated again."""
    pickup_date: date | None = None
    origin_label: str = ""
    dest_text: str = ""
    """``Gardnerville NV 89410``."""
    pieces: int = 0
    weight_lb: Decimal = Decimal(0)
    classes: str = ""
    flags: Flags = field(default_factory=Flags)
    po: str = ""
    looks_hazardous: HazardLook | None = None
    """Lines whose words look hazardous with no UN number: the order is set aside unless
    the user said it is not hazardous (then it is read as not hazardous, with a note)."""

    @classmethod
    def of(cls, *, request: RateRequest | None = None, **fields: Any) -> Order:
        """An order holding ``request`` (also both ends' addresses and contacts for the
        booking; None when the order is invalid) packed, with its fingerprint."""
        if request is None:
            return cls(**fields)
        raw = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        dictionary = _dictionary(raw)
        packer = zlib.compressobj(6, zdict=dictionary)
        packed = packer.compress(raw) + packer.flush()
        return cls(
            **fields, packed=packed, dictionary=dictionary, fingerprint=fingerprint_of(request)
        )

    @property
    def request(self) -> RateRequest | None:
        """The rate request (a fresh copy), or None when the order is invalid."""
        if not self.packed:
            return None
        unpacker = zlib.decompressobj(zdict=self.dictionary)
        raw = unpacker.decompress(self.packed) + unpacker.flush()
        request: RateRequest = pickle.loads(raw)  # our own bytes
        return request

    @property
    def valid(self) -> bool:
        """No row of it is wrong."""
        return not self.errors and bool(self.packed)


_DICTIONARY: list[bytes] = []
"""The first request this process packed: what every later one is compressed against."""


def _dictionary(raw: bytes) -> bytes:
    """The packing dictionary, made of ``raw`` when there is none yet. Each order keeps the
    one it was packed with: threads racing to make it cannot mix two up."""
    if not _DICTIONARY:
        _DICTIONARY.append(raw[-32768:])  # what zlib can look back on
    return _DICTIONARY[0]


def fingerprint_of(request: RateRequest) -> str:
    """A digest of what a request's rates depend on."""
    # The model's own values, not the wire's spelling: a client that spells a request
    # otherwise (a new version, a profile's [wire]) does not make every order new.
    data = request.model_dump(include=set(_RATED_KEYS), exclude_none=True)
    kept = {k: data[k] for k in _RATED_KEYS if k in data}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_RATED_KEYS: Final = (
    "origin_postal_code", "dest_postal_code", "origin_type", "dest_type", "items",
    "pickup_date", "charges", "origin_country", "dest_country",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class RateOption:
    """One carrier offer an order got, as kept in the batch (money exact, in its currency)."""

    id: str
    carrier: str
    carrier_code: str
    service: str
    mode: str
    total: Decimal
    currency: str
    days: int | None
    ok: bool = True
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """As stored (the total as text, exact)."""
        data = asdict(self)
        data["total"] = str(self.total)
        return data

    @classmethod
    def from_json(cls, data: Any) -> RateOption | None:
        """A stored offer (None when unreadable)."""
        if not isinstance(data, dict):
            return None
        try:
            days = data.get("days")
            return cls(
                id=str(data["id"]),
                carrier=str(data.get("carrier", "")),
                carrier_code=str(data.get("carrier_code", "")),
                service=str(data.get("service", "")),
                mode=str(data.get("mode", "")),
                total=Decimal(str(data["total"])),
                currency=str(data.get("currency", "USD")),
                days=days if isinstance(days, int) else None,
                ok=bool(data.get("ok", True)),
                message=str(data.get("message", "")),
            )
        except (KeyError, ArithmeticError, ValueError):
            return None


@dataclass(frozen=True, slots=True)
class OrderState:
    """Where one order of a batch stands; saved in the batch store each time it changes."""

    key: str
    status: Status = "pending"
    fingerprint: str = ""
    errors: tuple[RowError, ...] = ()
    """The file's problems (invalid) or the service's answer (failed, no-rate…)."""
    quote_id: str = ""
    rates: tuple[RateOption, ...] = ()
    chosen: str = ""
    """The id of the chosen rate."""
    chosen_by: Literal["rule", "hand", ""] = ""
    pickup_date: str = ""
    """YYYY-MM-DD."""
    reference: str = ""
    """The booking's own reference (also the booking ledger's)."""
    shipment_id: str = ""
    pro_number: str = ""
    bol_number: str = ""
    tracking_numbers: tuple[str, ...] = ()
    pickup_confirmation: str = ""
    documents: tuple[str, ...] = ()
    """Files saved for it (BOL, labels), relative to the batch's documents folder."""
    paperwork_missing: str = ""
    """Why a booked order's paperwork is not all saved yet ("": nothing is owed). Set in the
    same save that records it booked, cleared once every document is saved: a later run (or
    ``freight batch paperwork``) fetches what is owed."""
    notes: tuple[str, ...] = ()
    position: int = 0
    """Its place in the file (the row its first line is on)."""

    @property
    def choice(self) -> RateOption | None:
        """The chosen offer, if any."""
        return next((r for r in self.rates if r.id == self.chosen), None) if self.chosen else None

    @property
    def error_text(self) -> str:
        """The errors as one line."""
        return "; ".join(error.message for error in self.errors)

    def to_json(self) -> dict[str, Any]:
        """As the batch store keeps it."""
        return {
            "key": self.key,
            "status": self.status,
            "fingerprint": self.fingerprint,
            "errors": [e.to_json() for e in self.errors],
            "quote_id": self.quote_id,
            "rates": [r.to_json() for r in self.rates],
            "chosen": self.chosen,
            "chosen_by": self.chosen_by,
            "pickup_date": self.pickup_date,
            "reference": self.reference,
            "shipment_id": self.shipment_id,
            "pro_number": self.pro_number,
            "bol_number": self.bol_number,
            "tracking_numbers": list(self.tracking_numbers),
            "pickup_confirmation": self.pickup_confirmation,
            "documents": list(self.documents),
            "paperwork_missing": self.paperwork_missing,
            "notes": list(self.notes),
            "position": self.position,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OrderState:
        """A stored state; anything unreadable in it falls back to its default."""

        def text(key: str) -> str:
            value = data.get(key)
            return value if isinstance(value, str) else ""

        def texts(key: str) -> tuple[str, ...]:
            value = data.get(key)
            return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()

        status = data.get("status")
        chosen_by = data.get("chosen_by")
        errors = data.get("errors")
        rates = data.get("rates")
        position = data.get("position")
        documents = texts("documents")
        missing = data.get("paperwork_missing")
        if not isinstance(missing, str):  # kept before paperwork was owed: booked, none saved
            missing = PAPERWORK_NOT_SAVED if status == "booked" and not documents else ""
        return cls(
            key=text("key"),
            status=status if status in STATUSES else "pending",
            fingerprint=text("fingerprint"),
            errors=tuple(e for e in (RowError.from_json(x) for x in errors or ()) if e is not None)
            if isinstance(errors, list)
            else (),
            quote_id=text("quote_id"),
            rates=tuple(r for r in (RateOption.from_json(x) for x in rates or ()) if r is not None)
            if isinstance(rates, list)
            else (),
            chosen=text("chosen"),
            chosen_by=chosen_by if chosen_by in ("rule", "hand") else "",
            pickup_date=text("pickup_date"),
            reference=text("reference"),
            shipment_id=text("shipment_id"),
            pro_number=text("pro_number"),
            bol_number=text("bol_number"),
            tracking_numbers=texts("tracking_numbers"),
            pickup_confirmation=text("pickup_confirmation"),
            documents=documents,
            paperwork_missing=missing,
            notes=texts("notes"),
            position=position if isinstance(position, int) else 0,
        )

    @property
    def owes_paperwork(self) -> bool:
        """Booked, and its BOL and labels are not all saved."""
        return self.status == "booked" and bool(self.paperwork_missing)

    def updated(self, **changes: Any) -> OrderState:
        """A copy with some fields changed."""
        return replace(self, **changes)
