"""Book a batch's chosen rates through the one booking engine (``tui.booking``), and keep the
paperwork of every order in one folder.

Each order is booked under its own reference, kept in the batch's state before anything is
sent: a rerun (after a crash, a kill, a dropped session) gives the same reference to the
engine, which never sends a reference twice: one the ledger holds as booked is skipped, one
sent with no answer is searched for. An order whose number a booking of another batch of the
profile already holds is not booked again. Requests keep the batch's one pace; a 429 pauses
them all.
"""

from __future__ import annotations

import asyncio
import time
import zipfile
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Final, ParamSpec, TypeVar

from tui.api.errors import FreightError, QuoteExpiredError, RateLimitedError, RequestValidationError
from tui.api.models import BookingRequest, ParcelBookingRequest
from tui.api.models.ends import EndFields
from tui.atomic import replacing
from tui.batch.model import BOOKED_OR_MAYBE, Order, OrderState, RateOption, RowError
from tui.batch.orders import field_error
from tui.batch.pace import Pace, WaitTooLongError, each, waiting_text
from tui.batch.paperwork import owed, owing, save_paperwork
from tui.batch.rating import format_seconds
from tui.booking import BookedOutcome
from tui.documents import PrintJob
from tui.domain.safe_text import plain, safe_name_part
from tui.ledger import Lane, Offer, OrderClaim, new_reference, order_reference, priced

P = ParamSpec("P")
R = TypeVar("R")

if TYPE_CHECKING:
    from datetime import datetime

    from tui.api.client import FreightClient
    from tui.api.models import Document
    from tui.batch.engine import Batch
    from tui.booking import BookingEngine, BookingOutcome
    from tui.ledger import BookingRecord, Ledger, Priced

DEFAULT_BOOKING_CONCURRENCY: Final = 4
MAX_LIMITED_TRIES: Final = 12
CLAIM_GROUP: Final = 8
"""Orders a station claims at a time (at least twice its concurrency)."""


@dataclass(frozen=True)
class BookProgress:
    """How far a booking run is."""

    done: int
    total: int
    booked: int
    elapsed: float
    waiting: datetime | None = None
    """When the pause a 429 asked for ends (None: not waiting)."""

    @property
    def text(self) -> str:
        """``Booked 5 of 12 · 0:10 left`` (`` · waiting until 10:31:05 …`` in a pause)."""

        tail = ""
        if 0 < self.done < self.total and self.elapsed > 0:
            left = (self.total - self.done) * self.elapsed / self.done
            tail = f" · {format_seconds(left)} left"
        problems = self.done - self.booked
        extra = f" · {problems} not booked" if problems else ""
        return f"Booked {self.booked} of {self.total}{extra}{tail}{waiting_text(self.waiting)}"


def to_book(batch: Batch, keys: Collection[str] | None = None) -> list[Order]:
    """The orders a booking run takes (of ``keys``, when given): rated ones (with a rate
    chosen), and those whose booking was sent with no answer known (settled first, never
    sent again)."""
    out = []
    for order in batch.orders:
        if keys is not None and order.key not in keys:
            continue
        state = batch.state(order.key)
        if not order.packed and state.status not in ("booking", "unknown"):
            continue
        if state.status in ("booking", "unknown") or (
            state.status == "rated" and state.choice is not None
        ):
            out.append(order)
    return out


def book_again(batch: Batch, key: str, reference: str, ledger: Ledger | None = None) -> OrderState:
    """An order whose booking's outcome stayed unknown, and none of the shipments a search
    found is it (the user said so, having seen the search's answer): it is to be booked again
    under a new reference (the next booking run sends it; it may make a second shipment).
    The ledger (when given) records the old booking as not booked, which frees the order for
    the new one. Raises ValueError when the order is not such an order; OSError when the
    ledger cannot be written."""

    state = batch.state(key)
    if state.status not in ("booking", "unknown") or state.choice is None:
        raise ValueError(f"order {key} has no booking of unknown outcome to replace")
    if state.reference != reference:
        raise ValueError(f"order {key} was booked under {state.reference}, not {reference}")
    note = f"booked again: no shipment found was its booking under {reference}"
    record = ledger.latest(reference) if ledger is not None else None
    if ledger is not None and record is not None and record.outcome in ("sent", "unknown"):
        ledger.settle(record, "failed", note="the user said no shipment found is it")
    after = state.updated(
        status="rated",
        reference=new_reference(),
        errors=(),
        notes=tuple(dict.fromkeys((*state.notes, note))),
    )
    batch.save(after)
    return after


def claimed(batch: Batch, key: str, record: BookingRecord) -> OrderState:
    """An order whose booking's outcome was unknown, once the user said a shipment found is
    it (the ledger's ``record`` then says booked): booked, with that shipment's numbers."""
    state = batch.state(key)
    if record.reference != state.reference or record.outcome != "booked":
        return state
    after = state.updated(
        status="booked",
        shipment_id=plain(record.shipment_id or state.shipment_id, limit=80),
        pro_number=plain(record.pro_number or state.pro_number, limit=40),
        bol_number=plain(record.bol_number or state.bol_number, limit=40),
        errors=(),
        notes=tuple(dict.fromkeys((*state.notes, "said to be this shipment by the user"))),
    )
    after = owed(after)  # its paperwork: fetched by the next booking run
    batch.save(after)
    return after


def booking_totals(batch: Batch, orders: Sequence[Order]) -> dict[str, Decimal]:
    """The chosen totals of ``orders`` per currency (what a confirmation names)."""
    out: dict[str, Decimal] = {}
    for order in orders:
        choice = batch.state(order.key).choice
        if choice is not None:
            out[choice.currency] = out.get(choice.currency, Decimal(0)) + choice.total
    return out


def booking_request(order: Order, state: OrderState) -> BookingRequest | ParcelBookingRequest:
    """The booking of an order's chosen rate: both ends' addresses and contacts, the order
    number as the shipper's reference, the PO as the consignee's, the emergency contact of
    hazardous freight, the pickup day (the accessorials are the quote's: its rates were
    priced with them). Raises RequestValidationError."""

    rate = order.request  # unpacked once
    assert rate is not None
    choice = state.choice
    assert choice is not None
    ends = {
        name: getattr(rate, name)
        for name in EndFields.model_fields
        if getattr(rate, name) is not None
    }
    pickup = rate.pickup_date
    if choice.mode == "parcel":
        return ParcelBookingRequest.build(
            {**ends, "quote_id": state.quote_id, "rate_id": choice.id, "pickup_date": pickup}
        )
    return BookingRequest.build(
        {
            **ends,
            "quote_id": state.quote_id,
            "rate_id": choice.id,
            "schedule_pickup": True,
            "pickup_date": pickup,
        }
    )


def documents_folder(root: Path, batch: Batch) -> Path:
    """The one folder of a batch's paperwork: ``batch-<file name>`` under ``root``."""
    source = batch.info.source
    stem = "pasted" if source.startswith("pasted:") else Path(source).stem
    return root / f"batch-{safe_name_part(stem, limit=60) or 'orders'}"


async def book_orders(
    batch: Batch,
    engine: BookingEngine,
    client: FreightClient,
    *,
    folder: Path | None,
    pace: Pace | None = None,
    concurrency: int = DEFAULT_BOOKING_CONCURRENCY,
    progress: Callable[[BookProgress], None] | None = None,
    on_state: Callable[[OrderState], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    keys: Collection[str] | None = None,
    paperwork_only: bool = False,
) -> None:
    """Book every order ``to_book`` gives (of ``keys``, when given), each saved as it
    changes; paperwork into ``folder`` (None: not saved), also that of orders booked before
    and still owing it (``paperwork_only``: only that). Cancelling stops at once: a booking
    in flight is searched for by the next run. Raises WaitTooLongError (a 429 asked to wait
    longer than the pace's cap)."""
    pace = pace or Pace()
    booking = [] if paperwork_only else to_book(batch, keys)
    taken = {order.key for order in booking}
    fetching = [o for o in owing(batch, keys) if o.key not in taken] if folder else []
    orders = booking + fetching
    total = len(orders)
    started = clock()
    done = booked = 0

    async def keep(state: OrderState) -> None:
        await batch.keep(state)  # the store's write, off the event loop
        if on_state is not None:
            on_state(batch.states[state.key])  # the store's, if another moved it

    def report() -> None:
        if progress is not None:
            progress(BookProgress(done, total, booked, clock() - started, pace.wait_end()))

    async def one(order: Order) -> None:
        nonlocal done, booked
        state = batch.state(order.key)
        given: list[Document] = []
        if order.key in bookable:
            state, given = await _book_one(batch, engine, client, order, pace, keep, folder)
        if state.owes_paperwork and folder is not None:
            state = await save_paperwork(client, order.key, state, folder, keep, given, pace)
        done += 1
        booked += state.status == "booked"
        report()

    pace.on_wait = report
    report()
    group = max(2 * concurrency, CLAIM_GROUP)
    bookable: set[str] = set()
    renewing = asyncio.create_task(batch.renew_leases())
    try:
        for start in range(0, total, group):
            chunk = orders[start : start + group]
            mine, bookable = await _claimed_orders(batch, chunk, taken, fetch=folder is not None)
            done += len(chunk) - len(mine)  # another station has them, or had them
            try:
                await each(mine, concurrency, one)
            finally:
                mine_keys = [o.key for o in mine]
                await _off_loop(batch.store.release, batch.info.id, mine_keys)
    finally:
        renewing.cancel()
        # What the other stations did is part of this batch's answer too.
        batch.states.update(await _off_loop(batch.read_states, [o.key for o in orders]))
        report()


async def _off_loop(call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """A store call, in a worker thread: the event loop (the app's screen) never waits on
    the store, whose lock another process may hold for seconds."""
    return await asyncio.to_thread(call, *args, **kwargs)


async def _claimed_orders(
    batch: Batch, chunk: Sequence[Order], taken: Collection[str], *, fetch: bool
) -> tuple[list[Order], set[str]]:
    """The orders of ``chunk`` this station now holds, their states as the store has them
    (another station may have booked some since this one read the batch), and which of them
    to book (of ``taken``); the others owe paperwork (fetched when ``fetch``)."""

    def claim() -> tuple[list[str], dict[str, OrderState]]:
        keys = batch.store.claim(batch.info.id, [o.key for o in chunk], booked=fetch)
        return keys, (batch.store.orders(batch.info.id, keys) if keys else {})

    keys, states = await _off_loop(claim)
    if not keys:
        return [], set()
    batch.states.update(states)
    book = {o.key for o in to_book(batch, keys) if o.key in taken}
    still = book | ({o.key for o in owing(batch, keys)} if fetch else set())
    await _off_loop(batch.store.release, batch.info.id, [k for k in keys if k not in still])
    return [o for o in chunk if o.key in still], book


async def _book_one(
    batch: Batch,
    engine: BookingEngine,
    client: FreightClient,
    order: Order,
    pace: Pace,
    keep: Callable[[OrderState], Awaitable[None]],
    folder: Path | None,
) -> tuple[OrderState, list[Document]]:
    """Book one order (or settle its booking); the state after (owing its paperwork when
    booked and ``folder`` is given: in the same save), and the documents the booking's
    answer named."""

    state = batch.state(order.key)
    unsent = state.status not in BOOKED_OR_MAYBE
    if unsent:
        # Another batch (file, station) holding the order is found by the ledger's claim.
        # Keyed by the account the credentials name, not the profile's name: two profiles
        # on one account give an order one reference, so its booking is found, not repeated.
        reference = state.reference or order_reference(
            client.account or batch.profile, engine.ledger.environment, order.key
        )
        state = state.updated(status="booking", reference=reference, errors=())
    choice = state.choice
    rate = order.request  # unpacked once
    if rate is None or choice is None:
        # Its booking was sent before; the file no longer says it: search, never send.
        return await _settle_only(engine, state, keep, folder is not None, pace), []
    try:
        request = booking_request(order, state)
    except RequestValidationError as error:
        from tui.batch.orders import field_error

        errors = tuple(
            field_error(order.rows, batch.mapping, path, message)
            for path, message in error.fields.items()
        )
        after = state.updated(status="failed", errors=errors)
        await keep(after)
        return after, []
    lane = Lane(
        rate.origin_postal_code,
        rate.dest_postal_code,
        choice.carrier,
        choice.carrier_code or None,
        rate.pickup_date,
    )

    async def booking_turn() -> None:  # the look-up before it was answered: its turn's end
        pace.ok()
        await pace.turn()

    for _ in range(MAX_LIMITED_TRIES):
        await pace.turn()
        if unsent:  # an order stopped while it waited for its turn (a long Retry-After, a
            # cancel) was never sent: it stays as it was (rated), never `unknown`
            await keep(state)  # the reference is kept before anything can be sent
            unsent = False
        outcome = await engine.book(
            request,
            lane=lane,
            reference=state.reference,
            # No store can prove an order was never sent (it may be new, emptied, imported,
            # or a backup that does not know it is behind): an order with no ledger row is
            # looked up on the service by its reference before anything is sent.
            order=OrderClaim(order.key, batch.info.id, ask_service=True),
            priced=_priced(choice, state.rates, order.weight_lb),
            turn=booking_turn,
        )
        state = _held_by(state, outcome)
        cause = getattr(outcome, "error", None)
        if outcome.status == "failed" and isinstance(cause, RateLimitedError):
            try:
                pace.limited(cause.retry_after)
            except WaitTooLongError:
                await keep(state.updated(status="rated"))  # a 429 books nothing: booked next run
                raise
            continue
        pace.ok()
        after = _state_after(batch, order, state, outcome)
        after = owed(after) if folder is not None else after
        twin = _same_shipment(batch, after)
        if twin is not None:  # one shipment for two orders: both need a hand
            after, other = _flag_twins(after, twin)
            await keep(other)
        await keep(after)
        booking = getattr(outcome, "booking", None)
        given = list(getattr(booking, "documents", None) or getattr(booking, "labels", None) or [])
        return after, given
    after = state.updated(
        status="failed",
        errors=(RowError(None, None, None, "the service kept answering 429 (too many requests)"),),
    )
    await keep(after)
    return after, []


def _same_shipment(batch: Batch, state: OrderState) -> OrderState | None:
    """Another order of the batch the service gave the same shipment id (None: none)."""
    if state.status != "booked" or not state.shipment_id:
        return None
    return next(
        (
            other
            for key, other in batch.states.items()
            if key != state.key and other.shipment_id == state.shipment_id
        ),
        None,
    )


def _flag_twins(state: OrderState, twin: OrderState) -> tuple[OrderState, OrderState]:
    """Both orders flagged: the service returned one shipment id for the two of them (each
    stays booked as the service said: never sent again, but checked by hand)."""
    shipment = plain(state.shipment_id, limit=80)

    def flagged(one: OrderState, other: OrderState) -> OrderState:
        reason = (
            f"the service returned shipment {shipment} for order {plain(other.key, limit=40)} "
            "too: check both on Shipments"
        )
        return one.updated(errors=(*one.errors, RowError(None, None, None, reason)))

    return flagged(state, twin), flagged(twin, state)


def _held_by(state: OrderState, outcome: BookingOutcome) -> OrderState:
    """The order's state following the booking that holds the order, when that is another's
    (another file, station or terminal booked it): its reference, who and when."""
    record = outcome.record
    if record is None or not outcome.taken:
        return state
    when = (record.sent_at or record.time).astimezone().strftime("%Y-%m-%d %H:%M")
    who = plain(record.station or "another station", limit=80)
    note = f"booked by {who} at {when} as {record.reference}, not sent again"
    return state.updated(reference=record.reference, notes=(*state.notes, note))


async def _settle_only(
    engine: BookingEngine,
    state: OrderState,
    keep: Callable[[OrderState], Awaitable[None]],
    owes: bool,
    pace: Pace,
) -> OrderState:

    record = await _off_loop(engine.record, state.reference)
    if record is None:
        after = state.updated(status="rated" if state.choice else "pending")
        await keep(after)
        return after
    try:
        await pace.turn()  # its search: requests of the batch too
        outcome: BookingOutcome = await engine.settle(record)
    except FreightError as error:
        after = state.updated(
            status="unknown", errors=(RowError(None, None, None, plain(str(error))),)
        )
        await keep(after)
        return after
    pace.ok()
    after = _booked_or_unknown(state, outcome)
    after = owed(after) if owes else after
    await keep(after)
    return after


def _state_after(
    batch: Batch, order: Order, state: OrderState, outcome: BookingOutcome
) -> OrderState:

    if outcome.status in ("booked", "unknown"):
        return _booked_or_unknown(state, outcome)
    if outcome.status == "refused":
        if isinstance(outcome.error, QuoteExpiredError):
            reason = "the quote expired before it was booked: rate it again (r, or --rerate)"
            errors: tuple[RowError, ...] = (RowError(None, None, None, reason),)
        elif outcome.already_booked is not None:
            shipment = (
                f" as shipment {plain(outcome.already_booked)}" if outcome.already_booked else ""
            )
            reason = f"the service says this rate was booked before{shipment}: not booked again"
            errors = (RowError(None, None, None, reason),)
        elif outcome.fields:
            errors = tuple(
                field_error(order.rows, batch.mapping, plain(path, limit=80), plain(m, limit=300))
                for path, m in outcome.fields.items()
            )
        else:
            errors = (RowError(None, None, None, plain(outcome.message, limit=500)),)
        return state.updated(status="failed", errors=errors)
    reason = plain(getattr(outcome, "reason", ""), limit=500)  # failed: nothing was booked
    return state.updated(status="failed", errors=(RowError(None, None, None, reason),))


def _booked_or_unknown(state: OrderState, outcome: BookingOutcome) -> OrderState:

    if isinstance(outcome, BookedOutcome):
        booking = outcome.booking
        tracking: tuple[str, ...] = state.tracking_numbers
        confirmation = state.pickup_confirmation
        if booking is not None:
            numbers = getattr(booking, "tracking_numbers", None) or []
            single = getattr(booking, "tracking_number", None)
            tracking = tuple(plain(n, limit=40) for n in (numbers or ([single] if single else [])))
            confirmation = plain(getattr(booking, "pickup_confirmation", None) or "", limit=40)
            if booking.pickup_date is not None:
                state = state.updated(pickup_date=booking.pickup_date.isoformat())
        elif outcome.found is not None and outcome.found.tracking_number and not tracking:
            tracking = (plain(outcome.found.tracking_number, limit=40),)
        notes = ["found by a search after no answer came"] if outcome.found is not None else []
        message = getattr(booking, "pickup_date_message", None) if booking is not None else None
        if isinstance(message, str) and message.strip():
            notes.append(plain(message, limit=200))  # the service moved the pickup: why
        return state.updated(
            status="booked",
            shipment_id=plain(outcome.shipment_id or state.shipment_id, limit=80),
            pro_number=plain(outcome.pro_number or state.pro_number, limit=40),
            bol_number=plain(outcome.bol_number or state.bol_number, limit=40),
            tracking_numbers=tracking,
            pickup_confirmation=confirmation,
            errors=(),
            notes=tuple(dict.fromkeys((*state.notes, *notes))),
        )
    candidates = len(getattr(outcome, "candidates", ()))
    searched = getattr(outcome, "searched", False)
    found = (
        f"; {candidates} shipment(s) may be it: check them (Shipments) before booking again"
        if candidates
        else ("; a search found nothing yet" if searched else "")
    )
    reason = plain(getattr(outcome, "reason", "no answer came"), limit=300)
    return state.updated(
        status="unknown",
        errors=(RowError(None, None, None, f"booking outcome unknown: {reason}{found}"),),
    )


# -- printing -----------------------------------------------------------------------------


def print_calls(
    files: Sequence[Path],
    *,
    document_printer: str | None,
    label_printer: str | None,
    label_format: str = "zpl",
) -> list[PrintJob]:
    """The ``lp`` jobs that print every file of a batch (run each with
    ``tui.documents.run_print_job``): one for its PDFs (to the document printer, or the system
    default with none set), one for its ZPL labels (raw, to a ZPL label printer; none without
    one)."""

    pdfs = [p for p in files if p.suffix.lower() != ".zpl"]
    zpl = [p for p in files if p.suffix.lower() == ".zpl"]
    calls = []
    if pdfs:
        calls.append(PrintJob(document_printer, pdfs[0], raw=False, also=tuple(pdfs[1:])))
    if zpl and label_printer and label_format == "zpl":
        calls.append(PrintJob(label_printer, zpl[0], raw=True, also=tuple(zpl[1:])))
    return calls


def paperwork_files(batch: Batch, folder: Path) -> list[Path]:
    """Every saved document of the batch's orders, in the file's order."""
    files: list[Path] = []
    for order in batch.orders:
        for name in batch.state(order.key).documents:
            path = folder / name
            if path.is_file():
                files.append(path)
    return files


def paperwork_bundle(files: Sequence[Path], folder: Path) -> Path:
    """One zip of the batch's paperwork beside its folder (``batch-orders.zip``), each file
    under its own name; written whole or not at all. For a browser, which takes one download
    where dozens would each ask the user."""

    target = folder.with_name(f"{folder.name}.zip")
    with (
        replacing(target) as replacement,
        zipfile.ZipFile(replacement.file, "w", zipfile.ZIP_DEFLATED) as bundle,
    ):
        for path in files:
            bundle.write(path, arcname=path.name)
    return target


def _offer(option: RateOption) -> Offer:

    return Offer(
        option.id,
        option.carrier,
        option.carrier_code or None,
        option.total,
        option.currency,
        option.days,
    )


def _priced(choice: RateOption, offers: Iterable[RateOption], pounds: Decimal) -> Priced:
    """The booked rate, the bookable offers it was chosen from, and the order's pounds."""

    return priced(_offer(choice), [_offer(o) for o in offers if o.ok], pounds or None)
