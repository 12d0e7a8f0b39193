"""The booking engine: one booking, from its ledger line to a typed outcome (see tui.booking)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from tui.api.errors import (
    ApiError,
    AuthenticationError,
    BookingOutcomeUnknownError,
    ConflictError,
    FreightError,
    InvalidRequestError,
    PermissionDeniedError,
    RateLimitedError,
    RequestValidationError,
    SubscriptionError,
    TransportError,
)
from tui.api.models import ParcelBookingRequest
from tui.booking import proof
from tui.booking.outcome import (
    BookedOutcome,
    BookingOutcome,
    Candidate,
    FailedOutcome,
    RefusedOutcome,
    UnknownOutcome,
)
from tui.ledger import (
    AlreadySentError,
    BookingRecord,
    Lane,
    Ledger,
    OrderClaim,
    OrderTakenError,
    Priced,
    needs_check,
    new_reference,
    sent_record,
)

if TYPE_CHECKING:
    from tui.api.client import FreightClient
    from tui.api.models import Booking, BookingRequest, ParcelBooking, Shipment

    AnyBookingRequest = BookingRequest | ParcelBookingRequest

log = logging.getLogger(__name__)

T = TypeVar("T")

REFERENCE_FIELDS = ("reference", "origin_reference_number")
"""Where the booking's reference goes, in each one the request leaves empty (a server may keep
one and drop the other)."""
LAST_RESORT_FIELD = "dest_reference_number"
TAKEN_WAIT_S = 30.0
"""How long a booking waits for another station's booking of the same order to be answered."""
"""Where it goes when both of those are taken (and this one is empty)."""
REFERENCE_PAGES = 2
"""Pages of a search for the reference looked at (a search that works finds it on the first)."""
LANE_PAGES = 5
"""Pages of recent shipments looked through for candidates on the lane."""


@dataclass(frozen=True)
class Placed:
    """A request with the booking's reference placed in it."""

    request: AnyBookingRequest
    fields: tuple[str, ...]
    """The request fields that carry the reference (none: every one was taken)."""


def place_reference(request: AnyBookingRequest, reference: str) -> Placed:
    """The request with ``reference`` in the shipper's and the origin's reference fields where
    it leaves them empty (in the destination's when both are taken)."""
    carrying = [name for name in REFERENCE_FIELDS if getattr(request, name, None) == reference]
    empty = [name for name in REFERENCE_FIELDS if not getattr(request, name, None)]
    if not carrying and not empty and not getattr(request, LAST_RESORT_FIELD, None):
        empty = [LAST_RESORT_FIELD]
    if getattr(request, LAST_RESORT_FIELD, None) == reference:
        carrying.append(LAST_RESORT_FIELD)
    if empty:
        request = request.model_copy(update=dict.fromkeys(empty, reference))
    return Placed(request, tuple(carrying + empty))


def _text(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error) or type(error).__name__


class BookingEngine:
    """Books through one client, recording every booking in one ledger under one profile.

    Safe to share between concurrent tasks: each booking is its own reference, and the ledger
    refuses to record a reference as sent twice (across processes too). See ``tui.booking``.
    """

    def __init__(
        self,
        client: FreightClient,
        ledger: Ledger,
        profile: str,
    ) -> None:
        self.client = client
        self.ledger = ledger
        self.profile = profile
        self._sending: set[str] = set()

    async def _io(self, call: Callable[[], T]) -> T:
        """A ledger call, off the event loop (it syncs to disk)."""
        return await asyncio.to_thread(call)

    # -- the ledger, read ----------------------------------------------------------------

    def record(self, reference: str) -> BookingRecord | None:
        """The ledger's latest record of a reference (None when it was never sent)."""
        return self.ledger.latest(reference)

    def earlier(self, quote_id: str, rate_id: str) -> BookingRecord | None:
        """The latest booking of this quote and rate in this profile that was not refused
        (booked, unknown, or sent with no answer recorded): look for it before booking again."""
        return earlier_booking(self.ledger, self.profile, quote_id, rate_id)

    # -- booking --------------------------------------------------------------------------

    async def book(
        self,
        request: AnyBookingRequest,
        *,
        lane: Lane | None = None,
        reference: str | None = None,
        search_unknown: bool = True,
        order: OrderClaim | None = None,
        priced: Priced | None = None,
        turn: Callable[[], Awaitable[None]] | None = None,
    ) -> BookingOutcome:
        """Book once under ``reference`` (a new one when None); never raises for the service.

        ``turn``: awaited before the booking goes out when the look-up an order's claim asks
        for (``ask_service``) took the caller's turn, so that both keep the caller's pace.

        With ``order`` (a batch's), the ledger's ``sent`` record claims the order too: when
        another booking of it exists (another file, station or terminal), nothing is sent and
        that booking is the outcome (booked, or unknown while it is in flight).

        What the ledger already says of the reference comes first: booked -> ``BookedOutcome``
        with ``earlier`` (nothing sent); sent or unknown -> searched for (``settle``), never
        sent again; refused or absent -> sent. The ``sent`` line is written before the request
        goes out, and a ledger that cannot write it stops the booking (``FailedOutcome``).
        An outcome the answer leaves unknown is searched for at once when ``search_unknown``.
        """
        reference = reference or new_reference()
        placed = place_reference(request, reference)
        # Every reference field holds the user's own: the booking goes out without Freight's,
        # and a search looks for the user's reference too (its hits are only candidates).
        search_for = None if placed.fields else request.reference
        if reference in self._sending:
            return FailedOutcome(
                reference=reference,
                record=self.record(reference),
                reason=f"booking {reference} is being sent already",
            )
        self._sending.add(reference)
        try:
            return await self._book(
                placed.request, reference, lane, search_for, search_unknown, order, priced, turn
            )
        finally:
            self._sending.discard(reference)

    async def _book(
        self,
        request: AnyBookingRequest,
        reference: str,
        lane: Lane | None,
        search_for: str | None,
        search_unknown: bool,
        order: OrderClaim | None = None,
        priced: Priced | None = None,
        turn: Callable[[], Awaitable[None]] | None = None,
    ) -> BookingOutcome:
        carrying: list[Shipment] | None = None
        if order is not None and order.ask_service:
            # Before the ledger's row: an order stopped during its look-up was never sent.
            looked = await self._look_up(request, reference, lane, search_for, order)
            if isinstance(looked, FailedOutcome):
                return looked
            carrying = looked
            if not carrying and turn is not None:
                # The look-up took the caller's turn: the booking waits for its own, before
                # its ledger row (an order stopped while it waits was never sent).
                await turn()
        try:
            record = await self._io(
                lambda: self.ledger.sent(
                    self.profile,
                    request.quote_id,
                    request.rate_id,
                    reference,
                    lane=lane,
                    search_for=search_for,
                    order=order,
                    priced=priced,
                )
            )
        except OrderTakenError as taken:
            return _taken(await self._answered(taken.record))
        except AlreadySentError as sent_before:
            return await self._again(sent_before.record, search_unknown)
        except OSError as error:
            log.warning(
                "booking %s not sent: the ledger could not be written: %s", reference, error
            )
            return _unwritten(reference, error)
        if carrying:
            return await self._carried(record, carrying)
        try:
            booking = await self._post(request)
        except asyncio.CancelledError:
            # Stopped while in flight: it may have arrived. The ledger must ask for a search.
            with suppress(OSError):  # the "sent" line already asks for a search
                self.ledger.settle(record, "unknown", note="stopped before the answer came")
            raise
        except Exception as error:
            return await self._not_booked(record, error, search_unknown)
        ids = booking.identifiers
        settled, problem = await self._settle_record(
            record,
            "booked",
            shipment_id=ids.get("shipment_id"),
            pro_number=ids.get("pro_number") or ids.get("tracking_number"),
            bol_number=ids.get("bol_number"),
            pickup_date=booking.pickup_date,
            pickup_note=booking.pickup_date_message,
        )
        return BookedOutcome(
            reference=reference, record=settled, booking=booking, ledger_problem=problem
        )

    async def _look_up(
        self,
        request: AnyBookingRequest,
        reference: str,
        lane: Lane | None,
        search_for: str | None,
        order: OrderClaim,
    ) -> list[Shipment] | FailedOutcome | None:
        """An order's booking the ledger holds no row of (the store is new, lost, or behind):
        the service's shipments that carry its reference; None when the ledger has its row
        (nothing to ask); not sent when the service cannot be asked."""

        try:
            earlier = await self._io(lambda: self.ledger.latest(reference))
        except OSError as error:
            return _unwritten(reference, error)
        if earlier is not None and earlier.outcome != "failed":
            return None
        provisional = sent_record(
            self.profile,
            request.quote_id,
            request.rate_id,
            reference,
            lane=lane,
            search_for=search_for,
            order=order,
        )
        try:
            hits = await self._reference_hits(provisional)
        except FreightError as error:
            reason = (
                "the store holds no booking of this order and the service could not be asked "
                f"whether it was booked before ({_text(error)}), so it was not sent; run again"
            )
            return FailedOutcome(
                reference=reference, record=earlier, reason=reason, error=error, retryable=True
            )
        return proof.carrying(hits, provisional)

    async def _carried(
        self, record: BookingRecord, carrying: list[Shipment]
    ) -> BookedOutcome | UnknownOutcome:
        """The order's reference is on the service already: one shipment is its booking
        (adopted), several need a hand; nothing is sent."""
        if len(carrying) == 1:
            return await self._found(
                record,
                carrying[0],
                note=f"found on the service under its reference {record.reference} before it "
                "was sent: booked before this store knew it, adopted, not sent again",
            )
        return await self._several(record, carrying)

    async def _several(self, record: BookingRecord, carrying: list[Shipment]) -> UnknownOutcome:
        """An order whose reference several shipments carry: it was booked (more than once),
        and only a person can say which to keep; never booked another time."""
        names = ", ".join(shipment.id for shipment in carrying[:10])
        reason = (
            f"{len(carrying)} shipments on the service carry its reference {record.reference} "
            f"({names}): it was booked already; keep one and cancel the others, not sent again"
        )
        settled, problem = await self._settle_record(record, "unknown", note=reason)
        return UnknownOutcome(
            reference=record.reference,
            record=settled,
            reason=reason,
            candidates=tuple(Candidate(s, "carries the order's reference") for s in carrying),
            searched=True,
            ledger_problem=problem,
        )

    async def _answered(self, record: BookingRecord) -> BookingRecord:
        """Another's booking of the order, once its answer is in (it is in flight at another
        station: wait a little for it rather than call it unknown)."""
        reference = record.reference
        deadline = asyncio.get_running_loop().time() + TAKEN_WAIT_S
        while record.outcome == "sent" and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.25)
            with suppress(OSError):
                latest: BookingRecord | None = await asyncio.to_thread(
                    self.ledger.latest, reference
                )
                record = latest or record
        return record

    async def _post(self, request: AnyBookingRequest) -> Booking | ParcelBooking:

        if isinstance(request, ParcelBookingRequest):
            return await self.client.book_parcel(request)
        return await self.client.book(request)

    async def _again(self, earlier: BookingRecord, search_unknown: bool) -> BookingOutcome:
        """A reference the ledger holds as sent or booked: never sent again."""
        if earlier.outcome == "booked":
            return BookedOutcome(reference=earlier.reference, record=earlier, earlier=True)
        reason = "it was sent before and no answer said how it ended"
        if not search_unknown:
            return UnknownOutcome(reference=earlier.reference, record=earlier, reason=reason)
        return await self._searched(earlier, reason)

    async def _not_booked(
        self, record: BookingRecord, error: Exception, search_unknown: bool
    ) -> BookingOutcome:

        reference = record.reference
        not_taken = (
            TransportError,
            AuthenticationError,
            SubscriptionError,
            PermissionDeniedError,
            RateLimitedError,
        )
        if isinstance(error, not_taken):
            # Never reached the service, or not taken from this account: nothing was booked.
            settled, problem = await self._settle_record(record, "failed", note=str(error))
            return FailedOutcome(
                reference=reference,
                record=settled,
                ledger_problem=problem,
                reason=str(error),
                error=error,
                retryable=isinstance(error, TransportError | RateLimitedError),
            )
        if isinstance(error, ConflictError) and error.shipment_id:
            return await self._booked_before(record, error.shipment_id)
        if isinstance(error, RequestValidationError) or (
            isinstance(error, ApiError) and 400 <= error.status < 500
        ):
            # Looked at and refused: fields, an expired or unknown quote, booked already (409).
            fields: Mapping[str, str] = getattr(error, "fields", None) or {}
            settled, problem = await self._settle_record(record, "failed", note=str(error))
            return RefusedOutcome(
                reference=reference,
                record=settled,
                ledger_problem=problem,
                message=str(error),
                fields=dict(fields),
                error=error,
            )
        # No usable answer, or an error nothing expected after the request went out: it may
        # have been booked.
        if isinstance(error, BookingOutcomeUnknownError):
            reason = error.reason
        else:
            reason = _text(error)
            log.warning("booking %s: unexpected %s; outcome unknown", reference, type(error))
        settled, problem = await self._settle_record(record, "unknown", note=reason)
        if not search_unknown:
            return UnknownOutcome(
                reference=reference, record=settled, ledger_problem=problem, reason=reason
            )
        outcome = await self._searched(settled, reason)
        return replace(outcome, ledger_problem=outcome.ledger_problem or problem)

    async def _booked_before(self, record: BookingRecord, shipment_id: str) -> BookedOutcome:
        """The service says this quote and rate were booked before as ``shipment_id``: the
        order is booked as that shipment (its PRO and BOL read from its detail when the
        service answers), never ``failed`` (a failed order would be rated and booked again)."""

        kept = await self._io(
            lambda: self.ledger.for_rate(self.profile, record.quote_id, record.rate_id)
        )
        earlier = next(
            (r for r in kept if r.outcome == "booked" and r.shipment_id == shipment_id), None
        )
        if earlier is not None and earlier.reference != record.reference:
            # The ledger holds that booking already: this attempt booked nothing of its own
            # (kept as refused, so no report counts the shipment twice), the order is booked.
            await self._settle_record(
                record, "failed", note=f"booked already as {shipment_id} ({earlier.reference})"
            )
            return BookedOutcome(reference=earlier.reference, record=earlier, earlier=True)
        pro = bol = None
        with suppress(FreightError):
            detail = await self.client.get_shipment(shipment_id)
            pro, bol = detail.pro_number, detail.bol_number
        settled, problem = await self._settle_record(
            record,
            "booked",
            shipment_id=shipment_id,
            pro_number=pro,
            bol_number=bol,
            note=f"the service says this rate was booked before as shipment {shipment_id}: "
            "kept as that booking, not sent again",
        )
        return BookedOutcome(
            reference=record.reference, record=settled, earlier=True, ledger_problem=problem
        )

    async def _settle_record(
        self, record: BookingRecord, outcome: str, **values: Any
    ) -> tuple[BookingRecord, str | None]:
        """Record how it ended; on a ledger failure keep the old record and say why."""
        try:
            settled = await self._io(
                lambda: self.ledger.settle(record, outcome, **values)  # type: ignore[arg-type]
            )
        except OSError as error:
            log.warning("booking ledger not written for %s: %s", record.reference, error)
            return record, f"the booking ledger could not be written ({_text(error)})"
        return settled, None

    # -- settling an unknown outcome ------------------------------------------------------

    async def _searched(self, record: BookingRecord, reason: str) -> BookedOutcome | UnknownOutcome:

        try:
            outcome = await self.settle(record)
        except FreightError as error:
            return UnknownOutcome(
                reference=record.reference,
                record=record,
                reason=reason,
                search_error=str(error),
            )
        if isinstance(outcome, UnknownOutcome):
            return replace(outcome, reason=reason)
        return outcome

    async def settle(self, record: BookingRecord) -> BookedOutcome | UnknownOutcome:
        """Search for a booking sent before, and record it as booked when the search proves it.

        Proof: a listed shipment that shows the booking's reference, or the PRO or shipment id
        its answer gave (exactly one such shipment). Hits without them, and shipments created
        since the booking was sent on its lane, come back as candidates for the user to judge.
        A record the ledger already holds as booked stays booked (``found`` set when listed).
        Raises ``FreightError`` when the search itself fails.
        """
        hits = await self._reference_hits(record)
        found = proof.proven(hits, record)
        if found is not None:
            return await self._found(record, found)
        if record.outcome == "booked":
            return BookedOutcome(reference=record.reference, record=record, earlier=True)
        candidates = [Candidate(shipment, _why_hit(shipment, record)) for shipment in hits]
        listed = {candidate.shipment.id for candidate in candidates}
        for shipment, why in await self._lane_candidates(record):
            if shipment.id not in listed:
                listed.add(shipment.id)
                candidates.append(Candidate(shipment, why))
        return UnknownOutcome(
            reference=record.reference,
            record=record,
            reason=record.note or "no answer said how it ended",
            candidates=tuple(candidates),
            searched=True,
        )

    async def _found(
        self, record: BookingRecord, shipment: Shipment, note: str | None = None
    ) -> BookedOutcome:
        if record.outcome == "booked":
            return BookedOutcome(
                reference=record.reference, record=record, found=shipment, earlier=True
            )
        settled, problem = await self._settle_record(
            record,
            "booked",
            shipment_id=shipment.id,
            pro_number=shipment.pro_number,
            bol_number=shipment.bol_number,
            note=note or f"found by searching for {record.reference}",
        )
        return BookedOutcome(
            reference=record.reference, record=settled, found=shipment, ledger_problem=problem
        )

    async def confirm(
        self, record: BookingRecord, shipment: Shipment, why: str | None = None
    ) -> BookedOutcome:
        """The user says a candidate is this booking: the ledger records it as booked."""
        note = "confirmed by the user" + (f" ({why})" if why else "")
        settled, problem = await self._settle_record(
            record,
            "booked",
            shipment_id=shipment.id,
            pro_number=shipment.pro_number,
            bol_number=shipment.bol_number,
            note=note,
        )
        return BookedOutcome(
            reference=record.reference,
            record=settled,
            found=shipment,
            confirmed_by_user=True,
            ledger_problem=problem,
        )

    async def _reference_hits(self, record: BookingRecord) -> list[Shipment]:
        """What a search for the reference (and the PRO, when known) lists, each once."""
        terms = search_terms(record)
        found: dict[str, Shipment] = {}
        for term in terms:
            token: str | None = None
            for _ in range(REFERENCE_PAGES):
                page = await self.client.search_shipments({"text": term}, token)
                for shipment in page.shipments:
                    found.setdefault(shipment.id, shipment)
                token = page.continuation_token
                if token is None or not page.shipments or proof.proven(found.values(), record):
                    break
        return list(found.values())

    async def _lane_candidates(self, record: BookingRecord) -> list[tuple[Shipment, str]]:
        """Shipments created since the booking was sent on its lane (recent pages only)."""

        lane = record.lane
        if lane is None or not (lane.origin or lane.destination):
            return []
        query: Mapping[str, object] = {}
        if lane.pickup_date is not None:
            query = {
                "pickup_date_from": lane.pickup_date,
                "pickup_date_to": lane.pickup_date + proof.PICKUP_SLACK,
            }
        try:
            shipments = await self._pages(query)
        except InvalidRequestError:
            if not query:
                raise
            shipments = await self._pages({})  # a server without date filters
        out = []
        for shipment in shipments:
            why = proof.on_lane(shipment, lane, record.sent_at)
            if why is not None:
                out.append((shipment, why))
        return out

    async def _pages(self, query: Mapping[str, object]) -> list[Shipment]:
        shipments: list[Shipment] = []
        seen: set[str] = set()
        token: str | None = None
        for _ in range(LANE_PAGES):
            page = await self.client.search_shipments(dict(query), token)
            for shipment in page.shipments:
                if shipment.id not in seen:
                    seen.add(shipment.id)
                    shipments.append(shipment)
            token = page.continuation_token
            if token is None or not page.shipments:
                break
        return shipments


def _unwritten(reference: str, error: OSError) -> FailedOutcome:
    return FailedOutcome(
        reference=reference,
        record=None,
        reason=f"the booking ledger could not be written ({_text(error)}), so the "
        "booking was not sent",
        error=error,
        retryable=True,
    )


def _taken(record: BookingRecord) -> BookedOutcome | UnknownOutcome:
    """The outcome of an order another booking holds: that booking's, nothing sent."""
    if record.outcome == "booked":
        return BookedOutcome(reference=record.reference, record=record, earlier=True, taken=True)
    when = (record.sent_at or record.time).astimezone().strftime("%Y-%m-%d %H:%M")
    reason = (
        f"order {record.order_number} is being booked by {record.station or 'another station'}"
        f" (sent {when} as {record.reference}): not sent again"
    )
    return UnknownOutcome(reference=record.reference, record=record, reason=reason, taken=True)


def earlier_booking(
    ledger: Ledger, profile: str, quote_id: str, rate_id: str
) -> BookingRecord | None:
    """The latest booking of a quote and rate in a profile that was not refused, if any."""
    return needs_check(ledger.for_rate(profile, quote_id, rate_id))


def search_terms(record: BookingRecord) -> list[str]:
    """What to search for: the booking's reference (or the user's own, when Freight's could
    not be sent), and its PRO when one is known."""
    terms = [record.reference]
    for term in (record.search_for, record.pro_number):
        if term and term not in terms:
            terms.append(term)
    return terms


def _why_hit(shipment: Shipment, record: BookingRecord) -> str:
    """Why a search hit that does not carry the booking is shown all the same."""
    theirs = record.search_for
    if theirs and (shipment.reference == theirs or proof.shows(shipment.raw, theirs)):
        return f"it shows your reference {theirs} (which other shipments may carry too)"
    return "found by the search, but it does not show the reference"
