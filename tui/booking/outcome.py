"""What became of one booking: booked, refused, failed or unknown, each with what it knows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from tui.api.errors import ConflictError

if TYPE_CHECKING:
    from tui.api.models import Booking, ParcelBooking, Shipment
    from tui.ledger import BookingRecord

Status = Literal["booked", "refused", "failed", "unknown"]


@dataclass(frozen=True)
class Candidate:
    """A listed shipment that may be the booking, which only the user can confirm."""

    shipment: Shipment
    why: str
    """Why it is shown, e.g. ``same lane, created 14:02, after the booking was sent``."""


@dataclass(frozen=True, kw_only=True)
class _Outcome:
    reference: str
    """The booking's reference (its key in the ledger)."""
    record: BookingRecord | None
    """The ledger's latest record of it (None when the ledger has none: nothing was sent)."""
    ledger_problem: str | None = None
    """Set when the ledger could not record this outcome (the booking is unaffected; the
    ledger still holds its previous state, e.g. ``sent``, and will ask for a search)."""
    taken: bool = False
    """The order was booked (or is being booked) by another file, station or terminal:
    ``record`` is that booking, and nothing was sent."""


@dataclass(frozen=True, kw_only=True)
class BookedOutcome(_Outcome):
    """The booking exists: the service's answer named it, a search proved it, or the ledger
    already said so (``earlier``: nothing was sent this time)."""

    status: Literal["booked"] = "booked"
    booking: Booking | ParcelBooking | None = None
    """The service's answer, when this call got one."""
    found: Shipment | None = None
    """The listed shipment that carries the reference or PRO, when a search proved it."""
    earlier: bool = False
    """True when the ledger already said booked, so nothing was sent."""
    confirmed_by_user: bool = False
    """True when the user said a candidate was theirs (not proven by the service)."""

    @property
    def shipment_id(self) -> str | None:
        """The shipment's id, from the answer, the shipment found or the ledger."""
        if self.booking is not None and self.booking.shipment_id:
            return self.booking.shipment_id
        if self.found is not None:
            return self.found.id
        return self.record.shipment_id if self.record is not None else None

    @property
    def pro_number(self) -> str | None:
        """The PRO (or a parcel's first tracking number), wherever it is known."""
        if self.booking is not None:
            ids = self.booking.identifiers
            number = ids.get("pro_number") or ids.get("tracking_number")
            if number:
                return number
        if self.found is not None and self.found.pro_number:
            return self.found.pro_number
        return self.record.pro_number if self.record is not None else None

    @property
    def bol_number(self) -> str | None:
        """The bill of lading number, wherever it is known."""
        if self.booking is not None and self.booking.identifiers.get("bol_number"):
            return self.booking.identifiers["bol_number"]
        if self.found is not None and self.found.bol_number:
            return self.found.bol_number
        return self.record.bol_number if self.record is not None else None


@dataclass(frozen=True, kw_only=True)
class RefusedOutcome(_Outcome):
    """The service looked at the booking and said no: nothing was booked by it."""

    status: Literal["refused"] = "refused"
    message: str
    """The service's reason, one line."""
    fields: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Field path (wire names, as the service gave them) -> what is wrong with it."""
    error: Exception
    """The error raised (``InvalidRequestError``, ``QuoteExpiredError``, ``ConflictError``…)."""

    @property
    def already_booked(self) -> str | None:
        """The shipment id a ``409`` named: this quote and rate are booked already (by some
        earlier booking, not by this one); empty when the service named none; None otherwise."""

        if isinstance(self.error, ConflictError):
            return self.error.shipment_id or ""
        return None


@dataclass(frozen=True, kw_only=True)
class FailedOutcome(_Outcome):
    """Nothing was booked: the booking never went out (the ledger could not be written, the
    service could not be reached) or the service would not take it from this account."""

    status: Literal["failed"] = "failed"
    reason: str
    """What went wrong, one line."""
    error: BaseException | None = None
    """The error behind it (``OSError`` for the ledger, ``FreightError`` for the service)."""
    retryable: bool = False
    """True when the same booking may simply be tried again later (connection, 429, 5xx
    before sending, ledger full once space is freed)."""


@dataclass(frozen=True, kw_only=True)
class UnknownOutcome(_Outcome):
    """The booking may or may not exist: no usable answer came, and no search proved it.

    Never send it again before the user has seen the candidates (or an empty search): call
    ``BookingEngine.settle`` to search again, ``BookingEngine.confirm`` when the user says a
    candidate is theirs, or ``book`` with a new reference when they say none is.
    """

    status: Literal["unknown"] = "unknown"
    reason: str
    """Why the outcome is not known (no answer in time, connection broke, unreadable…)."""
    candidates: tuple[Candidate, ...] = ()
    """Shipments that may be it: search hits without its reference, and shipments created
    since it was sent on the same lane."""
    searched: bool = False
    """True when a search answered (so an empty ``candidates`` means nothing was found)."""
    search_error: str | None = None
    """Why the search did not answer, when it did not."""


BookingOutcome = BookedOutcome | RefusedOutcome | FailedOutcome | UnknownOutcome
"""What ``BookingEngine.book`` returns; ``status`` tells them apart as text."""
